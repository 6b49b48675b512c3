#pragma once
// Continuous collision for fast bodies (the Box2D v3 and Jolt "linear cast" idea): a body whose
// surface moves farther in a step than half its own smallest half-size is swept along its motion
// against static and kinematic geometry, and put back where it first touches. Its velocity is
// kept: the next step finds the contact 1 mm away, and the speculative normal row stops it (or
// bounces it with the pair's restitution). Slow bodies cost one comparison a step; speculative
// contacts (up to 5 cm apart) cover their motion. A body marked `bullet` is swept against the
// other moving bodies too, at their poses at the end of the step.
//
// Links of jointed mechanisms are not swept: putting one link back would open its joints, and
// their contacts are held by the joint tree's rows.

#include <span>
#include <vector>

#include "impetus/dynamics/rigid_body.h"
#include "impetus/solver/row_kernels.h"

namespace impetus {

class CollisionWorld;

class ContinuousCollision {
 public:
  /// Before the positions are integrated: which bodies will move fast this step (their surface
  /// |v| dt + |w| R dt past half their feature size) and where they start.
  void noteFastBodies(std::span<const RigidBody> bodies, std::span<const SolverVelocity> velocities,
                      const CollisionWorld& collision, double dt);
  /// After: each fast body that would pass into static or kinematic geometry is put back to where
  /// its motion first touches it. Returns how many were.
  int sweep(std::span<RigidBody> bodies, CollisionWorld& collision);

 private:
  struct Start {
    BodyId body;
    Vec3 position;
    Quat orientation;
  };
  std::vector<Start> starts_;
};

}  // namespace impetus
