#include "whole_body_model.h"

#include <Eigen/Dense>
#include <stdexcept>

namespace impetus::walking {
namespace {
Mat3 yawRotation(double yaw) {
  return Eigen::AngleAxisd(yaw, Vec3::UnitZ()).toRotationMatrix();
}
Vec3 rotationError(const Mat3& target, const Mat3& current) {
  const Eigen::AngleAxisd aa(target * current.transpose());
  return aa.angle() * aa.axis();
}
}  // namespace

WholeBodyModel::WholeBodyModel(const World& world, const LeggedRobotNames& names,
                               double ankleHeight)
    : tree_(tree::treeFromWorld(world)), kinematics_(tree_.tree) {
  const auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  const BodyId pelvis = world.findBody(names.pelvis);
  if (pelvis < 0) fail("no body named '" + names.pelvis + "' (the pelvis)");
  base_ = tree_.floatingBaseFirstLink[static_cast<size_t>(pelvis)];
  if (base_ < 0) fail("the pelvis '" + names.pelvis + "' must be a free body (the floating base)");
  // The robot is the pelvis's subtree: the world's tree also holds whatever else moves (another
  // robot, a valve's wheel), which is no part of this robot's centre of mass or momentum.
  for (int i = base_; i < tree_.tree.subtreeEnd(base_); ++i) robotLinks_.push_back(i);
  tree::coordinatesFromWorld(tree_, world, q_, qd_);
  kinematics_.updatePositions(q_);
  {
    const Mat3& r = world.body(pelvis).rotation;
    assembledHeading_ = std::atan2(r(1, 0), r(0, 0));
  }
  double footZ = 0.0;
  for (int s = 0; s < 2; ++s) {
    for (int k = 0; k < 6; ++k) {
      const std::string& name = names.legJoints[size_t(s)][size_t(k)];
      int index = -1;
      for (int j = 0; j < world.jointCount(); ++j)
        if (world.joint(j).name() == name) index = j;
      if (index < 0) fail("no joint named '" + name + "' (a leg joint)");
      if (world.joint(index).type() != JointType::Revolute)
        fail("leg joint '" + name + "' must be revolute");
      const int link = tree_.linkOfJoint(index);
      if (link < 0 || !tree_.tree.reachable(link, base_ + 5))
        fail("leg joint '" + name + "' is not below the pelvis");
      if (k > 0 && !tree_.tree.reachable(link, legLinks_[size_t(6 * s + k - 1)]))
        fail("leg joint '" + name + "' is not below the one listed before it (hip to ankle)");
      legJoints_[size_t(6 * s + k)] = index;
      legLinks_[size_t(6 * s + k)] = link;
    }
    const BodyId foot = world.findBody(names.feet[size_t(s)]);
    if (foot < 0) fail("no body named '" + names.feet[size_t(s)] + "' (a foot)");
    const int footLink = tree_.bodyLink[static_cast<size_t>(foot)];
    if (footLink < 0 || !tree_.tree.reachable(footLink, legLinks_[size_t(6 * s + 5)]))
      fail("foot '" + names.feet[size_t(s)] + "' is not moved by its ankle joint");
    footLinks_[size_t(s)] = footLink;
    // The ankle point: the last leg joint's anchor, ankleHeight down to the sole.
    const Joint& ankle = world.joint(legJoints_[size_t(6 * s + 5)]);
    const RigidBody& child = world.body(ankle.child());
    const Vec3 anchor = child.position + child.rotation * ankle.frameInChild().anchor;
    const Vec3 point = anchor - ankleHeight * Vec3::UnitZ();
    const tree::LinkState& ls = kinematics_.link(footLink);
    footPointLocal_[size_t(s)] = ls.rotation.transpose() * (point - ls.origin);
    // The reference sole: this foot as it would stand with the robot facing +x (a robot can be
    // placed facing anywhere; headings are the world's).
    footRotationAssembled_[size_t(s)] = yawRotation(-assembledHeading_) * ls.rotation;
    const RigidBody& footBody = world.body(foot);
    footBodies_[size_t(s)] = foot;
    footPointInBody_[size_t(s)] = footBody.rotation.transpose() * (point - footBody.position);
    footBodyRotationAssembled_[size_t(s)] = yawRotation(-assembledHeading_) * footBody.rotation;
    footZ += 0.5 * point.z();
  }
  assembledPelvisHeight_ = q_[base_ + 2] - footZ;
  assembledComHeight_ = centreOfMass().z() - footZ;
  for (const int i : robotLinks_) mass_ += tree_.tree.link(i).mass;
  measureSwingMomentum();
}

void WholeBodyModel::measureSwingMomentum() {
  // Finite differences of the inverse kinematics: the joint rates that move one foot at unit
  // speed with everything else held, then the tree's angular momentum about the centre of mass.
  const tree::VectorX assembly = q_;
  const Vec3 com = centreOfMass();
  std::array<FootPlacement, 2> feet;
  // In the robot's heading frame (x forward, y left): the foot moved forward and to the left,
  // the momentum turned into that frame.
  const double heading = assembledHeading_;
  const Mat3 toHeading = yawRotation(-heading);
  for (int s = 0; s < 2; ++s) feet[size_t(s)] = {footPoint(Side(s)), heading};
  const double height = q_[base_ + 2];
  std::array<double, 12> angles{};
  solve(com.head<2>(), height, heading, feet, angles);
  const tree::VectorX q0 = q_;
  constexpr double kShift = 1e-3;  // m
  for (int s = 0; s < 2; ++s)
    for (int axis = 0; axis < 2; ++axis) {
      std::array<FootPlacement, 2> moved = feet;
      moved[size_t(s)].position += kShift * (toHeading.transpose().col(axis));
      std::array<double, 12> a = angles;
      q_ = q0;
      solve(com.head<2>(), height, heading, moved, a);
      const tree::VectorX rates = (q_ - q0) / kShift;
      kinematics_.update(q0, rates);
      swingAngularMomentum_[size_t(s)].col(axis) =
          toHeading * kinematics_.angularMomentum(com, robotLinks_);
    }
  q_ = assembly;
  qd_.setZero();
  kinematics_.update(q_, qd_);
}

void WholeBodyModel::setBase(const Vec3& position, const Vec3& yawPitchRoll) {
  q_.segment<3>(base_) = position;
  q_.segment<3>(base_ + 3) = yawPitchRoll;
}

Vec3 WholeBodyModel::footPoint(Side side) const {
  return kinematics_.pointPosition(footLinks_[size_t(side)], footPointLocal_[size_t(side)]);
}

FootPlacement WholeBodyModel::footInWorld(const World& world, Side side) const {
  const RigidBody& b = world.body(footBodies_[size_t(side)]);
  const Mat3 r = b.rotation * footBodyRotationAssembled_[size_t(side)].transpose();
  return {b.position + b.rotation * footPointInBody_[size_t(side)], std::atan2(r(1, 0), r(0, 0))};
}

Mat3 WholeBodyModel::footRotation(Side side) const {
  return kinematics_.link(footLinks_[size_t(side)]).rotation *
         footRotationAssembled_[size_t(side)].transpose();
}

bool WholeBodyModel::solveLeg(Side side, const Vec3& position, const Mat3& targetRotation) {
  Eigen::Matrix<double, 6, 6> jacobian;
  Eigen::Matrix<double, 6, 1> error;
  const int hip = legLinks_[size_t(6 * side)];  // the leg's subtree: only it moves here
  for (int iteration = 0; iteration < 6; ++iteration) {
    kinematics_.updateSubtreePositions(q_, hip);
    const Vec3 p = footPoint(side);
    error.head<3>() = rotationError(targetRotation, footRotation(side));
    error.tail<3>() = position - p;
    if (error.norm() < 1e-9) return true;
    for (int k = 0; k < 6; ++k) {
      const tree::LinkState& ls = kinematics_.link(legLinks_[size_t(6 * side + k)]);
      jacobian.col(k).head<3>() = ls.axis;
      jacobian.col(k).tail<3>() = ls.axis.cross(p - ls.origin);
    }
    // Damped least squares: a stretched knee is a singular leg.
    const Eigen::Matrix<double, 6, 6> jjt =
        jacobian * jacobian.transpose() + 1e-6 * Eigen::Matrix<double, 6, 6>::Identity();
    const Eigen::Matrix<double, 6, 1> step = jacobian.transpose() * jjt.ldlt().solve(error);
    for (int k = 0; k < 6; ++k) {
      const int link = legLinks_[size_t(6 * side + k)];
      const tree::TreeLink& l = tree_.tree.link(link);
      q_[link] = std::clamp(q_[link] + std::clamp(step[k], -0.3, 0.3), l.lower, l.upper);
    }
  }
  kinematics_.updateSubtreePositions(q_, hip);
  return (position - footPoint(side)).norm() < 1e-3;
}

bool WholeBodyModel::solve(const Vec2& com, double pelvisHeight, double pelvisYaw,
                           const std::array<FootPlacement, 2>& feet,
                           std::array<double, 12>& legAngles,
                           const std::array<double, 2>& measuredFrame) {
  std::array<Mat3, 2> rotations;
  for (int s = 0; s < 2; ++s) {
    const FootPlacement& f = feet[size_t(s)];
    rotations[size_t(s)] = yawRotation(f.yaw);
    if (const double tilt = f.tilt.norm(); tilt > 0.0)
      rotations[size_t(s)] =
          Eigen::AngleAxisd(tilt, Vec3(f.tilt.x(), f.tilt.y(), 0.0) / tilt) * rotations[size_t(s)];
  }
  for (int k = 0; k < 12; ++k) q_[legLinks_[size_t(k)]] = legAngles[size_t(k)];
  Vec3 base = q_.segment<3>(base_);
  base.z() = pelvisHeight;
  bool reached = true;
  for (int pass = 0; pass < 3; ++pass) {
    reached = true;
    setBase(base, Vec3(pelvisYaw, 0.0, 0.0));
    kinematics_.updatePositions(q_);
    const tree::LinkState& pelvis = kinematics_.link(base_ + 5);
    // The measured pelvis -> this pelvis: a foot aimed through it lands where planned.
    const Mat3 turn = pelvis.rotation * measuredPelvisRotation_.transpose();
    const Eigen::AngleAxisd turnAxis(turn);
    for (int s = 0; s < 2; ++s) {
      const double w = std::clamp(measuredFrame[size_t(s)], 0.0, 1.0);
      Vec3 position = feet[size_t(s)].position;
      Mat3 rotation = rotations[size_t(s)];
      if (w > 0.0) {
        const Mat3 partial =
            Eigen::AngleAxisd(w * turnAxis.angle(), turnAxis.axis()).toRotationMatrix();
        const Vec3 aimed = pelvis.origin + turn * (position - measuredPelvisPosition_);
        position += w * (aimed - position);
        rotation = partial * rotation;
      }
      const bool ok = solveLeg(Side(s), position, rotation);
      reached = reached && ok;
    }
    const Vec3 c = centreOfMass();
    const Vec2 miss = com - c.head<2>();
    if (miss.norm() < 1e-5) break;
    base.head<2>() += miss;  // the legs move the centre of mass far less than the pelvis does
  }
  for (int k = 0; k < 12; ++k) legAngles[size_t(k)] = q_[legLinks_[size_t(k)]];
  return reached;
}

void WholeBodyModel::poseMeasured(const World& world, const Vec3& rollPitchYaw, Side anchor,
                                  const Vec3& anchorPoint) {
  tree::coordinatesFromWorld(tree_, world, q_, qd_);
  setBase(Vec3::Zero(), Vec3(rollPitchYaw.z(), rollPitchYaw.y(), rollPitchYaw.x()));
  // Rates: the encoders' and the gyro's (the base's turning rates); the base's own velocity
  // is not measured, the anchor foot taken to stand still instead.
  qd_.segment<3>(base_).setZero();
  kinematics_.update(q_, qd_);
  const Vec3 shift = anchorPoint - footPoint(anchor);
  const Vec3 point = footPoint(anchor);
  measuredComVelocity_ = kinematics_.linearMomentum(robotLinks_) / mass_ -
                         kinematics_.pointVelocity(footLinks_[size_t(anchor)], point);
  q_.segment<3>(base_) = shift;
  kinematics_.updatePositions(q_);
  measuredPelvisPosition_ = kinematics_.link(base_ + 5).origin;
  measuredPelvisRotation_ = kinematics_.link(base_ + 5).rotation;
}

}  // namespace impetus::walking
