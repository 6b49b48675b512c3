#pragma once
// Persistent contact manifolds kept by the engine, not by the collision backend: Bullet finds
// each step's points from the poses alone, and these rules (those of Bullet's
// btPersistentManifold) carry points and their warm-start impulses from step to step. All the
// contact state then lives in World::contacts(), which a keyframe saves and restores bit-exactly.

#include <span>

#include "impetus/contact/contact_point.h"
#include "impetus/dynamics/rigid_body.h"

namespace impetus {

/// At most this many points per manifold (Bullet's MANIFOLD_CACHE_SIZE).
constexpr int kManifoldCapacity = 4;

/// Moves a kept point to the bodies' current poses: its separation along its (kept) normal, and
/// whether it is still valid - not farther apart than `breakingDistance` along the normal nor
/// drifted sideways by more than `driftDistance` (unit: m).
bool refreshContactPoint(ContactPoint& c, const RigidBody& a, const RigidBody& b,
                         double breakingDistance, double driftDistance);

/// Which slot of a full manifold a new point replaces: the deepest point stays, and of the four
/// candidate sets the one spanning the largest area wins (Bullet's sortCachedPoints).
int slotToReplace(std::span<const ContactPoint, kManifoldCapacity> points,
                  const ContactPoint& incoming);

/// Slot of the point of `points` nearest `incoming` on body A within `matchDistance`, or -1.
int matchingSlot(std::span<const ContactPoint> points, const ContactPoint& incoming,
                 double matchDistance);

}  // namespace impetus
