#include "balance_marks.h"

#include <algorithm>
#include <string>

namespace impetus::app {
namespace {

double cross(const Vec3& o, const Vec3& a, const Vec3& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

/// Convex hull in the ground plane (Andrew's monotone chain), counter-clockwise.
std::vector<Vec3> hull(std::vector<Vec3> points) {
  std::sort(points.begin(), points.end(), [](const Vec3& a, const Vec3& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  if (points.size() < 3) return points;
  std::vector<Vec3> h(2 * points.size());
  size_t k = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    while (k >= 2 && cross(h[k - 2], h[k - 1], points[i]) <= 0.0) --k;
    h[k++] = points[i];
  }
  for (size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(h[k - 2], h[k - 1], points[i]) <= 0.0) --k;
    h[k++] = points[i];
  }
  h.resize(k - 1);
  return h;
}

/// The signal BLOCK.<port> of the first block that has both BLOCK.<x> and BLOCK.<y>.
std::optional<std::pair<int, int>> signalPair(const Scheme& scheme, const std::string& x,
                                              const std::string& y) {
  for (const std::string& name : scheme.signalNames()) {
    if (name.size() <= x.size() || name.compare(name.size() - x.size(), x.size(), x) != 0) continue;
    const std::string block = name.substr(0, name.size() - x.size());
    const int ix = scheme.signalIndex(name), iy = scheme.signalIndex(block + y);
    if (ix >= 0 && iy >= 0) return std::pair(ix, iy);
  }
  return std::nullopt;
}

}  // namespace

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
  marks.support = hull(points);
  for (Vec3& p : marks.support) p.z() = ground;
  double mass = 0.0;
  Vec3 centre = Vec3::Zero();
  for (const RigidBody& b : world.bodies())
    if (b.type == BodyType::Dynamic) {
      mass += b.mass;
      centre += b.mass * b.position;
    }
  if (mass > 0.0) marks.centreOfMass = Vec3(centre.x() / mass, centre.y() / mass, ground);
  if (scheme) {
    if (const auto cp = signalPair(*scheme, ".cp_x", ".cp_y"))
      marks.capturePoint = Vec3(scheme->signalAt(cp->first), scheme->signalAt(cp->second), ground);
    if (const auto step = signalPair(*scheme, ".step_x", ".step_y"))
      marks.footstep = Vec3(scheme->signalAt(step->first), scheme->signalAt(step->second), ground);
  }
  return marks;
}

}  // namespace impetus::app
