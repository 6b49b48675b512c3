#include "balance_marks.h"

#include <string>

#include "block_ports.h"
#include "impetus/math/convex_hull_2d.h"

namespace impetus::app {

render::BalanceMarks measureBalance(const World& world, const Scheme* scheme) {
  render::BalanceMarks marks;
  // Ground contacts: a moving body on a static one, pushing this step.
  std::vector<Vec3> points;
  Vec3 pressure = Vec3::Zero();
  double impulse = 0.0;
  for (const ContactPoint& c : world.contacts()) {
    const bool aStatic = world.body(c.bodyA).type == BodyType::Static;
    const bool bStatic = world.body(c.bodyB).type == BodyType::Static;
    if (aStatic == bStatic || !(c.normalImpulse > 0.0)) continue;
    const RigidBody& moving = world.body(aStatic ? c.bodyB : c.bodyA);
    const Vec3 p = moving.position + moving.orientation * (aStatic ? c.localB : c.localA);
    points.push_back(p);
    pressure += c.normalImpulse * p;
    impulse += c.normalImpulse;
  }
  double ground = 0.0;
  for (const Vec3& p : points) ground += p.z() / double(points.size());
  if (impulse > 0.0) marks.zmp = pressure / impulse;
  std::vector<Eigen::Vector2d> flat(points.size()), hull(points.size() + 1);
  for (size_t i = 0; i < points.size(); ++i) flat[i] = points[i].head<2>();
  hull.resize(size_t(convexHull2d(flat, hull)));
  for (const Eigen::Vector2d& p : hull) marks.support.emplace_back(p.x(), p.y(), ground);
  double mass = 0.0;
  Vec3 centre = Vec3::Zero();
  for (const RigidBody& b : world.bodies())
    if (b.type == BodyType::Dynamic) {
      mass += b.mass;
      centre += b.mass * b.position;
    }
  if (mass > 0.0) marks.centreOfMass = Vec3(centre.x() / mass, centre.y() / mass, ground);
  if (scheme) {
    // The first walking controller's.
    const auto onGround = [&](const std::vector<int>& xy) {
      return Vec3(scheme->signalAt(xy[0]), scheme->signalAt(xy[1]), ground);
    };
    if (const auto cp = blocksWithPorts(*scheme, {"cp_x", "cp_y"}); !cp.empty())
      marks.capturePoint = onGround(cp.front());
    if (const auto step = blocksWithPorts(*scheme, {"step_x", "step_y"}); !step.empty())
      marks.footstep = onGround(step.front());
  }
  return marks;
}

}  // namespace impetus::app
