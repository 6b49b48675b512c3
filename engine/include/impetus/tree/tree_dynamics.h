#pragma once
// Dynamics of a kinematic tree in generalized coordinates (seed 004): I(q) q'' + H(q, q') = tau.
//  - inverseDynamics: recursive Newton-Euler, the forward recursion for accelerations then the
//    backward recursion for forces and moments, tau_i = k_i . moment (revolute) or . force;
//  - inertiaMatrixFromUnitAccelerations: seed 004's method, column i = the joint torques for
//    q''= e_i at zero velocity and gravity;
//  - inertiaMatrix: the composite-rigid-body form of the same matrix (O(n d), d = depth);
//  - biasForces H = the joint torques at q'' = 0; forwardDynamics solves I q'' = tau - H.
// All quantities are world-frame; gravity enters as an acceleration of the root.

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "impetus/tree/tree_kinematics.h"

namespace impetus::tree {

class TreeDynamics {
 public:
  explicit TreeDynamics(const KinematicTree& tree);

  /// Sets (q, q') for every query below.
  void setState(const VectorX& q, const VectorX& qd) { kinematics_.update(q, qd); }
  const TreeKinematics& kinematics() const { return kinematics_; }
  const KinematicTree& tree() const { return kinematics_.tree(); }
  int dof() const { return tree().size(); }

  /// Joint forces tau (N m or N) that produce q'' at the current state under `gravity` (m/s^2).
  void inverseDynamics(const VectorX& qdd, const Vec3& gravity, VectorX& tau);
  /// H(q, q'): Coriolis, centrifugal and gravity joint forces.
  void biasForces(const Vec3& gravity, VectorX& bias);
  /// I(q) by the composite-rigid-body algorithm.
  void inertiaMatrix(MatrixX& inertia);
  /// I(q) column by column from unit accelerations (seed 004); n inverse-dynamics passes.
  void inertiaMatrixFromUnitAccelerations(MatrixX& inertia);
  /// q'' = I^-1 (tau - H).
  void forwardDynamics(const VectorX& tau, const Vec3& gravity, VectorX& qdd);

  /// Angular and linear acceleration of a world point moving with link i when q'' = 0 and
  /// gravity is off: the J' q' term of a constraint J q'' = P on that point.
  void pointAccelerationBias(int i, const Vec3& worldPoint, Vec3& angular, Vec3& linear);

 private:
  /// Newton-Euler with the velocity terms on or off; gravity as the root's acceleration -g.
  void recursiveNewtonEuler(const double* qdd, bool withVelocities, const Vec3& gravity,
                            VectorX& tau);

  TreeKinematics kinematics_;
  // Workspace, sized once.
  std::vector<Vec3> angularAcceleration_, originAcceleration_, force_, moment_;
  std::vector<Eigen::Matrix<double, 6, 6>> composite_;
  std::vector<Eigen::Matrix<double, 6, 1>> motion_;
  VectorX unit_, column_, bias_;
  MatrixX inertia_;
  Eigen::LDLT<MatrixX> factor_;
};

/// Accelerations under constraints J q'' = P (seed 004): I q'' = tau - H + J^T lambda, where
/// lambda are the constraint forces (the seed's reaction R = -lambda acts on the environment).
struct ConstrainedMotion {
  VectorX qdd;
  VectorX lambda;
};
/// `freeForce` = tau - H. Throws std::invalid_argument if the constraints are singular.
ConstrainedMotion solveConstrained(const MatrixX& inertia, const VectorX& freeForce,
                                   const MatrixX& jacobian, const VectorX& rhs);

/// The velocity jump of an impact that imposes J q'_+ = 0 (seed 004: I dq' = J^T p with J the NEW
/// constraints' Jacobian). Returns dq' and the constraint impulses p.
struct ImpactJump {
  VectorX velocityChange;
  VectorX impulse;
};
ImpactJump solveImpact(const MatrixX& inertia, const MatrixX& jacobian, const VectorX& qd);

/// One classical Runge-Kutta step of q'' = I^-1 (tau - H) with tau held over the step.
void stepRungeKutta4(TreeDynamics& dynamics, VectorX& q, VectorX& qd, const VectorX& tau,
                     const Vec3& gravity, double dt);

}  // namespace impetus::tree
