#pragma once
// The elastic joint between two rigid segments of a flexible beam (seed 003's flexible links,
// discretised): the anchors may not shear apart (2 rigid rows), while stretching along the beam
// axis (joint x), twisting about it and bending about the joint y and z axes are springs with
// dampers (4 compliant rows). Each compliant row is the implicit spring-damper of one step h:
//
//   f = -k C - c Cdot,  C(t + h) ~ C + h J v   =>   J v + p / (h (c + h k)) = -k C / (c + h k)
//
// (p = f h, the row's impulse), so the solver's exact tree solve integrates the beam implicitly:
// stable at the world's 10 ms step whatever the stiffness, with the high modes damped. C is the
// anchors' separation along the joint x axis (m) and the components of the rotation vector of
// B's frame relative to A's along A's joint axes (rad, small per joint).

#include "impetus/joints/joint.h"

namespace impetus {

/// A beam joint's springs (stiffness, damping per compliant DOF).
struct BeamJointSprings {
  double axial = 0.0;     ///< along x (N/m)
  double torsion = 0.0;   ///< about x (N m/rad)
  double bendingY = 0.0;  ///< about y (N m/rad)
  double bendingZ = 0.0;  ///< about z (N m/rad)
  /// Stiffness-proportional (Kelvin-Voigt) damping: c = dampingTime * k on every spring (s).
  double dampingTime = 0.0;
};

class BeamJoint : public Joint {
 public:
  BeamJoint(std::string name, BodyId parent, BodyId child, JointFrame inParent, JointFrame inChild,
            const BeamJointSprings& springs);
  JointType type() const override { return JointType::Beam; }
  int freeDof() const override { return 0; }
  const BeamJointSprings& springs() const { return springs_; }
  /// The springs' deflections at the bodies' poses: x = stretch (m), then twist, bend y, bend z
  /// (rad): what their rows' C are.
  Eigen::Vector4d deflection(std::span<const RigidBody> bodies) const;

 protected:
  void addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;
  /// Only the rigid shear rows: the springs' deflections are theirs to keep, not errors (with
  /// ctx.keepSpringDeflections, four more rows hold them where they are).
  void addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                       RowBuffer& rows) override;

 private:
  static Eigen::Vector4d deflectionAt(const JointPose& pose);
  BeamJointSprings springs_;
};

}  // namespace impetus
