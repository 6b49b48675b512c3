#pragma once

namespace impetus {

/// What one World::step did and what it cost; the GUI status bar and `impetus-sim bench` show it.
struct StepStatistics {
  int rows = 0;  ///< velocity rows solved
  int velocityIterations = 0;
  int positionIterations = 0;
  /// most Newton steps a tree's joint-space projection took (WorldSettings::
  /// projectTreesInJointSpace; 0 when none ran)
  int treeProjectionIterations = 0;
  double largestImpulseChange = 0.0;  ///< max |dp| in the last velocity iteration (unit: N s)
  bool converged = false;             ///< velocity iterations stopped by the tolerance
  bool outOfTime = false;             ///< velocity iterations stopped by the time budget
  bool stalled = false;  ///< velocity iterations stopped in a slow mode (stallVelocity)
  // Stage timings (unit: s), in step order.
  int contacts = 0;        ///< contact points this step
  int sweptBodies = 0;     ///< fast bodies put back by continuous collision this step
  int sleepingBodies = 0;  ///< bodies asleep after the step (WorldSettings::sleep)
  double integrateVelocitySeconds = 0.0;
  double collideSeconds = 0.0;
  double prepareSeconds = 0.0;
  double solveVelocitySeconds = 0.0;
  double integratePositionSeconds = 0.0;
  double solvePositionSeconds = 0.0;
  double totalSeconds = 0.0;

  /// Adds `other`'s stage timings and total to these (sub-steps into a step, steps into a run).
  void addSeconds(const StepStatistics& other) {
    integrateVelocitySeconds += other.integrateVelocitySeconds;
    collideSeconds += other.collideSeconds;
    prepareSeconds += other.prepareSeconds;
    solveVelocitySeconds += other.solveVelocitySeconds;
    integratePositionSeconds += other.integratePositionSeconds;
    solvePositionSeconds += other.solvePositionSeconds;
    totalSeconds += other.totalSeconds;
  }
};

}  // namespace impetus
