#pragma once
// Inverse kinematics of a chain tip: damped least squares (Levenberg-Marquardt) on the point
// Jacobian, dq = J^T (J J^T + lambda^2 1)^-1 e, with the damping adapted each iteration (smaller
// after a step that reduced the error, larger after one that did not, which is then undone) and
// joints clamped to their ranges; a redundant chain may be pulled towards a posture in the task's
// null space. Unreachable targets end at the closest reachable point.
// Allocation-free after construction, so a scheme block can run it every 10 ms step.

#include <vector>

#include <Eigen/Cholesky>

#include "impetus/tree/tree_kinematics.h"

namespace impetus::tree {

struct IkOptions {
  int maxIterations = 50;
  double positionTolerance = 1e-4;     ///< (unit: m)
  double orientationTolerance = 1e-3;  ///< (unit: rad)
  /// Length that makes an orientation error comparable to a position error (unit: m/rad).
  double orientationScale = 0.1;
  double initialDamping = 1e-2;  ///< lambda (unit: m)
  /// The least damping: near a singularity (a roll-pitch-roll wrist held straight) an undamped
  /// step turns the joints on either side of it by large, opposite amounts (unit: m).
  double minDamping = 1e-9;
  double maxJointStep = 0.5;  ///< per iteration (unit: rad or m)
  /// Within this of a limit the error pushes a joint towards, the joint is used less, in
  /// proportion (unit: rad or m); 0: fully until it stops at the limit.
  double limitMargin = 0.0;
  /// A redundant chain's preferred coordinates (all of the tree's, as q): each solve first moves
  /// the chosen joints `postureGain` of the way towards them (at most maxPostureStep each) inside
  /// the task's null space, (1 - J+ J) k (posture - q), then iterates on the task as usual.
  const VectorX* posture = nullptr;
  double postureGain = 0.0;       ///< (0..1]
  double maxPostureStep = 0.005;  ///< per solve (unit: rad or m)
};

struct IkResult {
  bool reached = false;
  int iterations = 0;
  double positionError = 0.0;     ///< |target - tip| at the end (unit: m)
  double orientationError = 0.0;  ///< (unit: rad); 0 without an orientation target
};

class InverseKinematics {
 public:
  /// The tip is `tipPoint` in link `tipLink`'s frame; `joints` are the links the solver may move
  /// (default: every joint on the path root -> tip). Throws std::invalid_argument on bad links.
  InverseKinematics(const KinematicTree& tree, int tipLink, const Vec3& tipPoint,
                    std::vector<int> joints = {});

  /// Moves q (all of the tree's coordinates; only the chosen joints change) towards the target
  /// position, and orientation (tip link frame -> world) when given.
  IkResult solve(VectorX& q, const Vec3& targetPosition, const Mat3* targetOrientation = nullptr,
                 const IkOptions& options = {});

  /// Tip position at q.
  Vec3 tipPosition(const VectorX& q);
  /// The tip link's orientation (link frame -> world) at the last q posed (solve, tipPosition).
  const Mat3& tipRotation() const { return kinematics_.link(tipLink_).rotation; }
  const std::vector<int>& joints() const { return joints_; }

 private:
  using Vec6 = Eigen::Matrix<double, 6, 1>;
  void moveTowardsPosture(VectorX& q, const VectorX& posture, const IkOptions& options,
                          bool withOrientation, double lambda);
  /// Weighted error at the kinematics' current q.
  Vec6 error(const Vec3& target, const Mat3* orientation, double orientationWeight) const;

  const KinematicTree* tree_;
  TreeKinematics kinematics_;
  int tipLink_;
  Vec3 tipPoint_;
  std::vector<int> joints_;
  Jacobian6 fullJacobian_;
  Jacobian6 jacobian_;  ///< the chosen joints' columns
  VectorX step_, previous_, postureStep_, limitWeight_;
  Eigen::Matrix<double, 6, Eigen::Dynamic> projected_;  ///< (J J^T + lambda^2)^-1 J
  Eigen::LDLT<Eigen::Matrix<double, 6, 6>> factor_;
};

}  // namespace impetus::tree
