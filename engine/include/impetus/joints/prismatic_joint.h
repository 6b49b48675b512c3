#pragma once
// Prismatic (slider) joint: the anchors may separate only along the axis x (2 rows) and the
// relative rotation is locked (3 rows); 1 free DOF, the displacement d = x_A . (p_B - p_A).
//   Friction (seed 000, prismatic case): one row B = [-d^T, -(r_A x d)^T, d^T, (r_B x d)^T],
//   K = 1/m_A + 1/m_B + (r_A x d)^T I_A^-1 (r_A x d) + (r_B x d)^T I_B^-1 (r_B x d), |p| <= F dt.

#include "impetus/joints/joint.h"

namespace impetus {

class PrismaticJoint : public Joint {
 public:
  using Joint::Joint;
  JointType type() const override { return JointType::Prismatic; }
  int freeDof() const override { return 1; }

 protected:
  void addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  void addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  double measureCoordinate(const JointPose& pose) const override;
  bool hasCoordinate() const override { return true; }
  double measureRate(const JointPose& pose, const RigidBody& a, const RigidBody& b) const override;
  bool rotational() const override { return false; }
  int addCoordinateRow(const JointPose& pose, RowBuffer& rows, BlockKind kind) const override;
};

}  // namespace impetus
