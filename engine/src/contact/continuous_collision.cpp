#include "continuous_collision.h"

#include "collision_world.h"

namespace impetus {

namespace {
/// A body is fast when its surface may move farther in a step than this share of its smallest
/// half-size (Box2D v3's safety factor): past it, a thin wall or the far side of a thin body
/// could be nearer than the near side.
constexpr double kFastShare = 0.5;
}  // namespace

void ContinuousCollision::noteFastBodies(std::span<const RigidBody> bodies,
                                         std::span<const SolverVelocity> velocities,
                                         const CollisionWorld& collision, double dt) {
  starts_.clear();
  for (size_t i = 0; i < bodies.size(); ++i) {
    const RigidBody& b = bodies[i];
    const BodyId id = static_cast<BodyId>(i);
    if (!b.isDynamic() || b.sleeping || collision.isJointed(id)) continue;
    const SolverVelocity& v = velocities[i];
    const double travel = dt * (v.linear.norm() + v.angular.norm() * collision.boundingRadius(id));
    if (travel > kFastShare * collision.featureSize(id))
      starts_.push_back({id, b.position, b.orientation});
  }
}

int ContinuousCollision::sweep(std::span<RigidBody> bodies, CollisionWorld& collision) {
  int swept = 0;
  for (const Start& s : starts_) {
    const double t = collision.timeOfImpact(bodies, s.body, s.position, s.orientation);
    if (!(t < 1.0)) continue;
    RigidBody& b = bodies[static_cast<size_t>(s.body)];
    b.position = s.position + t * (b.position - s.position);
    b.orientation = s.orientation.slerp(t, b.orientation).normalized();
    b.updateDerived();
    ++swept;
  }
  return swept;
}

}  // namespace impetus
