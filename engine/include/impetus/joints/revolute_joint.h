#pragma once
// Revolute (hinge) joint, seed 002 eq. 6-7: anchors coincide (3 rows) and the hinge axes stay
// parallel (2 rows); 1 free DOF, the angle about the axis x (child relative to parent).
//   Friction (seed 000): one row B = [0 -n 0 n], |p| <= F_max dt   (n^T (I_A^-1 + I_B^-1) n dp =
//   -n.(w_B - w_A)) Limits: one-sided rows on the angle; damping: soft row, torque = -c * rate.

#include "impetus/joints/joint.h"

namespace impetus {

class RevoluteJoint : public Joint {
 public:
  using Joint::Joint;
  JointType type() const override { return JointType::Revolute; }
  int freeDof() const override { return 1; }

 protected:
  void addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  void addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  double measureCoordinate(const JointPose& pose) const override;
  bool hasCoordinate() const override { return true; }
  PositionErrors measurePositionErrors(const JointPose& pose) const override;
  double measureRate(const JointPose& pose, const RigidBody& a, const RigidBody& b) const override;
  int addCoordinateRow(const JointPose& pose, RowBuffer& rows, BlockKind kind) const override;
};

}  // namespace impetus
