#pragma once
// Spherical (ball) joint: anchors coincide (3 rows); 3 rotational free DOF.
//   Friction (seed 000, spherical case): B_A = [0 -E3], B_B = [0 E3], one 3-row block with
//   K = I_A^-1 + I_B^-1 and the accumulated impulse projected onto ||p|| <= F_max dt — a vector
//   norm over the relative angular velocity, not a per-axis clamp.

#include "impetus/joints/joint.h"

namespace impetus {

class SphericalJoint : public Joint {
 public:
  using Joint::Joint;
  JointType type() const override { return JointType::Spherical; }
  int freeDof() const override { return 3; }

 protected:
  void addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  void addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  PositionErrors measurePositionErrors(const JointPose& pose) const override;
};

}  // namespace impetus
