#include "impetus/joints/universal_joint.h"

#include "impetus/joints/constraint_parts.h"

namespace impetus {

void UniversalJoint::addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                                     RowBuffer& rows) {
  parts::point(ctx, pose, parent(), child(), rows);
  parts::perpendicularAxes(ctx, pose, parent(), child(), rows);
  if (friction.torque > 0.0) {
    const int first = rows.addBlock(BlockKind::NormBall, 2, parent(), child());
    const Vec3 axes[2] = {pose.frameA.col(0), pose.frameB.col(1)};
    for (int i = 0; i < 2; ++i) {
      rows.row(first + i).angularA = -axes[i];
      rows.row(first + i).angularB = axes[i];
    }
    rows.lastBlock().normBound = friction.torque * ctx.dt;
    rows.mergeLastBlocks(3, BlockKind::Mixed);  // cross and its friction as one block (seed 000)
  } else {
    rows.mergeLastBlocks(2, BlockKind::Equality);
  }
}

void UniversalJoint::addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                                     RowBuffer& rows) {
  parts::point(ctx, pose, parent(), child(), rows);
  parts::perpendicularAxes(ctx, pose, parent(), child(), rows);
}

}  // namespace impetus
