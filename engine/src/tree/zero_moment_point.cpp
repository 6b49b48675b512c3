#include "impetus/tree/zero_moment_point.h"

#include <algorithm>

namespace impetus::tree {

std::optional<Vec3> zeroMomentPoint(std::span<const PointForce> forces, const Vec3& planePoint,
                                    const Vec3& planeNormal, double minimumNormalForce) {
  const Vec3 n = planeNormal.normalized();
  Vec3 total = Vec3::Zero(), moment = Vec3::Zero();
  for (const PointForce& f : forces) {
    total += f.force;
    moment += (f.point - planePoint).cross(f.force);
  }
  const double normal = total.dot(n);
  if (!(normal > minimumNormalForce)) return std::nullopt;
  Vec3 t1, t2;
  orthonormalBasis(n, t1, t2);  // t1 x t2 = n
  const double u = t1.dot(moment) / normal;
  const double s = -t2.dot(moment) / normal;
  return planePoint + s * t1 + u * t2;
}

std::vector<PointForce> contactForcesOn(const World& world, std::span<const BodyId> bodies) {
  std::vector<PointForce> result;
  const double dt = world.lastSubstepDuration();
  const auto contains = [&](BodyId b) {
    return std::find(bodies.begin(), bodies.end(), b) != bodies.end();
  };
  for (const ContactPoint& c : world.contacts()) {
    const Vec3 onB = c.force(dt);
    if (contains(c.bodyB)) result.push_back({world.body(c.bodyB).toWorld(c.localB), onB});
    if (contains(c.bodyA)) result.push_back({world.body(c.bodyA).toWorld(c.localA), -onB});
  }
  return result;
}

}  // namespace impetus::tree
