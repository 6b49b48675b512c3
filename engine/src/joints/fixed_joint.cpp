#include "impetus/joints/fixed_joint.h"

#include "impetus/joints/constraint_parts.h"

namespace impetus {

void FixedJoint::addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                                 RowBuffer& rows) {
  parts::point(ctx, pose, parent(), child(), rows);
  parts::angularLock(ctx, pose, parent(), child(), rows);
  rows.mergeLastBlocks(2, BlockKind::Equality);
}

}  // namespace impetus
