// World::keepFrictionInCones: the Coulomb cone of every contact at the end of the velocity solve.
#include <cmath>

#include "impetus/dynamics/world.h"
#include "impetus/solver/row_kernels.h"
#include "impetus/solver/sequential_impulse_solver.h"

namespace impetus {
namespace {

/// Sweeps of a manifold whose friction left its cone: its own rows, normal and friction, once
/// more, so that the sticking force the point could not carry moves to the points that can.
constexpr int kConeSweeps = 4;
/// How far past mu N a friction impulse may be and still count as in the cone (rounding).
constexpr double kConeTolerance = 1e-9;

}  // namespace

bool World::keepFrictionInCones() {
  // A sweep bounds each friction pair by its normal impulse as it stands then; a later row can
  // still lower that normal, and when the iterations stop before the two agree again (limbs
  // heaped on limbs, at the cap) a point ended the step with up to twice mu N. Such a manifold is
  // swept on its own until it settles, and whatever is still past a cone is taken back (the
  // velocities with it): friction never exceeds mu N, and a face on a slope still sticks.
  // On a jointed link both are done with the link's own mass, which leaves its joints' velocity
  // errors (an MF-4 jaw dragged over the ground was left spinning at 174 rad/s and its rail
  // pulled 30 mm open): there only the excess is taken back, and the caller settles the
  // velocities onto the joints (the return value says so).
  const auto pastCone = [&](const ContactPoint& c) {
    if (c.frictionRow < 0) return false;
    const double t1 = rows_.row(c.frictionRow).impulse, t2 = rows_.row(c.frictionRow + 1).impulse;
    const double bound = std::max(c.friction * rows_.row(c.normalRow).impulse, 0.0);
    return t1 * t1 + t2 * t2 > bound * bound * (1.0 + kConeTolerance);
  };
  bool jointsMoved = false;
  for (size_t first = island_->contactBegin; first < island_->contactEnd;) {
    const size_t last = manifoldEnd(first);
    bool past = false;
    for (size_t k = first; k < last && !past; ++k) past = pastCone(contacts_[k]);
    if (past) {
      const ContactPoint& c0 = contacts_[first];
      const bool jointed = jointedInIsland(c0.bodyA) || jointedInIsland(c0.bodyB);
      jointsMoved = jointsMoved || jointed;
      frictionBlocks_.assign(1, c0.normalBlock);
      for (size_t k = first; k < last; ++k)
        if (contacts_[k].frictionBlock >= 0) frictionBlocks_.push_back(contacts_[k].frictionBlock);
      for (int sweep = 0; sweep < kConeSweeps && !jointed; ++sweep)
        solveBlockSubset(rows_, frictionBlocks_, velocities_, rotorSpeeds_);
      for (size_t k = first; k < last; ++k) {
        const ContactPoint& c = contacts_[k];
        if (!pastCone(c)) continue;
        ConstraintRow* pair = &rows_.row(c.frictionRow);
        const double norm = std::hypot(pair[0].impulse, pair[1].impulse);
        const double scale = std::max(c.friction * rows_.row(c.normalRow).impulse, 0.0) / norm;
        for (int i = 0; i < 2; ++i) {
          const double dp = (scale - 1.0) * pair[i].impulse;
          pair[i].impulse += dp;
          applyImpulse(pair[i], dp, velocities_[static_cast<size_t>(pair[i].bodyA)],
                       velocities_[static_cast<size_t>(pair[i].bodyB)],
                       rotorSpeeds_[static_cast<size_t>(pair[i].rotor)]);
        }
      }
    }
    first = last;
  }
  return jointsMoved;
}

}  // namespace impetus
