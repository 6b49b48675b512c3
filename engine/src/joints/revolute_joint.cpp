#include "impetus/joints/revolute_joint.h"

#include <cmath>

#include "impetus/joints/constraint_parts.h"

namespace impetus {

void RevoluteJoint::addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                                    RowBuffer& rows) {
  const int a = parent(), b = child();
  parts::point(ctx, pose, a, b, rows);
  parts::axisAlignment(ctx, pose, a, b, rows);
  const Vec3 axis = pose.frameA.col(0);
  if (friction.torque > 0.0) {  // hinge and its friction solved as one block (seed 000)
    parts::frictionRow(rows, parts::angularAxis(rows, BlockKind::Bounded, a, b, axis),
                       friction.torque * ctx.dt);
    rows.mergeLastBlocks(3, BlockKind::Mixed);
  } else {
    rows.mergeLastBlocks(2, BlockKind::Equality);
  }
  if (damping > 0.0)
    parts::dampingRow(rows, parts::angularAxis(rows, BlockKind::Equality, a, b, axis), damping,
                      ctx.dt);
  if (limit.enabled) {  // last, so a motor's gear row can join them (Joint::addDriveRows)
    const DriveCoupling* onRotor = stopOnRotor();
    markLimitRows(parts::limitRows(ctx, limit, continuousCoordinate(pose), rows, [&] {
      return onRotor ? addRotorStopRow(rows, *onRotor)
                     : parts::angularAxis(rows, BlockKind::Bounded, a, b, axis);
    }));
  }
}

void RevoluteJoint::addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                                    RowBuffer& rows) {
  const int a = parent(), b = child();
  parts::point(ctx, pose, a, b, rows);
  parts::axisAlignment(ctx, pose, a, b, rows);
  if (limit.enabled) {
    const Vec3 axis = pose.frameA.col(0);
    parts::limitRows(ctx, limit, continuousCoordinate(pose), rows,
                     [&] { return parts::angularAxis(rows, BlockKind::Bounded, a, b, axis); });
  }
}

Joint::PositionErrors RevoluteJoint::measurePositionErrors(const JointPose& pose) const {
  PositionErrors e;  // parts::point's 3 rows, then parts::axisAlignment's 2
  Eigen::Map<Vec3>(e.rows) = parts::pointError(pose);
  Eigen::Map<Eigen::Vector2d>(e.rows + 3) = parts::axisAlignmentError(pose);
  e.count = 5;
  if (limit.enabled) e.limitViolation = parts::limitViolation(limit, continuousCoordinate(pose));
  return e;
}

int RevoluteJoint::addCoordinateRow(const JointPose& pose, RowBuffer& rows, BlockKind kind) const {
  return parts::angularAxis(rows, kind, parent(), child(), pose.frameA.col(0));
}

double RevoluteJoint::measureCoordinate(const JointPose& pose) const {
  // Twist of the child frame relative to the parent frame about the joint x axis.
  const Quat relative = pose.orientationA.inverse() * pose.orientationB;
  return 2.0 * std::atan2(relative.x(), relative.w());
}

double RevoluteJoint::measureRate(const JointPose& pose, const RigidBody& a,
                                  const RigidBody& b) const {
  return pose.frameA.col(0).dot(b.angularVelocity - a.angularVelocity);
}

}  // namespace impetus
