#pragma once
// A latching end effector and the grapple fixture it catches (a space arm's snare: Canadarm2's
// latching end effector closes its snare wires round a fixture's pin). Commanded closed while
// the fixture lies within the capture envelope - its point near the effector's opening, its
// axis facing the effector's within an angle - it welds the fixture's body to the effector where
// it caught it (a FixedJoint in the world, named after the grapple); commanded open, it lets
// go. Outside the envelope a closed command waits: the snare catches what enters it.

#include <span>
#include <string>

#include "impetus/dynamics/rigid_body.h"
#include "impetus/joints/joint.h"
#include "impetus/math/types.h"

namespace impetus {

struct GrappleDesc {
  std::string name;
  BodyId effector = -1;
  Vec3 effectorPoint = Vec3::Zero();  ///< the snare's opening, effector body frame (m)
  Vec3 effectorAxis = Vec3::UnitX();  ///< out of the opening, effector frame (unit)
  BodyId target = -1;
  Vec3 fixturePoint = Vec3::Zero();  ///< the fixture pin's tip, target body frame (m)
  Vec3 fixtureAxis = Vec3::UnitZ();  ///< out of the fixture towards an effector, target frame
  double captureDistance = 0.1;      ///< largest distance opening - pin tip (m)
  double captureAngle = 0.1745;      ///< largest angle between the two axes' opposites (rad)
};

class Grapple {
 public:
  /// Throws std::invalid_argument on a bad description (unknown bodies, zero axes, ...).
  Grapple(GrappleDesc desc, std::span<const RigidBody> bodies);

  const GrappleDesc& desc() const { return desc_; }
  const std::string& name() const { return desc_.name; }
  /// The snare's command (the scheme, every step): true closes it.
  void command(bool closed) { commanded_ = closed; }
  bool commanded() const { return commanded_; }
  /// Holding the target (its weld is in the world).
  bool captured() const { return captured_; }

  /// Distance from the opening to the pin's tip (m), and the angle between the effector's axis
  /// and the fixture's reversed (rad), at the bodies' poses.
  double distance(std::span<const RigidBody> bodies) const;
  double misalignment(std::span<const RigidBody> bodies) const;
  bool inEnvelope(std::span<const RigidBody> bodies) const;

  /// The weld holding the target where it is now (frames from the current poses).
  JointFrame weldFrameOnEffector(std::span<const RigidBody> bodies) const;
  JointFrame weldFrameOnTarget(std::span<const RigidBody> bodies) const;
  /// What the world records when it adds or removes the weld.
  void setCaptured(bool on, const JointFrame& onEffector = {}, const JointFrame& onTarget = {}) {
    captured_ = on;
    onEffector_ = onEffector;
    onTarget_ = onTarget;
  }
  const JointFrame& frameOnEffector() const { return onEffector_; }
  const JointFrame& frameOnTarget() const { return onTarget_; }

 private:
  GrappleDesc desc_;
  bool commanded_ = false;
  bool captured_ = false;
  JointFrame onEffector_, onTarget_;  ///< the weld's frames while captured
};

}  // namespace impetus
