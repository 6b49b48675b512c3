#pragma once
// Fixed (weld) joint: anchors coincide (3 rows) and the relative rotation is locked (3 rows).

#include "impetus/joints/joint.h"

namespace impetus {

class FixedJoint : public Joint {
 public:
  using Joint::Joint;
  JointType type() const override { return JointType::Fixed; }
  int freeDof() const override { return 0; }

 protected:
  void addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  void addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override {
    addVelocityRows(ctx, pose, rows);
  }
};

}  // namespace impetus
