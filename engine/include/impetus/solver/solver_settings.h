#pragma once

namespace impetus {

/// How hard the sequential-impulse solver works per step (seed 000: stop at tolerance, at an
/// iteration cap, or when the step's wall-clock budget is spent).
struct SolverSettings {
  int substeps = 1;  ///< internal steps of dt / substeps per World::step (quality knob)
  int velocityIterations =
      20;  ///< cap on velocity iterations per (sub)step (stops early at tolerance)
  int positionIterations = 6;  ///< iterations of the post-step position projection
  /// The position pass stops once no joint row is off by more than this (unit: m or rad).
  double positionTolerance = 1e-6;
  /// Joint errors up to this may be left by a step's position pass (unit: m or rad): the next
  /// step removes them before its velocity solve, with the factorisation that solve uses (see
  /// World::preProjectJoints), so only a step that opens a joint further pays for a projection of
  /// its own. Used while every joint equality is in the velocity rows' tree (directJoints, no
  /// loop left to the sweep); 0 corrects every step to positionTolerance. Larger values are
  /// not safe for a whipping chain: 4e-4 and 1e-3 tore the 100-link benchmark chain apart in
  /// 1 of 12 and 7 of 8 runs (gravity tilted by up to 1.1e-4 rad), 1e-4 in none of 24.
  double deferredJointError = 1e-4;
  double impulseTolerance = 1e-10;  ///< stop when every |dp| is below this (unit: N s)...
  /// ... or below this share of the largest accumulated |p| (rounding: a resting stack's PGS
  /// plateaus near 5e-7 of its impulses; chasing 1e-10 N s ran every cap-limited iteration).
  double relativeImpulseTolerance = 1e-6;
  /// ... or once no row swept one by one changes its own velocity by more than this in an
  /// iteration (unit: m/s or rad/s): over a 10 ms step what is left moves a contact 0.1 um, a
  /// tenth of positionTolerance. Redundant contacts (a face's corners, limbs resting on limbs)
  /// let Gauss-Seidel shift impulses among themselves long after the velocities have settled:
  /// a resting ragdoll ran all 20 iterations for changes of 5e-6 m/s.
  double velocityTolerance = 1e-5;
  /// ... or once the iterations stall: the swept rows' velocity change is below this (unit: m/s
  /// or rad/s; over a 10 ms step 10 um) and shrinks by less than 10 % an iteration, so slowly
  /// that the iterations left would not halve it. What is left is carried by the warm start to
  /// the next step. 0 iterates to the tolerance or the cap.
  double stallVelocity = 1e-3;
  /// At the cap, iterations continue (to extendedIterations) while a contact or stop still closes
  /// faster than this (unit: m/s; 1 cm/s, which the position pass's half-a-step correction holds
  /// at a tenth of a millimetre of sinking). A heavily geared arm pressing its own gripper into
  /// its hull closes a loop whose contact converges by ~0.1 % an iteration: at the cap of 20 the
  /// jaw sank 1.3 mm a step and its rail was pulled 1 cm open. 0 stops at the cap.
  double closingVelocityTolerance = 0.01;
  int extendedIterations = 400;
  double timeBudget = 0.0;  ///< wall-clock limit for the velocity iterations (unit: s); 0 = none
  bool warmStart = true;    ///< start from the previous step's accumulated impulses
  /// Solve the joints whose bodies form a tree exactly, in linear time, as one block of each
  /// iteration (EqualityTree); false sweeps them joint by joint like every other block.
  bool directJoints = true;
  /// Fixed iteration counts, no tolerance or time exits: re-simulation is bit for bit.
  bool deterministic = false;
  double positionCorrectionFactor = 1.0;  ///< share of the position error removed per step (0..1]
  double maxCorrectionSpeed = 5.0;        ///< cap on pseudo-velocity targets (unit: m/s or rad/s)
};

}  // namespace impetus
