#include "contact_manifold.h"

#include <algorithm>
#include <limits>

namespace impetus {

bool refreshContactPoint(ContactPoint& c, const RigidBody& a, const RigidBody& b,
                         double breakingDistance, double driftDistance) {
  const Vec3 onA = a.position + a.rotation * c.localA;
  const Vec3 onB = b.position + b.rotation * c.localB;
  c.separation = (onB - onA).dot(c.normal);
  if (c.separation > breakingDistance) return false;
  const Vec3 sideways = onB - (onA + c.separation * c.normal);
  return sideways.squaredNorm() <= driftDistance * driftDistance;
}

double smallestHalfExtent(const ShapeDesc& shape) {
  switch (shape.type) {
    case ShapeType::Box:
      return 0.5 * shape.size.minCoeff();
    case ShapeType::Sphere:
    case ShapeType::Capsule:
      return shape.radius;
    case ShapeType::Cylinder:
      return std::min(shape.radius, 0.5 * shape.length);
    case ShapeType::ConvexHull: {
      if (shape.vertices.empty()) break;
      Vec3 lo = shape.vertices.front(), hi = lo;
      for (const Vec3& v : shape.vertices) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
      }
      return 0.5 * (hi - lo).minCoeff();
    }
    default:
      break;
  }
  return std::numeric_limits<double>::infinity();
}

double pointMatchDistance(double featureSizeA, double featureSizeB, double minimum,
                          double maximum) {
  return std::clamp(0.5 * std::min(featureSizeA, featureSizeB), minimum, maximum);
}

int slotToReplace(std::span<const ContactPoint, kManifoldCapacity> p,
                  const ContactPoint& incoming) {
  int deepest = -1;
  double depth = incoming.separation;
  for (int i = 0; i < kManifoldCapacity; ++i)
    if (p[static_cast<size_t>(i)].separation < depth) {
      depth = p[static_cast<size_t>(i)].separation;
      deepest = i;
    }
  // Area of the quadrilateral left when slot i takes the new point (squared, up to a factor).
  const Vec3& x = incoming.localA;
  const auto area = [&](int i, const Vec3& u, const Vec3& v) {
    return i == deepest ? 0.0 : u.cross(v).squaredNorm();
  };
  const double areas[kManifoldCapacity] = {area(0, x - p[1].localA, p[3].localA - p[2].localA),
                                           area(1, x - p[0].localA, p[3].localA - p[2].localA),
                                           area(2, x - p[0].localA, p[3].localA - p[1].localA),
                                           area(3, x - p[0].localA, p[2].localA - p[1].localA)};
  int best = 0;
  for (int i = 1; i < kManifoldCapacity; ++i)
    if (areas[i] > areas[best]) best = i;
  return best;
}

int matchingSlot(std::span<const ContactPoint> points, const ContactPoint& incoming,
                 double matchDistance, unsigned taken) {
  int best = -1;
  double nearest = matchDistance * matchDistance;
  for (size_t i = 0; i < points.size(); ++i) {
    if (taken & (1u << i)) continue;
    const double d2 = (points[i].localA - incoming.localA).squaredNorm();
    if (d2 < nearest) {
      nearest = d2;
      best = static_cast<int>(i);
    }
  }
  return best;
}

}  // namespace impetus
