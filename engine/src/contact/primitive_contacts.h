#pragma once
// Contact points between primitive shapes (plane, sphere, capsule, box) in closed form, the way
// ODE's colliders do it: a sphere or capsule end by its centre, a box by its corners and by
// clipping one face against another. Bullet's generic path (GJK with perturbed re-runs for a
// face's corners, behind a compound wrapper) cost 17 us of a 58 us stack10 step; these pairs
// need a few hundred nanoseconds. Private to the engine; CollisionWorld diverts the pairs it can.

#include <array>

#include "impetus/contact/shape.h"
#include "impetus/math/types.h"

namespace impetus {

/// A shape's pose in the world (its body's pose composed with the shape's own).
struct ShapePose {
  Vec3 position = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();
};

/// One point of a pair: on A's and on B's surface (world), the normal from A to B (unit), and
/// the signed distance along it (m; < 0 penetrating).
struct PrimitiveContact {
  Vec3 pointA, pointB, normal;
  double separation = 0.0;
};

/// At most this many points per shape pair (a manifold's capacity).
constexpr int kMaxPrimitiveContacts = 4;
using PrimitiveContacts = std::array<PrimitiveContact, kMaxPrimitiveContacts>;

/// Whether collidePrimitives handles this shape type (against any other such type).
bool isPrimitiveShape(ShapeType type);

/// The points where shapes a and b are closer than `margin` (speculative contacts reach that far;
/// unit: m), at most four: a face resting on a face gives the corners of their overlap. Returns
/// how many were written to `out` (none for two planes). Both shapes must be isPrimitiveShape.
int collidePrimitives(const ShapeDesc& a, const ShapePose& poseA, const ShapeDesc& b,
                      const ShapePose& poseB, double margin, PrimitiveContacts& out);

}  // namespace impetus
