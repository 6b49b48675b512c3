#include "impetus/joints/prismatic_joint.h"

#include "impetus/joints/constraint_parts.h"

namespace impetus {

void PrismaticJoint::addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                                     RowBuffer& rows) {
  const int a = parent(), b = child();
  parts::perpendicularSlide(ctx, pose, a, b, rows);
  parts::angularLock(ctx, pose, a, b, rows);
  const Vec3 axis = pose.frameA.col(0);
  const auto axisRow = [&](BlockKind kind) {
    return parts::linearAxis(rows, kind, a, b, pose, axis);
  };
  if (friction.force > 0.0) {  // slider and its friction solved as one block (seed 000)
    parts::frictionRow(rows, axisRow(BlockKind::Bounded), friction.force * ctx.dt);
    rows.mergeLastBlocks(3, BlockKind::Mixed);
  } else {
    rows.mergeLastBlocks(2, BlockKind::Equality);
  }
  if (damping > 0.0) parts::dampingRow(rows, axisRow(BlockKind::Equality), damping, ctx.dt);
  if (limit.enabled) {  // last, so a motor's gear row can join them (Joint::addDriveRows)
    const DriveCoupling* onRotor = stopOnRotor();
    markLimitRows(parts::limitRows(ctx, limit, measureCoordinate(pose), rows, [&] {
      return onRotor ? addRotorStopRow(rows, *onRotor) : axisRow(BlockKind::Bounded);
    }));
  }
}

void PrismaticJoint::addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                                     RowBuffer& rows) {
  const int a = parent(), b = child();
  parts::perpendicularSlide(ctx, pose, a, b, rows);
  parts::angularLock(ctx, pose, a, b, rows);
  if (limit.enabled) {
    const Vec3 axis = pose.frameA.col(0);
    parts::limitRows(ctx, limit, measureCoordinate(pose), rows,
                     [&] { return parts::linearAxis(rows, BlockKind::Bounded, a, b, pose, axis); });
  }
}

int PrismaticJoint::addCoordinateRow(const JointPose& pose, RowBuffer& rows, BlockKind kind) const {
  return parts::linearAxis(rows, kind, parent(), child(), pose, pose.frameA.col(0));
}

double PrismaticJoint::measureCoordinate(const JointPose& pose) const {
  return parts::slideCoordinate(pose);
}

double PrismaticJoint::measureRate(const JointPose& pose, const RigidBody& a,
                                   const RigidBody& b) const {
  return parts::slideRate(pose, a, b);
}

}  // namespace impetus
