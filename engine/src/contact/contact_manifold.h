#pragma once
// Persistent contact manifolds kept by the engine, not by the collision backend: Bullet finds
// each step's points from the poses alone, and these rules (those of Bullet's
// btPersistentManifold) carry points and their warm-start impulses from step to step. All the
// contact state then lives in World::contacts(), which a keyframe saves and restores bit-exactly.

#include <span>

#include "impetus/contact/contact_point.h"
#include "impetus/contact/shape.h"
#include "impetus/dynamics/rigid_body.h"

namespace impetus {

/// At most this many points per manifold (Bullet's MANIFOLD_CACHE_SIZE).
constexpr int kManifoldCapacity = 4;

/// Moves a kept point to the bodies' current poses: its separation along its (kept) normal, and
/// whether it is still valid - not farther apart than `breakingDistance` along the normal nor
/// drifted sideways by more than `driftDistance` (unit: m).
bool refreshContactPoint(ContactPoint& c, const RigidBody& a, const RigidBody& b,
                         double breakingDistance, double driftDistance);

/// The smallest half-dimension of a shape (unit: m): a box's least half edge, a sphere's,
/// capsule's or cylinder's radius (or half length), a hull's least half extent; infinite for a
/// plane, mesh or heightfield. Two contact points on a body are no closer than about this.
double smallestHalfExtent(const ShapeDesc& shape);

/// How far a point may move between steps and still be the same point (unit: m): half the
/// smaller feature size of the two bodies (smallestHalfExtent over their shapes), within
/// [minimum, maximum]. A fixed distance larger than a small body merged its corners.
double pointMatchDistance(double featureSizeA, double featureSizeB, double minimum, double maximum);

/// Which slot of a full manifold a new point replaces: the deepest point stays, and of the four
/// candidate sets the one spanning the largest area wins (Bullet's sortCachedPoints).
int slotToReplace(std::span<const ContactPoint, kManifoldCapacity> points,
                  const ContactPoint& incoming);

/// Slot of the point of `points` nearest `incoming` on body A within `matchDistance`, or -1;
/// slots whose bit is set in `taken` are passed over. A manifold's fresh points are matched only
/// against the points it kept from the last step, each kept point taken once: matched against
/// each other, a small box's four corners (closer than `matchDistance`) replaced one another
/// and the box rested on one point and sank.
int matchingSlot(std::span<const ContactPoint> points, const ContactPoint& incoming,
                 double matchDistance, unsigned taken = 0);

}  // namespace impetus
