#pragma once
// Projected Gauss-Seidel over row blocks ("sequential impulses", seed 000 eq. 7-10): each block
// computes the impulse change that zeroes its residual, adds it to the accumulated impulse,
// projects the sum onto its bound and applies the difference to the bodies (and rotor).
//
//   dp = -K^-1 (J v + softness p - target);  p' = proj(p + dp);  v += M^-1 J^T (p' - p)
//
// The loop is flat over contiguous blocks; no virtual calls, no allocation.

#include <chrono>
#include <span>

#include "impetus/math/types.h"
#include "impetus/solver/row_buffer.h"
#include "impetus/solver/row_kernels.h"
#include "impetus/solver/solver_settings.h"

namespace impetus {

struct SolveResult {
  int iterations = 0;                 ///< iterations performed
  double largestImpulseChange = 0.0;  ///< max |dp| of the last iteration (unit: N s)
  bool converged = false;             ///< stopped by the tolerance
  bool outOfTime = false;             ///< stopped by the time budget
  bool stalled = false;               ///< stopped in a slow mode (SolveStop::stallVelocity)
  bool extended = false;  ///< iterated past the cap for a closing row (closingVelocityTolerance)
};

/// Applies the accumulated impulses (warm start) to the velocities.
void applyAccumulatedImpulses(std::span<const ConstraintRow> rows, std::span<SolverVelocity> bodies,
                              std::span<double> rotorSpeeds);

/// One pass over the listed blocks only (e.g. the restitution pass over impacting contacts).
void solveBlockSubset(RowBuffer& buffer, std::span<const int> blockIndices,
                      std::span<SolverVelocity> bodies, std::span<double> rotorSpeeds);

/// Puts the velocities back onto the joints: the buffer's tree's exact solve, again after each
/// release of rows found pulling; with no tree (or none left), a few sweeps of the joints' blocks.
/// For impulses applied after solveBlocks with a body's own mass (a restitution or friction-cone
/// pass on a robot's link), which leave its joints' velocity errors.
void settleOntoJoints(RowBuffer& buffer, std::span<SolverVelocity> bodies,
                      std::span<double> rotorSpeeds);

/// Share of its own two bodies' mass below which a contact closing a loop counts as held by a
/// tree of joints alone (RowBuffer::respondToLoopRows). Rounding leaves ~1e-16 on a row the tree
/// holds; a 0.25 kg jaw on a 2000:1 arm leaves 2e-4 (a contact's tree mass there is that heavy,
/// and must still be stepped with the tree).
inline constexpr double kJointTreeLoopRowShare = 1e-6;

/// When solveBlocks stops iterating.
struct SolveStop {
  int maxIterations = 1;
  /// Stop once an iteration changes no impulse by more than max(tolerance, relativeTolerance *
  /// the largest accumulated |p|): the absolute floor for scenes without load, the relative part
  /// so that a 75 kg body's 7 N s joint impulses are not chased to 1e-10 N s (rounding noise).
  bool useTolerance = false;
  double tolerance = 0.0;          ///< (unit: N s)
  double relativeTolerance = 0.0;  ///< share of the largest |accumulated impulse|
  /// ... or once no row swept one by one has its own velocity changed by more than this, K_ii
  /// |dp_i| (unit: m/s or rad/s). The tree's rows are exact at each iteration's end; its change
  /// is the kinetic-metric projection of the sweep's, so no larger than it.
  double velocityTolerance = 0.0;
  /// ... or once the sweep's velocity change, below this (unit: m/s or rad/s), shrinks so slowly
  /// that the iterations left would not halve it (0: never).
  double stallVelocity = 0.0;
  /// At the cap, a one-sided row (a contact, a stop) still closing faster than this (unit: m/s or
  /// rad/s) is an answer that lets a body sink through another, not a rounding residue: the
  /// iterations go on, to `extendedIterations` at most, until none does (0: never). A state-based
  /// test, so sessions still re-simulate bit for bit.
  double closingVelocityTolerance = 0.0;
  int extendedIterations = 0;
  /// Step the rows closing a loop through the tree with its answer from the first iteration, not
  /// only past the cap (the position pass: its tree holds joints and stops alone).
  bool loopRowsWithTree = false;
  /// A loop row whose tree-answer mass J S^-1 J^T is below this share of its own two bodies'
  /// keeps their mass: the tree holds it already (RowBuffer::respondToLoopRows).
  double redundantLoopRowShare = 0.05;
  /// While the tree holds joints alone (RowBuffer::treeHoldsJointsAlone: nothing in it can let go
  /// mid-solve), the loop rows step with it from the first iteration with this share instead
  /// (0: never).
  double jointTreeLoopRowShare = 0.0;
  bool useDeadline = false;
  std::chrono::steady_clock::time_point deadline{};
};

/// Iterates until one of `stop`'s criteria holds.
SolveResult solveBlocks(RowBuffer& buffer, std::span<SolverVelocity> bodies,
                        std::span<double> rotorSpeeds, const SolveStop& stop);

}  // namespace impetus
