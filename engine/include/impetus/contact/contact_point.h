#pragma once
// One contact point between two bodies, as the world keeps it across a step (and reads it out).

#include "impetus/dynamics/rigid_body.h"
#include "impetus/math/types.h"

namespace impetus {

struct ContactPoint {
  BodyId bodyA = 0, bodyB = 0;
  int shapeA = -1, shapeB = -1;  ///< child shape of each body (on a mesh: the triangle)
  Vec3 localA = Vec3::Zero();    ///< the point on A, A's frame (relative to its COM)
  Vec3 localB = Vec3::Zero();    ///< the point on B, B's frame
  Vec3 normal = Vec3::UnitZ();   ///< world, from A to B
  Vec3 tangent1 = Vec3::UnitX(), tangent2 = Vec3::UnitY();  ///< friction directions (world)
  double separation = 0.0;  ///< signed distance at detection (m); < 0 penetrating
  double friction = 0.0, restitution = 0.0, rolling = 0.0, spinning = 0.0;  ///< combined material
  double approachSpeed = 0.0;  ///< normal relative velocity before the solve (m/s; < 0 closing)
  int compliantLaw = -1;       ///< MaterialTable::compliantLaw of a compliant contact, or -1
  double impactSpeed = 0.0;    ///< compliant: the closing speed when the penetration began (m/s)
  /// Bounce within the step: the speculative contact stops the bodies where the gap closes and the
  /// rebound starts from the step's start, so the travel (1 + e) gap is restored in the position
  /// pass (m, <= 0; exact for constant velocity within the step).
  double bounceShift = 0.0;
  // Accumulated impulses of the last step (N s), warm-starting the next.
  double normalImpulse = 0.0;
  double tangentImpulse1 = 0.0, tangentImpulse2 = 0.0;
  int trackMotor = -1;                  ///< a track's motor on one side, or -1
  bool trackOnB = true;                 ///< which body carries the track
  Vec3 trackDirection = Vec3::UnitX();  ///< that body's frame
  double sprocketRadius = 0.0;
  int normalRow = -1;      ///< row index of this step's normal row
  int normalBlock = -1;    ///< its block index (the manifold's normal block)
  int frictionRow = -1;    ///< first of its two friction rows, or -1
  int frictionBlock = -1;  ///< their block index, or -1

  /// Contact force on B (world, N) from the last step's impulses.
  Vec3 force(double dt) const {
    return (normalImpulse * normal + tangentImpulse1 * tangent1 + tangentImpulse2 * tangent2) / dt;
  }
};

}  // namespace impetus
