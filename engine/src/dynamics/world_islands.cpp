// The world's solver islands (solver_islands.h): which rows go together, and the velocity pass
// of one island.
#include <algorithm>

#include "impetus/dynamics/world.h"
#include "impetus/solver/sequential_impulse_solver.h"

namespace impetus {
namespace {

/// Rounds of the friction cone's take-back and the tree's settling (World::keepFrictionInCones).
constexpr int kConeRounds = 3;

}  // namespace

void World::partitionIslands() {
  movable_.resize(bodies_.size());
  for (size_t i = 0; i < bodies_.size(); ++i)
    movable_[i] = bodies_[i].isDynamic() && !bodies_[i].sleeping &&
                  (articulated_.empty() || !articulated_[i]);
  solverIslands_.reset(movable_, rotorSpeeds_.size());
  for (size_t j = 0; j < joints_.size(); ++j) {
    const Joint& joint = *joints_[j];
    if (jointIdle(joint)) continue;
    solverIslands_.linkBodies(joint.parent(), joint.child());
    int rotor = 0;
    for (const DriveCoupling& d : joint.drives()) {  // a gear, a repeater: the rotor's rows
      rotor = d.motor->rotorSlot();
      solverIslands_.linkRotor(joint.parent(), rotor);
      solverIslands_.linkRotor(joint.child(), rotor);
    }
    solverIslands_.addJoint(static_cast<int>(j), joint.parent(), joint.child(), rotor);
  }
  for (size_t m = 0; m < motors_.size(); ++m)
    if (!motors_[m].joint)
      solverIslands_.addTrackMotor(static_cast<int>(m), motors_[m].motor->rotorSlot());
  for (const ContactPoint& c : awakeContacts()) {
    solverIslands_.linkBodies(c.bodyA, c.bodyB);
    if (c.trackMotor >= 0)  // the belt's friction rows turn the track's rotor
      solverIslands_.linkRotor(c.trackOnB ? c.bodyB : c.bodyA,
                               motors_[static_cast<size_t>(c.trackMotor)].motor->rotorSlot());
  }
  for (const ContactPoint& c : compliant_.points()) solverIslands_.addOtherRows(c.bodyA, c.bodyB);
  solverIslands_.finish(awakeContacts());
  if (!compliant_.points().empty()) compliant_.assignIslands(solverIslands_, bodies_.size());
  while (islandRows_.size() < solverIslands_.islands().size()) {
    islandRows_.emplace_back();
    // The velocity rows are iterated; the position rows are not.
    islandRows_.back().velocity.setCacheActiveSets(true);
  }
}

void World::enterIsland(size_t k) {
  island_ = &solverIslands_.islands()[k];
  std::swap(rows_, islandRows_[k].velocity);
  std::swap(jointPositionRows_, islandRows_[k].jointPositions);
  jointsPreProjected_ = islandRows_[k].jointsPreProjected;
  const std::span<const BodyId> own = solverIslands_.bodies(*island_);
  islandReach_.assign(own.begin(), own.end());
  for (const int j : islandJoints()) {
    islandReach_.push_back(joints_[static_cast<size_t>(j)]->parent());
    islandReach_.push_back(joints_[static_cast<size_t>(j)]->child());
  }
  for (const ContactPoint& c : islandContacts()) {
    islandReach_.push_back(c.bodyA);
    islandReach_.push_back(c.bodyB);
  }
}

void World::leaveIsland(size_t k) {
  islandRows_[k].jointsPreProjected = jointsPreProjected_;
  std::swap(rows_, islandRows_[k].velocity);
  std::swap(jointPositionRows_, islandRows_[k].jointPositions);
  island_ = nullptr;
}

bool World::jointedInIsland(BodyId body) const {
  for (const int j : islandJoints()) {
    const Joint& joint = *joints_[static_cast<size_t>(j)];
    if (joint.parent() == body || joint.child() == body) return true;
  }
  return false;
}

SolveResult World::solveIslandVelocities(double dt, const SolveStop& stop) {
  // A tree that holds every row, all of them equalities, is solved exactly from any start:
  // warm starting it would only cost applying the impulses the solve then recomputes (2.5 % of a
  // chain30 step). (One-sided rows and friction in the tree are not: which of them it keeps
  // depends on the impulses it starts from.)
  if (rows_.treeHoldsOnlyEqualities())
    for (ConstraintRow& r : rows_.rows()) r.impulse = 0.0;
  else if (settings_.solver.warmStart) {
    rows_.fillResponses();
    applyAccumulatedImpulses(rows_.rows(), velocities_, rotorSpeeds_);
  }
  // Loop contacts stepped with a tree of joints alone (SolveStop::jointTreeLoopRowShare) only
  // where a drive can push a loop closed (a rotor's row in the island): left closing there, the
  // drive's work on that motion keeps the mechanism ringing. A passive one only settles later;
  // stepped so, a falling ragdoll's limb-on-limb contacts changed where it came to rest.
  SolveStop islandStop = stop;
  if (islandStop.jointTreeLoopRowShare > 0.0 &&
      std::none_of(rows_.rows().begin(), rows_.rows().end(),
                   [](const ConstraintRow& r) { return r.rotor != 0; }))
    islandStop.jointTreeLoopRowShare = 0.0;
  const SolveResult result = solveBlocks(rows_, velocities_, rotorSpeeds_, islandStop);
  // Both passes return whether they moved a link of a jointed tree with its own mass; the
  // velocities are then settled onto the joints again, which can lower a normal impulse and leave
  // a cone again: a few rounds, each ending with the joints exact. What a jointed link's friction
  // still has past its cone after them is left: where taking friction back lowers the normal
  // more than 1/mu times as much (a jaw dragged point-first over the ground, mu 0.85), no
  // sliding answer exists (Painleve's paradox) and the rounds would only chase the normal to 0;
  // the link jams instead, which is what the friction left there does.
  if (applyRestitution()) settleOntoJoints(rows_, velocities_, rotorSpeeds_);
  for (int round = 0; round < kConeRounds && keepFrictionInCones(); ++round)
    settleOntoJoints(rows_, velocities_, rotorSpeeds_);
  for (const int j : islandJoints())
    joints_[static_cast<size_t>(j)]->storeImpulses(rows_, bodies_, dt);
  storeContactImpulses();
  if (!compliant_.points().empty())
    compliant_.storeImpulses(static_cast<int>(island_ - solverIslands_.islands().data()), rows_);
  storeTrackMotorImpulses(dt);
  return result;
}

}  // namespace impetus
