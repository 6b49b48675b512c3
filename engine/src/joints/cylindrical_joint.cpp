#include "impetus/joints/cylindrical_joint.h"

#include "impetus/joints/constraint_parts.h"

namespace impetus {

void CylindricalJoint::addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                                       RowBuffer& rows) {
  const int a = parent(), b = child();
  addPositionRows(ctx, pose, rows);
  const Vec3 axis = pose.frameA.col(0);
  if (friction.torque > 0.0)
    parts::frictionRow(rows, parts::angularAxis(rows, BlockKind::Bounded, a, b, axis),
                       friction.torque * ctx.dt);
  if (friction.force > 0.0)
    parts::frictionRow(rows, parts::linearAxis(rows, BlockKind::Bounded, a, b, pose, axis),
                       friction.force * ctx.dt);
  if (damping > 0.0)
    parts::dampingRow(rows, parts::linearAxis(rows, BlockKind::Equality, a, b, pose, axis), damping,
                      ctx.dt);
}

void CylindricalJoint::addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                                       RowBuffer& rows) {
  parts::perpendicularSlide(ctx, pose, parent(), child(), rows);
  parts::axisAlignment(ctx, pose, parent(), child(), rows);
  rows.mergeLastBlocks(2, BlockKind::Equality);
}

double CylindricalJoint::measureCoordinate(const JointPose& pose) const {
  return parts::slideCoordinate(pose);
}

double CylindricalJoint::measureRate(const JointPose& pose, const RigidBody& a,
                                     const RigidBody& b) const {
  return parts::slideRate(pose, a, b);
}

}  // namespace impetus
