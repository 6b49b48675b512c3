#include "impetus/joints/joint.h"

#include "impetus/session/state_stream.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "impetus/drives/motor_rows.h"
#include "impetus/joints/constraint_parts.h"

namespace impetus {

const char* jointTypeName(JointType type) {
  switch (type) {
    case JointType::Fixed:
      return "fixed";
    case JointType::Revolute:
      return "revolute";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::Spherical:
      return "spherical";
    case JointType::Cylindrical:
      return "cylindrical";
    case JointType::Universal:
      return "universal";
    case JointType::Beam:
      return "beam";
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
  frameMatrixInParent_ = inParent_.orientation.toRotationMatrix();
  frameMatrixInChild_ = inChild_.orientation.toRotationMatrix();
}

const JointPose& Joint::pose(std::span<const RigidBody> bodies) const {
  const RigidBody& a = bodies[static_cast<size_t>(parent_)];
  const RigidBody& b = bodies[static_cast<size_t>(child_)];
  PoseKey& key = cachedPoseKey_;
  if (poseCached_ && key.positionA == a.position && key.positionB == b.position &&
      key.orientationA.coeffs() == a.orientation.coeffs() &&
      key.orientationB.coeffs() == b.orientation.coeffs())
    return cachedPose_;
  key = {a.position, b.position, a.orientation, b.orientation};
  poseCached_ = true;
  JointPose& p = cachedPose_;
  p.armA = a.rotation * inParent_.anchor;
  p.armB = b.rotation * inChild_.anchor;
  p.anchorA = a.position + p.armA;
  p.anchorB = b.position + p.armB;
  p.orientationA = a.orientation * inParent_.orientation;
  p.orientationB = b.orientation * inChild_.orientation;
  p.frameA = a.rotation * frameMatrixInParent_;
  p.frameB = b.rotation * frameMatrixInChild_;
  return p;
}

void Joint::buildVelocityRows(const JointBuildContext& ctx, RowBuffer& rows, bool warmStart) {
  firstRow_ = rows.rowCount();
  stopOnRotor_ = stopDrive(ctx);
  const JointPose& p = pose(ctx.bodies);
  addVelocityRows(ctx, p, rows);
  addDriveRows(ctx, p, rows);
  rowCount_ = rows.rowCount() - firstRow_;
  if (static_cast<int>(impulseCache_.size()) != rowCount_) impulseCache_.assign(rowCount_, 0.0);
  for (int i = 0; i < rowCount_; ++i)
    rows.row(firstRow_ + i).impulse = warmStart ? impulseCache_[static_cast<size_t>(i)] : 0.0;
}

void Joint::buildPositionRows(const JointBuildContext& ctx, RowBuffer& rows) {
  const JointPose& p = pose(ctx.bodies);
  addPositionRows(ctx, p, rows);
  addDrivePositionRows(ctx, p, rows);
}

double Joint::positionError(const JointBuildContext& ctx) const {
  if (!drives_.empty()) return -1.0;
  const PositionErrors e = measurePositionErrors(pose(ctx.bodies));
  if (e.count < 0) return -1.0;
  double largest = e.limitViolation;
  for (int k = 0; k < e.count; ++k) largest = std::max(largest, std::abs(e.rows[k]));
  return ctx.correctionFactor * largest;
}

const DriveCoupling* Joint::stopDrive(const JointBuildContext& ctx) const {
  if (ctx.positionPhase || !ctx.directJoints || !limit.enabled) return nullptr;
  for (const DriveCoupling& d : drives_) {
    if (!d.primary || d.motor->params().compliantGear()) continue;
    const double rotorInertia =
        1.0 / ctx.rotorInverseInertia[static_cast<size_t>(d.motor->rotorSlot())];
    return rotorInertia / (d.ratio * d.ratio) > loadInertia(ctx.bodies) ? &d : nullptr;
  }
  return nullptr;
}

int Joint::addRotorStopRow(RowBuffer& rows, const DriveCoupling& drive) {
  const int index = rows.addBlock(BlockKind::Bounded, 1, 0, 0);
  ConstraintRow& row = rows.row(index);
  row.rotor = drive.motor->rotorSlot();
  row.rotorJacobian = drive.ratio;
  return index;
}

void Joint::addDrive(DcMotor& motor, double ratio, bool primary) {
  if (type() != JointType::Revolute && type() != JointType::Prismatic)
    throw std::invalid_argument("joint '" + name_ + "': a " + jointTypeName(type()) +
                                " joint cannot carry a motor (revolute or prismatic only)");
  if (!(std::abs(ratio) > 0.0) || !std::isfinite(ratio))
    throw std::invalid_argument("joint '" + name_ + "': drive ratio must be non-zero and finite");
  DriveCoupling d;
  d.motor = &motor;
  d.ratio = ratio;
  d.primary = primary;
  d.angleOffset = position_ - ratio * motor.angle();
  drives_.push_back(d);
}

double Joint::loadInertia(std::span<const RigidBody> bodies) const {
  const JointPose& p = pose(bodies);
  const Vec3 axis = p.frameA.col(0);
  // Each side's inertia about the joint axis through the anchor (or its mass for sliding);
  // the two sides in series.
  double inverse = 0.0;
  const RigidBody* sides[2] = {&bodies[static_cast<size_t>(parent_)],
                               &bodies[static_cast<size_t>(child_)]};
  const Vec3 anchors[2] = {p.anchorA, p.anchorB};
  for (int s = 0; s < 2; ++s) {
    const RigidBody& b = *sides[s];
    if (!b.isDynamic()) continue;
    double inertia = b.mass;
    if (rotational()) {
      const Vec3 r = b.position - anchors[s];
      const Vec3 perpendicular = r - axis * axis.dot(r);
      inertia = axis.dot(b.rotation * b.inertiaBody * b.rotation.transpose() * axis) +
                b.mass * perpendicular.squaredNorm();
    }
    inverse += 1.0 / inertia;
  }
  return inverse > 0.0 ? 1.0 / inverse : 1e300;
}

void Joint::addDriveRows(const JointBuildContext& ctx, const JointPose& pose, RowBuffer& rows) {
  if (drives_.empty()) return;
  const double q = continuousCoordinate(pose);
  bool first = true;
  for (DriveCoupling& d : drives_) {
    DcMotor& motor = *d.motor;
    const int slot = motor.rotorSlot();
    // Gear (or repeater) row: joint rate - ratio * w_m = 0 (seed 001 eq. 10-12).
    const int gearIndex = addCoordinateRow(pose, rows, BlockKind::Equality);
    ConstraintRow& gear = rows.row(gearIndex);
    gear.rotor = slot;
    gear.rotorJacobian = -d.ratio;
    const double twist = gearError(d, q, ctx);
    const DcMotorParams& params = motor.params();
    if (params.compliantGear()) {
      // A flexible joint (seed 003): the gear's twist is a spring's.
      parts::springRow(rows, gearIndex, params.gearStiffness, params.gearDamping, twist, ctx.dt);
    } else {
      gear.correction = -twist / ctx.dt;
    }
    d.gearRow = gearIndex - firstRow_;
    // The joint's limit rows were added last: solve them with a rigid gear as one exact block -
    // unless the gear goes to the equality tree with its joint, exact there.
    if (first && limit.enabled && !ctx.directJoints && !params.compliantGear())
      rows.mergeLastBlocks(3, BlockKind::Limited);
    first = false;
    if (!d.primary) continue;
    const double rotorInertia = 1.0 / ctx.rotorInverseInertia[static_cast<size_t>(slot)];
    // Behind a compliant gear the rotor's own inertia is what its torque meets within a step.
    // (The rigid gear's sum written as before: contracted into one fused multiply-add, it rounds
    // differently from 0-or-product added after, and the MF-4's history would change.)
    const double effective = params.compliantGear()
                                 ? rotorInertia
                                 : rotorInertia + d.ratio * d.ratio * loadInertia(ctx.bodies);
    const double speed = ctx.rotorSpeeds[static_cast<size_t>(slot)];
    // Behind a compliant gear the servo closes on the motor's side (the coordinate the rotor
    // sets, as its encoder reads it): collocated, stable at any gain - closed on the link across
    // the spring, a stiff loop rings without end. The link lags by the gear's twist, tau / k.
    const double servoed = params.compliantGear() ? q - twist : q;
    if (!motor.torqueIsState()) {
      // The spring's torque on the rotor at the step's start, r (k twist + c d(twist)/dt): what
      // the rotor meets besides its own inertia.
      double springTorque = 0.0;
      if (params.compliantGear() && motor.servoActive()) {
        const double twistRate = measureRate(pose, ctx.bodies[static_cast<size_t>(parent_)],
                                             ctx.bodies[static_cast<size_t>(child_)]) -
                                 d.ratio * speed;
        springTorque = d.ratio * (params.gearStiffness * twist + params.gearDamping * twistRate);
      }
      d.characteristicRow =
          (motor.servoActive()
               ? addServoRow(rows, motor, ctx.dt, speed, effective, servoed, springTorque)
               : addCharacteristicRow(rows, motor, ctx.dt, speed, effective)) -
          firstRow_;
    } else if (motor.params().viscousFriction > 0.0) {
      // The torque state is advanced by the world; the load's viscous friction stays implicit.
      parts::dampingRow(rows, addCoordinateRow(pose, rows, BlockKind::Equality),
                        motor.params().viscousFriction, ctx.dt);
    }
    if (motor.params().brakeTorque > 0.0) d.brakeRow = addBrakeRow(rows, motor, ctx.dt) - firstRow_;
  }
}

double Joint::gearError(const DriveCoupling& d, double q, const JointBuildContext& ctx) {
  return q - d.angleOffset - d.ratio * ctx.rotorAngles[static_cast<size_t>(d.motor->rotorSlot())];
}

void Joint::addDrivePositionRows(const JointBuildContext& ctx, const JointPose& pose,
                                 RowBuffer& rows) {
  if (drives_.empty()) return;
  const double q = continuousCoordinate(pose);
  bool first = true;
  for (const DriveCoupling& d : drives_) {
    // A compliant gear's twist is the spring's, no error: kept as it is, or left free.
    const bool compliant = d.motor->params().compliantGear();
    if (compliant && !ctx.keepSpringDeflections) continue;
    const int slot = d.motor->rotorSlot();
    ConstraintRow& gear = rows.row(addCoordinateRow(pose, rows, BlockKind::Equality));
    gear.rotor = slot;
    gear.rotorJacobian = -d.ratio;
    if (!compliant) gear.target = ctx.correctionTarget(gearError(d, q, ctx));
    if (first && limit.enabled && !ctx.directJoints) rows.mergeLastBlocks(3, BlockKind::Limited);
    first = false;
  }
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
  for (DriveCoupling& d : drives_) {
    if (d.characteristicRow >= 0)
      d.motor->setTorque(impulseCache_[static_cast<size_t>(d.characteristicRow)] / dt);
  }
  // The child's side of the pose only: the parent's and the frames' quaternions are not needed.
  const Mat3& childRotation = bodies[static_cast<size_t>(child_)].rotation;
  const Vec3 armB = childRotation * inChild_.anchor;
  const Mat3 frameB = childRotation * frameMatrixInChild_;
  const Vec3 torqueAboutAnchor = torqueAboutCom - armB.cross(force);
  reactionForce_ = frameB.transpose() * force / dt;
  reactionTorque_ = frameB.transpose() * torqueAboutAnchor / dt;
  generalizedForce_ = rotational() ? reactionTorque_.x() : reactionForce_.x();
  // Share of single rows along the DOF: x . (tau_B - r_B x f_B) or x . f_B, per unit impulse.
  const auto alongDof = [&](int offset) {
    const ConstraintRow& r = rows.rows()[static_cast<size_t>(firstRow_ + offset)];
    const Vec3 axis = frameB.col(0);
    const double perImpulse =
        rotational() ? axis.dot(r.angularB - armB.cross(r.linearB)) : axis.dot(r.linearB);
    return perImpulse * r.impulse / dt;
  };
  // A stop on the rotor (stopDrive) pushes the joint through the gear: its row measures the
  // joint's rate (+-1 per unit impulse), and the gear row carries its push besides the motor's.
  const auto stopAlongDof = [&](int offset) {
    const ConstraintRow& r = rows.rows()[static_cast<size_t>(firstRow_ + offset)];
    return stopOnRotor_ ? r.rotorJacobian / stopOnRotor_->ratio * r.impulse / dt : alongDof(offset);
  };
  limitForce_ = limitRowOffset_ >= 0
                    ? stopAlongDof(limitRowOffset_) + stopAlongDof(limitRowOffset_ + 1)
                    : 0.0;
  driveForce_ = stopOnRotor_ ? -limitForce_ : 0.0;
  for (const DriveCoupling& d : drives_) driveForce_ += alongDof(d.gearRow);
}

void Joint::storeArticulatedImpulses(const Vec3& force, const Vec3& momentAboutAnchor,
                                     double stopImpulse, std::span<const RigidBody> bodies,
                                     double dt) {
  const Mat3 frameB = bodies[static_cast<size_t>(child_)].rotation * frameMatrixInChild_;
  reactionForce_ = frameB.transpose() * force / dt;
  reactionTorque_ = frameB.transpose() * momentAboutAnchor / dt;
  generalizedForce_ = rotational() ? reactionTorque_.x() : reactionForce_.x();
  limitForce_ = stopImpulse / dt;
  driveForce_ = 0.0;
}

double Joint::continuousCoordinate(const JointPose& pose) const {
  const double raw = measureCoordinate(pose);
  if (!rotational()) return raw;
  const double twoPi = 2.0 * std::numbers::pi;
  return raw + twoPi * std::round((position_ - raw) / twoPi);
}

void Joint::updateCoordinates(std::span<const RigidBody> bodies) {
  if (coordinatesStored_) {  // an articulation's, this step
    coordinatesStored_ = false;
    return;
  }
  if (!hasCoordinate()) {  // nothing to measure, no pose needed: both stay 0
    position_ = rate_ = 0.0;
    return;
  }
  const JointPose& p = pose(bodies);
  position_ = continuousCoordinate(p);
  rate_ = measureRate(p, bodies[static_cast<size_t>(parent_)], bodies[static_cast<size_t>(child_)]);
}

double Joint::anchorSeparation(std::span<const RigidBody> bodies) const {
  const JointPose& p = pose(bodies);
  Vec3 d = p.anchorB - p.anchorA;
  // Sliding joints may separate along their axis; only the rest is an error.
  if (type() == JointType::Prismatic || type() == JointType::Cylindrical)
    d -= p.frameA.col(0) * p.frameA.col(0).dot(d);
  return d.norm();
}

double Joint::axisMisalignment(std::span<const RigidBody> bodies) const {
  const JointPose& p = pose(bodies);
  const double c = std::clamp(p.frameA.col(0).dot(p.frameB.col(0)), -1.0, 1.0);
  return std::acos(c);
}

void Joint::saveState(StateWriter& out) const {
  // Row offsets are not state: every step rebuilds them from the joint's configuration.
  out.put(std::span<const double>(impulseCache_));
  out.put(position_);
  out.put(rate_);
  out.put(reactionForce_);
  out.put(reactionTorque_);
  out.put(generalizedForce_);
  out.put(limitForce_);
  out.put(driveForce_);
}

void Joint::loadState(StateReader& in) {
  in.get(impulseCache_, 4096);
  in.get(position_);
  in.get(rate_);
  in.get(reactionForce_);
  in.get(reactionTorque_);
  in.get(generalizedForce_);
  in.get(limitForce_);
  in.get(driveForce_);
}

}  // namespace impetus
