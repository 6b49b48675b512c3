#pragma once
// The broadphase of the bodies whose shapes are all primitives (primitive_contacts.h): sort and
// sweep along x over their world boxes. Bullet's dynamic tree, pair cache and dispatcher cost
// more than the closed-form narrowphase they fed (a ragdoll's 15 bodies: ~45k instructions a
// step around ~30k of contact math). Private to the engine.

#include <vector>

#include "impetus/math/types.h"
#include "primitive_contacts.h"

namespace impetus {

/// An axis-aligned world box (unit: m).
struct WorldBox {
  Vec3 min = Vec3::Zero(), max = Vec3::Zero();
};

/// The world box of a primitive shape at `pose` grown by `margin` on every side; a plane is
/// unbounded (min = -inf, max = +inf).
WorldBox primitiveBox(const ShapeDesc& shape, const ShapePose& pose, double margin);

/// The farthest the surface of a primitive shape (sphere, capsule, box) reaches from the shape's
/// origin (unit: m); 0 for any other (a plane is static; a pair with a mesh, hull or cylinder
/// keeps the fixed margin, which needs no radius).
double primitiveBoundingRadius(const ShapeDesc& shape);

class PrimitiveBroadphase {
 public:
  /// Forgets the items (they were added or changed): the next setBoxes sorts afresh.
  void reset() {
    order_.clear();
    unbounded_.clear();
  }
  /// Replaces the boxes (one per item, items numbered 0..n-1 as given); an unbounded box (a
  /// plane) pairs with every other item.
  void setBoxes(const std::vector<WorldBox>& boxes);

  /// Calls pair(i, j) once for every two items whose boxes overlap (touching counts), i != j,
  /// in no particular order.
  template <typename F>
  void forEachOverlap(F&& pair) const {
    for (size_t u = 0; u < unbounded_.size(); ++u) {
      for (size_t v = u + 1; v < unbounded_.size(); ++v) pair(unbounded_[u], unbounded_[v]);
      for (int j : order_) pair(unbounded_[u], j);
    }
    for (size_t a = 0; a < order_.size(); ++a) {
      const WorldBox& boxA = (*boxes_)[static_cast<size_t>(order_[a])];
      for (size_t b = a + 1; b < order_.size(); ++b) {
        const WorldBox& boxB = (*boxes_)[static_cast<size_t>(order_[b])];
        if (boxB.min.x() > boxA.max.x()) break;  // sorted by min x: no later box reaches back
        if (boxB.min.y() <= boxA.max.y() && boxA.min.y() <= boxB.max.y() &&
            boxB.min.z() <= boxA.max.z() && boxA.min.z() <= boxB.max.z())
          pair(order_[a], order_[b]);
      }
    }
  }

 private:
  const std::vector<WorldBox>* boxes_ = nullptr;
  std::vector<int> order_;      ///< bounded items by min x; kept from step to step (nearly sorted)
  std::vector<int> unbounded_;  ///< planes
};

}  // namespace impetus
