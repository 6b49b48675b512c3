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
  postureStep_.setZero(k);
  limitWeight_.setOnes(k);
  projected_.setZero(6, k);
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
  if (options.posture != nullptr && options.postureGain > 0.0) {
    if (options.posture->size() != q.size())
      throw std::invalid_argument("inverse kinematics: posture must have one entry per link");
    moveTowardsPosture(q, *options.posture, options, targetOrientation != nullptr, lambda);
    e = error(targetPosition, targetOrientation, w);
  }
  while (!done(e) && result.iterations < options.maxIterations) {
    ++result.iterations;
    const Vec3 tip = kinematics_.pointPosition(tipLink_, tipPoint_);
    kinematics_.pointJacobian(tipLink_, tip, fullJacobian_);
    for (size_t c = 0; c < joints_.size(); ++c) {
      const int j = joints_[c];
      auto column = jacobian_.col(static_cast<Eigen::Index>(c));
      column = fullJacobian_.col(j);
      column.head<3>() *= targetOrientation ? w : 0.0;
      // A joint at a limit that the error pushes further cannot help: drop its column. Within
      // limitMargin of it, the column is scaled down (weighted least norm: dq = W J_W^T (...)^-1
      // e with J_W = J W), so the other joints take over before this one stops.
      const double push = column.dot(e);
      const TreeLink& l = tree_->link(j);
      const double room = push < 0.0 ? q[j] - l.lower : l.upper - q[j];
      const double weight = options.limitMargin > 0.0
                                ? std::clamp(room / options.limitMargin, 0.0, 1.0)
                                : (room <= 0.0 ? 0.0 : 1.0);
      column *= weight;
      limitWeight_[static_cast<Eigen::Index>(c)] = weight;
    }
    Eigen::Matrix<double, 6, 6> normal = jacobian_ * jacobian_.transpose();
    normal.diagonal().array() += lambda * lambda;
    factor_.compute(normal);
    step_.noalias() = jacobian_.transpose() * factor_.solve(e);
    step_.array() *= limitWeight_.array();
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
      lambda = std::max(lambda * 0.1, options.minDamping);
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

void InverseKinematics::moveTowardsPosture(VectorX& q, const VectorX& posture,
                                           const IkOptions& options, bool withOrientation,
                                           double lambda) {
  // One step of k (posture - q), capped, projected on the null space of the task Jacobian:
  // (1 - J^T (J J^T + lambda^2)^-1 J) s. It moves the tip only to second order, which the
  // iterations that follow take back out.
  const Vec3 tip = kinematics_.pointPosition(tipLink_, tipPoint_);
  kinematics_.pointJacobian(tipLink_, tip, fullJacobian_);
  for (size_t c = 0; c < joints_.size(); ++c) {
    const auto i = static_cast<Eigen::Index>(c);
    jacobian_.col(i) = fullJacobian_.col(joints_[c]);
    jacobian_.col(i).head<3>() *= withOrientation ? options.orientationScale : 0.0;
    postureStep_[i] = std::clamp(options.postureGain * (posture[joints_[c]] - q[joints_[c]]),
                                 -options.maxPostureStep, options.maxPostureStep);
  }
  Eigen::Matrix<double, 6, 6> normal = jacobian_ * jacobian_.transpose();
  normal.diagonal().array() += lambda * lambda;
  factor_.compute(normal);
  projected_ = factor_.solve(jacobian_);
  step_ = postureStep_;
  step_.noalias() -= jacobian_.transpose() * (projected_ * postureStep_);
  for (size_t c = 0; c < joints_.size(); ++c) {
    const int j = joints_[c];
    const TreeLink& l = tree_->link(j);
    q[j] = std::clamp(q[j] + step_[static_cast<Eigen::Index>(c)], l.lower, l.upper);
  }
  kinematics_.updatePositions(q);
}

}  // namespace impetus::tree
