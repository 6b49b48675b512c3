#pragma once
// Cylindrical joint: slides along and turns about the axis x (2 free DOF). Rows: anchors separate
// only along x (2) and the axes stay parallel (2). Friction: a torque row about x (friction.torque)
// and a force row along x (friction.force), each bounded by F dt (seed 000). Primary coordinate:
// the displacement along x.

#include "impetus/joints/joint.h"

namespace impetus {

class CylindricalJoint : public Joint {
 public:
  using Joint::Joint;
  JointType type() const override { return JointType::Cylindrical; }
  int freeDof() const override { return 2; }

 protected:
  void addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  void addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  double measureCoordinate(const JointPose& pose) const override;
  bool hasCoordinate() const override { return true; }
  double measureRate(const JointPose& pose, const RigidBody& a, const RigidBody& b) const override;
  bool rotational() const override { return false; }
};

}  // namespace impetus
