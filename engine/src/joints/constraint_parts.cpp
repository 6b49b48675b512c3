#include "impetus/joints/constraint_parts.h"

#include <algorithm>

namespace impetus::parts {
namespace {

/// A joint equality row's target for position error C: the projection's in the position phase;
/// with the velocity rows, J v = 0 and the error is kept for the step's pre-projection.
void setTarget(const JointBuildContext& ctx, double error, ConstraintRow& row) {
  if (ctx.positionPhase)
    row.target = ctx.correctionTarget(error);
  else
    row.correction = -error / ctx.dt;
}

}  // namespace

Vec3 pointError(const JointPose& pose) {
  return pose.anchorB - pose.anchorA;
}

Eigen::Vector2d axisAlignmentError(const JointPose& pose) {
  const Vec3 cross = pose.frameA.col(0).cross(pose.frameB.col(0));
  return {pose.frameA.col(1).dot(cross), pose.frameA.col(2).dot(cross)};
}

double limitViolation(const JointLimit& limit, double q) {
  return std::max({limit.lower - q, q - limit.upper, 0.0});
}

void point(const JointBuildContext& ctx, const JointPose& pose, int a, int b, RowBuffer& rows) {
  const int first = rows.addBlock(BlockKind::Equality, 3, a, b);
  rows.lastBlock().shape = RowShape::AnchorPoint;
  const Mat3 armA = skew(pose.armA);  // column k: r_A x e_k
  const Mat3 armB = skew(pose.armB);
  const Vec3 error = pointError(pose);
  Vec3 targets;
  if (ctx.positionPhase) {
    for (int k = 0; k < 3; ++k) targets(k) = ctx.correctionTarget(error(k));
  } else {
    // Constraint curvature: over the step the arms turn, so the anchors drift apart by
    // (dt^2 / 2) [w_B x (w_B x r_B) - w_A x (w_A x r_A)] even when J v = 0. Asking the velocity
    // for the opposite makes the impulse turn the velocity (reflect its normal part) instead of
    // removing it, which would lose ~(w dt)^2 of the kinetic energy every step.
    const Vec3& wA = ctx.bodies[static_cast<size_t>(a)].angularVelocity;
    const Vec3& wB = ctx.bodies[static_cast<size_t>(b)].angularVelocity;
    // The expansion holds for small turns per step; it fades out between 0.02 and 0.1 rad so a
    // fast whip (where it is wrong and the pre-solve w is poor) falls back to plain projection.
    const double turn = std::max(wA.norm(), wB.norm()) * ctx.dt;
    const double weight = std::clamp((0.1 - turn) / 0.08, 0.0, 1.0);
    targets =
        -0.5 * weight * ctx.dt * (wB.cross(wB.cross(pose.armB)) - wA.cross(wA.cross(pose.armA)));
  }
  for (int k = 0; k < 3; ++k) {
    ConstraintRow& r = rows.row(first + k);
    r.linearA = -Vec3::Unit(k);
    r.angularA = -armA.col(k);
    r.linearB = Vec3::Unit(k);
    r.angularB = armB.col(k);
    r.target = targets(k);
    if (!ctx.positionPhase) r.correction = -error(k) / ctx.dt;
  }
}

void angularLock(const JointBuildContext& ctx, const JointPose& pose, int a, int b,
                 RowBuffer& rows) {
  const int first = rows.addBlock(BlockKind::Equality, 3, a, b);
  const Vec3 error = rotationVector(pose.orientationB * pose.orientationA.inverse());
  for (int k = 0; k < 3; ++k) {
    ConstraintRow& r = rows.row(first + k);
    r.angularA = -Vec3::Unit(k);
    r.angularB = Vec3::Unit(k);
    setTarget(ctx, error(k), r);
  }
}

void axisAlignment(const JointBuildContext& ctx, const JointPose& pose, int a, int b,
                   RowBuffer& rows) {
  const int first = rows.addBlock(BlockKind::Equality, 2, a, b);
  rows.lastBlock().shape = RowShape::AxisAlignment;
  const Eigen::Vector2d error = axisAlignmentError(pose);
  for (int i = 0; i < 2; ++i) {
    const Vec3 t = pose.frameA.col(i + 1);
    ConstraintRow& r = rows.row(first + i);
    r.angularA = -t;
    r.angularB = t;
    setTarget(ctx, error(i), r);
  }
}

void perpendicularSlide(const JointBuildContext& ctx, const JointPose& pose, int a, int b,
                        RowBuffer& rows) {
  const int first = rows.addBlock(BlockKind::Equality, 2, a, b);
  const Vec3 separation = pose.anchorB - pose.anchorA;
  for (int i = 0; i < 2; ++i) {
    const Vec3 t = pose.frameA.col(i + 1);
    ConstraintRow& r = rows.row(first + i);
    r.linearA = -t;
    r.angularA = -(pose.armA + separation).cross(t);
    r.linearB = t;
    r.angularB = pose.armB.cross(t);
    setTarget(ctx, t.dot(separation), r);
  }
}

void perpendicularAxes(const JointBuildContext& ctx, const JointPose& pose, int a, int b,
                       RowBuffer& rows) {
  const int first = rows.addBlock(BlockKind::Equality, 1, a, b);
  const Vec3 xA = pose.frameA.col(0);
  const Vec3 yB = pose.frameB.col(1);
  const Vec3 n = yB.cross(xA);
  ConstraintRow& r = rows.row(first);
  r.angularA = -n;
  r.angularB = n;
  setTarget(ctx, xA.dot(yB), r);
}

int angularAxis(RowBuffer& rows, BlockKind kind, int a, int b, const Vec3& n) {
  const int index = rows.addBlock(kind, 1, a, b);
  ConstraintRow& r = rows.row(index);
  r.angularA = -n;
  r.angularB = n;
  return index;
}

int linearAxis(RowBuffer& rows, BlockKind kind, int a, int b, const JointPose& pose,
               const Vec3& d) {
  const int index = rows.addBlock(kind, 1, a, b);
  const Vec3 separation = pose.anchorB - pose.anchorA;
  ConstraintRow& r = rows.row(index);
  r.linearA = -d;
  r.angularA = -(pose.armA + separation).cross(d);
  r.linearB = d;
  r.angularB = pose.armB.cross(d);
  return index;
}

void frictionRow(RowBuffer& rows, int index, double maxImpulse) {
  rows.row(index).lower = -maxImpulse;
  rows.row(index).upper = maxImpulse;
}

void dampingRow(RowBuffer& rows, int index, double coefficient, double dt) {
  rows.row(index).softness = 1.0 / (coefficient * dt);
}

void springRow(RowBuffer& rows, int index, double stiffness, double damping, double deflection,
               double dt) {
  ConstraintRow& r = rows.row(index);
  const double stiffDamping = damping + dt * stiffness;
  r.softness = 1.0 / (dt * stiffDamping);
  r.target = -stiffness * deflection / stiffDamping;
  r.correction = 0.0;
}

double slideCoordinate(const JointPose& pose) {
  return pose.frameA.col(0).dot(pose.anchorB - pose.anchorA);
}

double slideRate(const JointPose& pose, const RigidBody& a, const RigidBody& b) {
  const Vec3 axis = pose.frameA.col(0);
  return axis.dot(b.pointVelocity(pose.anchorB) - a.pointVelocity(pose.anchorA)) +
         a.angularVelocity.cross(axis).dot(pose.anchorB - pose.anchorA);
}

void negateRow(ConstraintRow& row) {
  row.linearA = -row.linearA;
  row.angularA = -row.angularA;
  row.linearB = -row.linearB;
  row.angularB = -row.angularB;
  row.rotorJacobian = -row.rotorJacobian;
}

}  // namespace impetus::parts
