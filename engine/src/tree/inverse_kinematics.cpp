#include "impetus/tree/inverse_kinematics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace impetus::tree {

InverseKinematics::InverseKinematics(const KinematicTree& tree, int tipLink, const Vec3& tipPoint,
                                     std::vector<int> joints)
    : tree_(&tree), kinematics_(tree), tipLink_(tipLink), tipPoint_(tipPoint) {
  if (tipLink < 0 || tipLink >= tree.size())
    throw std::invalid_argument("inverse kinematics: tip link out of range");
  if (joints.empty()) {
    for (int j = tipLink; j >= 0; j = tree.parent(j)) joints.insert(joints.begin(), j);
  }
  for (int j : joints) {
    if (j < 0 || j >= tree.size() || !tree.reachable(tipLink, j))
      throw std::invalid_argument("inverse kinematics: joint link " + std::to_string(j) +
                                  " is not on the path to the tip");
  }
  joints_ = std::move(joints);
  const auto k = static_cast<Eigen::Index>(joints_.size());
  fullJacobian_.setZero(6, tree.size());
  jacobian_.setZero(6, k);
  step_.setZero(k);
  previous_.setZero(tree.size());
}

Vec3 InverseKinematics::tipPosition(const VectorX& q) {
  kinematics_.updatePositions(q);
  return kinematics_.pointPosition(tipLink_, tipPoint_);
}

InverseKinematics::Vec6 InverseKinematics::error(const Vec3& target, const Mat3* orientation,
                                                 double orientationWeight) const {
  Vec6 e = Vec6::Zero();
  if (orientation) {
    const Mat3 residual = *orientation * kinematics_.link(tipLink_).rotation.transpose();
    e.head<3>() = orientationWeight * rotationVector(Quat(residual));
  }
  e.tail<3>() = target - kinematics_.pointPosition(tipLink_, tipPoint_);
  return e;
}

IkResult InverseKinematics::solve(VectorX& q, const Vec3& targetPosition,
                                  const Mat3* targetOrientation, const IkOptions& options) {
  if (q.size() != tree_->size())
    throw std::invalid_argument("inverse kinematics: q must have one entry per link");
  const double w = options.orientationScale;  // rad -> m, so both errors weigh alike
  double lambda = options.initialDamping;
  IkResult result;
  kinematics_.updatePositions(q);
  Vec6 e = error(targetPosition, targetOrientation, w);
  const auto done = [&](const Vec6& err) {
    return err.tail<3>().norm() <= options.positionTolerance &&
           (!targetOrientation || err.head<3>().norm() <= w * options.orientationTolerance);
  };
  while (!done(e) && result.iterations < options.maxIterations) {
    ++result.iterations;
    const Vec3 tip = kinematics_.pointPosition(tipLink_, tipPoint_);
    kinematics_.pointJacobian(tipLink_, tip, fullJacobian_);
    for (size_t c = 0; c < joints_.size(); ++c) {
      const int j = joints_[c];
      auto column = jacobian_.col(static_cast<Eigen::Index>(c));
      column = fullJacobian_.col(j);
      column.head<3>() *= targetOrientation ? w : 0.0;
      // A joint at a limit that the error pushes further cannot help: drop its column.
      const double push = column.dot(e);
      const TreeLink& l = tree_->link(j);
      if ((q[j] <= l.lower && push < 0.0) || (q[j] >= l.upper && push > 0.0)) column.setZero();
    }
    Eigen::Matrix<double, 6, 6> normal = jacobian_ * jacobian_.transpose();
    normal.diagonal().array() += lambda * lambda;
    factor_.compute(normal);
    step_.noalias() = jacobian_.transpose() * factor_.solve(e);
    const double largest = step_.cwiseAbs().maxCoeff();
    if (largest > options.maxJointStep) step_ *= options.maxJointStep / largest;
    previous_ = q;
    for (size_t c = 0; c < joints_.size(); ++c) {
      const int j = joints_[c];
      const TreeLink& l = tree_->link(j);
      q[j] = std::clamp(q[j] + step_[static_cast<Eigen::Index>(c)], l.lower, l.upper);
    }
    kinematics_.updatePositions(q);
    const Vec6 trial = error(targetPosition, targetOrientation, w);
    if (trial.squaredNorm() < e.squaredNorm()) {
      e = trial;
      lambda = std::max(lambda * 0.1, 1e-9);
    } else {
      // Worse: undo and damp harder (a shorter, more gradient-like step).
      q = previous_;
      kinematics_.updatePositions(q);
      lambda *= 10.0;
      if (lambda > 1e6) break;  // no step reduces the error: the closest point
    }
  }
  result.reached = done(e);
  result.positionError = e.tail<3>().norm();
  result.orientationError = targetOrientation ? e.head<3>().norm() / w : 0.0;
  return result;
}

}  // namespace impetus::tree
