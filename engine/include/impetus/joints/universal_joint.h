#pragma once
// Universal (Cardan) joint: anchors coincide (3 rows) and the parent's x axis stays perpendicular
// to the child's y axis (1 row, C = x_A . y_B); 2 rotational free DOF (about x_A and y_B).
// Friction (seed 000): one 2-row block on the relative angular velocity along x_A and y_B,
// ||p|| <= F_max dt.

#include "impetus/joints/joint.h"

namespace impetus {

class UniversalJoint : public Joint {
 public:
  using Joint::Joint;
  JointType type() const override { return JointType::Universal; }
  int freeDof() const override { return 2; }

 protected:
  void addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  void addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
};

}  // namespace impetus
