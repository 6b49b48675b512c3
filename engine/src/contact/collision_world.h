#pragma once
// Collision detection: bodies made of primitive shapes (plane, sphere, capsule, box) are paired by
// our own sweep (primitive_broadphase.h) and get their points in closed form
// (primitive_contacts.h); pairs with a mesh, hull or cylinder go through Bullet's broadphase and
// narrowphase; our manifolds carry points from step to step and our solver does all
// dynamics. Private to the engine: no public header sees Bullet.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "impetus/contact/contact_point.h"
#include "impetus/contact/material.h"
#include "impetus/contact/ray_hit.h"
#include "impetus/contact/shape.h"
#include "impetus/dynamics/rigid_body.h"

namespace impetus {

class CollisionWorld {
 public:
  CollisionWorld();
  ~CollisionWorld();
  CollisionWorld(const CollisionWorld&) = delete;
  CollisionWorld& operator=(const CollisionWorld&) = delete;

  /// Attaches a shape to a body (throws std::invalid_argument for unsupported combinations).
  void addShape(BodyId id, const RigidBody& body, const ShapeDesc& shape);
  /// A moving body is a link of a jointed mechanism (a joint holds it): its contact points merge
  /// within the fixed 5 cm breaking distance rather than within the bodies' own size (detect).
  void markJointed(BodyId id);
  /// Whether body `id` is a link of a jointed mechanism (markJointed).
  bool isJointed(BodyId id) const;
  /// The smallest half-dimension of body `id`'s shapes (unit: m; infinite without shapes).
  double featureSize(BodyId id) const;
  /// The farthest body `id`'s shapes reach from its centre of mass (unit: m; 0 without shapes).
  double boundingRadius(BodyId id) const;
  /// Continuous collision (continuous_collision.h): the fraction in (0, 1] of body `id`'s
  /// motion from the pose (`startPosition`, `startOrientation`) to its pose in `bodies` at which
  /// one of its shapes first comes within 1 mm of a static or kinematic body's shape - or, for a
  /// bullet (RigidBody::bullet), any other body's at its end pose (conservative advancement,
  /// Bullet's btContinuousConvexCollision); 1 if none does. A shape already that
  /// close at the start (a resting or sliding contact, which the contact rows hold) is swept as a
  /// core instead - a sphere of half its feature size about the body's centre - so that it still
  /// cannot pass through what it touches.
  double timeOfImpact(std::span<const RigidBody> bodies, BodyId id, const Vec3& startPosition,
                      const Quat& startOrientation);
  /// The first static body's shape the segment `from` -> `to` meets (world; moving and
  /// kinematic bodies are not seen): the terrain under a walking robot's next footstep.
  std::optional<RayHit> castRayStatic(const Vec3& from, const Vec3& to) const;
  /// Contacts between these two bodies are (not) generated.
  void setPairEnabled(BodyId a, BodyId b, bool enabled);
  bool pairEnabled(BodyId a, BodyId b) const;
  /// Moves the collision objects to the bodies' poses and finds this step's contact points,
  /// merged into the manifolds of `previous` (last step's points with their impulses; see
  /// contact_manifold.h). Fills `out` (cleared first; must not alias `previous`) in a canonical
  /// order: a function of the poses, velocities and `previous` alone. Points apart are found as
  /// far as the bodies' speeds could close in twice `speculativeTime` (unit: s; the step), over
  /// a resting margin of 1 cm, up to 5 cm (pairs with a mesh, hull or cylinder: 5 cm). Two
  /// primitive bodies that both held still (markStill) and touched last step keep last step's
  /// points, re-measured, without a new search: nothing can have come into reach.
  void detect(std::span<const RigidBody> bodies, const MaterialTable& materials,
              std::span<const ContactPoint> previous, std::vector<ContactPoint>& out,
              double speculativeTime);
  bool empty() const;
  /// Whether the next detect looks for every pair's points afresh, still ones too: after bodies
  /// were moved by hand (a pair at rest may have been put into contact), not after a saved state
  /// was loaded (the world it came from, stepping on, would keep its still pairs' points).
  void searchAllPairs(bool all);
  /// Which bodies hold still (surface speed below 0.1 mm/s), from their velocities at the end of
  /// a step (or of a loaded state: the same answer, so a loaded world steps on bit for bit).
  void markStill(std::span<const RigidBody> bodies);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace impetus
