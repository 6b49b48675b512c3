#include "impetus/joints/beam_joint.h"

#include <stdexcept>

#include "impetus/joints/constraint_parts.h"

namespace impetus {
BeamJoint::BeamJoint(std::string name, BodyId parent, BodyId child, JointFrame inParent,
                     JointFrame inChild, const BeamJointSprings& springs)
    : Joint(std::move(name), parent, child, inParent, inChild), springs_(springs) {
  for (const double k : {springs.axial, springs.torsion, springs.bendingY, springs.bendingZ})
    if (!(k > 0.0) || !std::isfinite(k))
      throw std::invalid_argument("beam joint '" + this->name() +
                                  "': every stiffness must be positive and finite");
  if (!(springs.dampingTime >= 0.0) || !std::isfinite(springs.dampingTime))
    throw std::invalid_argument("beam joint '" + this->name() +
                                "': the damping time must be >= 0 and finite");
}

Eigen::Vector4d BeamJoint::deflectionAt(const JointPose& pose) {
  const Vec3 turn =
      pose.frameA.transpose() * rotationVector(pose.orientationB * pose.orientationA.inverse());
  return {pose.frameA.col(0).dot(pose.anchorB - pose.anchorA), turn.x(), turn.y(), turn.z()};
}

Eigen::Vector4d BeamJoint::deflection(std::span<const RigidBody> bodies) const {
  return deflectionAt(pose(bodies));
}

void BeamJoint::addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                                RowBuffer& rows) {
  // Rows: stretch, shear y, shear z, twist, bend y, bend z; one exact block.
  const int a = parent(), b = child();
  const Eigen::Vector4d d = deflectionAt(pose);
  const Vec3 separation = pose.anchorB - pose.anchorA;
  const double dt = ctx.dt, damping = springs_.dampingTime;
  const int stretch = parts::linearAxis(rows, BlockKind::Equality, a, b, pose, pose.frameA.col(0));
  parts::springRow(rows, stretch, springs_.axial, damping * springs_.axial, d(0), dt);
  for (int i = 1; i < 3; ++i) {
    const int shear = parts::linearAxis(rows, BlockKind::Equality, a, b, pose, pose.frameA.col(i));
    rows.row(shear).correction = -pose.frameA.col(i).dot(separation) / dt;
  }
  const double k[3] = {springs_.torsion, springs_.bendingY, springs_.bendingZ};
  for (int i = 0; i < 3; ++i) {
    const int turn = parts::angularAxis(rows, BlockKind::Equality, a, b, pose.frameA.col(i));
    parts::springRow(rows, turn, k[i], damping * k[i], d(1 + i), dt);
  }
  rows.mergeLastBlocks(6, BlockKind::Equality);
}

void BeamJoint::addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                                RowBuffer& rows) {
  const Vec3 separation = pose.anchorB - pose.anchorA;
  const int a = parent(), b = child();
  for (int i = 1; i < 3; ++i) {
    const int shear = parts::linearAxis(rows, BlockKind::Equality, a, b, pose, pose.frameA.col(i));
    rows.row(shear).target = ctx.correctionTarget(pose.frameA.col(i).dot(separation));
  }
  if (!ctx.keepSpringDeflections) {
    rows.mergeLastBlocks(2, BlockKind::Equality);
    return;
  }
  parts::linearAxis(rows, BlockKind::Equality, a, b, pose, pose.frameA.col(0));  // stretch kept
  for (int i = 0; i < 3; ++i)
    parts::angularAxis(rows, BlockKind::Equality, a, b, pose.frameA.col(i));
  rows.mergeLastBlocks(6, BlockKind::Equality);
}

}  // namespace impetus
