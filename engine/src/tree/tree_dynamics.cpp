#include "impetus/tree/tree_dynamics.h"

#include <stdexcept>

namespace impetus::tree {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

TreeDynamics::TreeDynamics(const KinematicTree& tree)
    : kinematics_(tree),
      angularAcceleration_(static_cast<size_t>(tree.size())),
      originAcceleration_(static_cast<size_t>(tree.size())),
      force_(static_cast<size_t>(tree.size())),
      moment_(static_cast<size_t>(tree.size())),
      composite_(static_cast<size_t>(tree.size())),
      motion_(static_cast<size_t>(tree.size())),
      unit_(VectorX::Zero(tree.size())),
      column_(VectorX::Zero(tree.size())),
      bias_(VectorX::Zero(tree.size())),
      inertia_(MatrixX::Zero(tree.size(), tree.size())),
      factor_(tree.size()) {}

void TreeDynamics::recursiveNewtonEuler(const double* qdd, bool withVelocities, const Vec3& gravity,
                                        VectorX& tau) {
  const KinematicTree& t = tree();
  const int n = t.size();
  tau.resize(n);
  // Forward recursion (seed 004): accelerations from the root out.
  for (int i = 0; i < n; ++i) {
    const TreeLink& l = t.link(i);
    const LinkState& s = kinematics_.link(i);
    Vec3 parentAlpha = Vec3::Zero(), parentW = Vec3::Zero(), parentOrigin = Vec3::Zero();
    Vec3 parentA = -gravity;  // the root accelerates upwards instead of the links falling
    if (l.parent >= 0) {
      const auto p = static_cast<size_t>(l.parent);
      parentAlpha = angularAcceleration_[p];
      parentA = originAcceleration_[p];
      parentOrigin = kinematics_.link(l.parent).origin;
      if (withVelocities) parentW = kinematics_.link(l.parent).angularVelocity;
    }
    const double rate = withVelocities ? kinematics_.qd()[i] : 0.0;
    const Vec3 r = s.origin - parentOrigin;
    Vec3 alpha = parentAlpha;
    Vec3 a = parentA + parentAlpha.cross(r) + parentW.cross(parentW.cross(r));
    if (l.joint == TreeJointType::Revolute) {
      alpha += parentW.cross(s.axis) * rate + s.axis * qdd[i];
    } else {
      a += 2.0 * rate * parentW.cross(s.axis) + s.axis * qdd[i];
    }
    angularAcceleration_[static_cast<size_t>(i)] = alpha;
    originAcceleration_[static_cast<size_t>(i)] = a;
    // The link's own inertial force and moment about its origin.
    const Vec3 w = withVelocities ? s.angularVelocity : Vec3::Zero();
    const Vec3 rc = s.centreOfMass - s.origin;
    const Vec3 comAcceleration = a + alpha.cross(rc) + w.cross(w.cross(rc));
    const Vec3 f = l.mass * comAcceleration;
    force_[static_cast<size_t>(i)] = f;
    moment_[static_cast<size_t>(i)] = s.inertia * alpha + w.cross(s.inertia * w) + rc.cross(f);
  }
  // Backward recursion: each link passes what its joint carries to its parent.
  for (int i = n - 1; i >= 0; --i) {
    const auto u = static_cast<size_t>(i);
    const LinkState& s = kinematics_.link(i);
    tau[i] =
        t.link(i).joint == TreeJointType::Revolute ? s.axis.dot(moment_[u]) : s.axis.dot(force_[u]);
    const int p = t.parent(i);
    if (p >= 0) {
      const auto pu = static_cast<size_t>(p);
      force_[pu] += force_[u];
      moment_[pu] += moment_[u] + (s.origin - kinematics_.link(p).origin).cross(force_[u]);
    }
  }
}

void TreeDynamics::inverseDynamics(const VectorX& qdd, const Vec3& gravity, VectorX& tau) {
  if (qdd.size() != dof()) throw std::invalid_argument("inverseDynamics: q'' size");
  recursiveNewtonEuler(qdd.data(), true, gravity, tau);
}

void TreeDynamics::biasForces(const Vec3& gravity, VectorX& bias) {
  unit_.setZero();
  recursiveNewtonEuler(unit_.data(), true, gravity, bias);
}

void TreeDynamics::inertiaMatrixFromUnitAccelerations(MatrixX& inertia) {
  const int n = dof();
  inertia.resize(n, n);
  unit_.setZero();
  for (int i = 0; i < n; ++i) {
    unit_[i] = 1.0;
    recursiveNewtonEuler(unit_.data(), false, Vec3::Zero(), column_);
    inertia.col(i) = column_;
    unit_[i] = 0.0;
  }
}

void TreeDynamics::inertiaMatrix(MatrixX& inertia) {
  const KinematicTree& t = tree();
  const int n = t.size();
  inertia.setZero(n, n);
  // Spatial inertia of each link about the world origin, (angular; linear) ordering:
  //   [[I_c - m [c]x^2, m [c]x], [-m [c]x, m 1]].
  for (int i = 0; i < n; ++i) {
    const LinkState& s = kinematics_.link(i);
    const double m = t.link(i).mass;
    const Mat3 c = skew(s.centreOfMass);
    Mat6& ic = composite_[static_cast<size_t>(i)];
    ic.topLeftCorner<3, 3>() = s.inertia - m * c * c;
    ic.topRightCorner<3, 3>() = m * c;
    ic.bottomLeftCorner<3, 3>() = -m * c;
    ic.bottomRightCorner<3, 3>() = m * Mat3::Identity();
    Vec6& S = motion_[static_cast<size_t>(i)];
    if (t.link(i).joint == TreeJointType::Revolute) {
      S << s.axis, s.origin.cross(s.axis);
    } else {
      S << Vec3::Zero(), s.axis;
    }
  }
  // Composite bodies: everything a joint carries, summed from the leaves in.
  for (int i = n - 1; i >= 0; --i) {
    const int p = t.parent(i);
    if (p >= 0) composite_[static_cast<size_t>(p)] += composite_[static_cast<size_t>(i)];
  }
  // I_ij = S_i^T (I^c_j S_j) for every ancestor i of j: the force a unit acceleration of joint j
  // needs, felt by each joint on its path to the root.
  for (int j = 0; j < n; ++j) {
    const Vec6 f = composite_[static_cast<size_t>(j)] * motion_[static_cast<size_t>(j)];
    inertia(j, j) = motion_[static_cast<size_t>(j)].dot(f);
    for (int i = t.parent(j); i >= 0; i = t.parent(i)) {
      inertia(i, j) = motion_[static_cast<size_t>(i)].dot(f);
      inertia(j, i) = inertia(i, j);
    }
  }
}

void TreeDynamics::forwardDynamics(const VectorX& tau, const Vec3& gravity, VectorX& qdd) {
  if (tau.size() != dof()) throw std::invalid_argument("forwardDynamics: tau size");
  inertiaMatrix(inertia_);
  biasForces(gravity, bias_);
  factor_.compute(inertia_);
  qdd = factor_.solve(tau - bias_);
}

void TreeDynamics::pointAccelerationBias(int i, const Vec3& worldPoint, Vec3& angular,
                                         Vec3& linear) {
  unit_.setZero();
  recursiveNewtonEuler(unit_.data(), true, Vec3::Zero(), column_);
  const LinkState& s = kinematics_.link(i);
  const Vec3 r = worldPoint - s.origin;
  angular = angularAcceleration_[static_cast<size_t>(i)];
  linear = originAcceleration_[static_cast<size_t>(i)] + angular.cross(r) +
           s.angularVelocity.cross(s.angularVelocity.cross(r));
}

ConstrainedMotion solveConstrained(const MatrixX& inertia, const VectorX& freeForce,
                                   const MatrixX& jacobian, const VectorX& rhs) {
  // lambda from J I^-1 (f + J^T lambda) = P: (J I^-1 J^T) lambda = P - J I^-1 f.
  const Eigen::LDLT<MatrixX> factor(inertia);
  const VectorX freeAcceleration = factor.solve(freeForce);
  const MatrixX inverseJt = factor.solve(jacobian.transpose());
  const MatrixX operatorSpace = jacobian * inverseJt;
  const Eigen::LDLT<MatrixX> constraintFactor(operatorSpace);
  if (constraintFactor.info() != Eigen::Success || !(constraintFactor.rcond() > 1e-14))
    throw std::invalid_argument("solveConstrained: redundant or singular constraints");
  ConstrainedMotion m;
  m.lambda = constraintFactor.solve(rhs - jacobian * freeAcceleration);
  m.qdd = freeAcceleration + inverseJt * m.lambda;
  return m;
}

ImpactJump solveImpact(const MatrixX& inertia, const MatrixX& jacobian, const VectorX& qd) {
  const Eigen::LDLT<MatrixX> factor(inertia);
  const MatrixX inverseJt = factor.solve(jacobian.transpose());
  const Eigen::LDLT<MatrixX> constraintFactor(jacobian * inverseJt);
  if (constraintFactor.info() != Eigen::Success || !(constraintFactor.rcond() > 1e-14))
    throw std::invalid_argument("solveImpact: redundant or singular constraints");
  ImpactJump jump;
  jump.impulse = constraintFactor.solve(-jacobian * qd);
  jump.velocityChange = inverseJt * jump.impulse;
  return jump;
}

void stepRungeKutta4(TreeDynamics& dynamics, VectorX& q, VectorX& qd, const VectorX& tau,
                     const Vec3& gravity, double dt) {
  VectorX a1, a2, a3, a4;
  dynamics.setState(q, qd);
  dynamics.forwardDynamics(tau, gravity, a1);
  const VectorX v2 = qd + 0.5 * dt * a1;
  dynamics.setState(q + 0.5 * dt * qd, v2);
  dynamics.forwardDynamics(tau, gravity, a2);
  const VectorX v3 = qd + 0.5 * dt * a2;
  dynamics.setState(q + 0.5 * dt * v2, v3);
  dynamics.forwardDynamics(tau, gravity, a3);
  const VectorX v4 = qd + dt * a3;
  dynamics.setState(q + dt * v3, v4);
  dynamics.forwardDynamics(tau, gravity, a4);
  q += dt / 6.0 * (qd + 2.0 * v2 + 2.0 * v3 + v4);
  qd += dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
}

}  // namespace impetus::tree
