#include "impetus/joints/spherical_joint.h"

#include "impetus/joints/constraint_parts.h"

namespace impetus {

void SphericalJoint::addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                                     RowBuffer& rows) {
  parts::point(ctx, pose, parent(), child(), rows);
  if (friction.torque > 0.0) {
    const int first = rows.addBlock(BlockKind::NormBall, 3, parent(), child());
    for (int k = 0; k < 3; ++k) {
      rows.row(first + k).angularA = -Vec3::Unit(k);
      rows.row(first + k).angularB = Vec3::Unit(k);
    }
    rows.lastBlock().normBound = friction.torque * ctx.dt;
    rows.mergeLastBlocks(2, BlockKind::Mixed);  // ball and its friction as one block (seed 000)
  }
  if (damping > 0.0)
    for (int k = 0; k < 3; ++k)
      parts::dampingRow(
          rows, parts::angularAxis(rows, BlockKind::Equality, parent(), child(), Vec3::Unit(k)),
          damping, ctx.dt);
}

Joint::PositionErrors SphericalJoint::measurePositionErrors(const JointPose& pose) const {
  PositionErrors e;
  Eigen::Map<Vec3>(e.rows) = parts::pointError(pose);
  e.count = 3;
  return e;
}

void SphericalJoint::addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                                     RowBuffer& rows) {
  parts::point(ctx, pose, parent(), child(), rows);
}

}  // namespace impetus
