#include "impetus/joints/joint.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace impetus {

const char* jointTypeName(JointType type) {
  switch (type) {
    case JointType::Fixed: return "fixed";
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Spherical: return "spherical";
    case JointType::Cylindrical: return "cylindrical";
    case JointType::Universal: return "universal";
  }
  return "unknown";
}

double JointBuildContext::correctionTarget(double error) const {
  const double target = -correctionFactor * error / dt;
  return std::clamp(target, -maxCorrectionSpeed, maxCorrectionSpeed);
}

Joint::Joint(std::string name, BodyId parent, BodyId child, JointFrame inParent, JointFrame inChild)
    : name_(std::move(name)),
      parent_(parent),
      child_(child),
      inParent_(inParent),
      inChild_(inChild) {
  inParent_.orientation.normalize();
  inChild_.orientation.normalize();
}

JointPose Joint::pose(std::span<const RigidBody> bodies) const {
  const RigidBody& a = bodies[static_cast<size_t>(parent_)];
  const RigidBody& b = bodies[static_cast<size_t>(child_)];
  JointPose p;
  p.armA = a.rotation * inParent_.anchor;
  p.armB = b.rotation * inChild_.anchor;
  p.anchorA = a.position + p.armA;
  p.anchorB = b.position + p.armB;
  p.orientationA = a.orientation * inParent_.orientation;
  p.orientationB = b.orientation * inChild_.orientation;
  p.frameA = a.rotation * inParent_.orientation.toRotationMatrix();
  p.frameB = b.rotation * inChild_.orientation.toRotationMatrix();
  return p;
}

void Joint::buildVelocityRows(const JointBuildContext& ctx, RowBuffer& rows, bool warmStart) {
  firstRow_ = rows.rowCount();
  addVelocityRows(ctx, pose(ctx.bodies), rows);
  rowCount_ = rows.rowCount() - firstRow_;
  if (static_cast<int>(impulseCache_.size()) != rowCount_) impulseCache_.assign(rowCount_, 0.0);
  for (int i = 0; i < rowCount_; ++i)
    rows.row(firstRow_ + i).impulse = warmStart ? impulseCache_[static_cast<size_t>(i)] : 0.0;
}

void Joint::buildPositionRows(const JointBuildContext& ctx, RowBuffer& rows) {
  addPositionRows(ctx, pose(ctx.bodies), rows);
}

void Joint::storeImpulses(const RowBuffer& rows, std::span<const RigidBody> bodies, double dt) {
  // The reaction on the child follows from the rows alone: f = sum J_vB p, tau = sum J_wB p.
  Vec3 force = Vec3::Zero();
  Vec3 torqueAboutCom = Vec3::Zero();
  for (int i = 0; i < rowCount_; ++i) {
    const ConstraintRow& r = rows.rows()[static_cast<size_t>(firstRow_ + i)];
    impulseCache_[static_cast<size_t>(i)] = r.impulse;
    force += r.impulse * r.linearB;
    torqueAboutCom += r.impulse * r.angularB;
  }
  const JointPose p = pose(bodies);
  const Vec3 torqueAboutAnchor = torqueAboutCom - p.armB.cross(force);
  reactionForce_ = p.frameB.transpose() * force / dt;
  reactionTorque_ = p.frameB.transpose() * torqueAboutAnchor / dt;
  generalizedForce_ = rotational() ? reactionTorque_.x() : reactionForce_.x();
}

double Joint::continuousCoordinate(const JointPose& pose) const {
  const double raw = measureCoordinate(pose);
  if (!rotational()) return raw;
  const double twoPi = 2.0 * std::numbers::pi;
  return raw + twoPi * std::round((position_ - raw) / twoPi);
}

void Joint::updateCoordinates(std::span<const RigidBody> bodies) {
  const JointPose p = pose(bodies);
  position_ = continuousCoordinate(p);
  rate_ = measureRate(p, bodies[static_cast<size_t>(parent_)], bodies[static_cast<size_t>(child_)]);
}

double Joint::anchorSeparation(std::span<const RigidBody> bodies) const {
  const JointPose p = pose(bodies);
  Vec3 d = p.anchorB - p.anchorA;
  // Sliding joints may separate along their axis; only the rest is an error.
  if (type() == JointType::Prismatic || type() == JointType::Cylindrical)
    d -= p.frameA.col(0) * p.frameA.col(0).dot(d);
  return d.norm();
}

double Joint::axisMisalignment(std::span<const RigidBody> bodies) const {
  const JointPose p = pose(bodies);
  const double c = std::clamp(p.frameA.col(0).dot(p.frameB.col(0)), -1.0, 1.0);
  return std::acos(c);
}

}  // namespace impetus
