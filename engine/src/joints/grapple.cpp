#include "impetus/joints/grapple.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace impetus {

Grapple::Grapple(GrappleDesc desc, std::span<const RigidBody> bodies) : desc_(std::move(desc)) {
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument("grapple '" + desc_.name + "': " + what);
  };
  const auto valid = [&](BodyId id) { return id >= 0 && static_cast<size_t>(id) < bodies.size(); };
  if (!valid(desc_.effector) || !valid(desc_.target)) fail("body index out of range");
  if (desc_.effector == desc_.target) fail("the effector cannot catch itself");
  if (!bodies[static_cast<size_t>(desc_.effector)].isDynamic() &&
      !bodies[static_cast<size_t>(desc_.target)].isDynamic())
    fail("neither body moves");
  for (Vec3* axis : {&desc_.effectorAxis, &desc_.fixtureAxis}) {
    if (!axis->allFinite() || axis->norm() < 1e-9) fail("zero or non-finite axis");
    axis->normalize();
  }
  if (!desc_.effectorPoint.allFinite() || !desc_.fixturePoint.allFinite()) fail("non-finite point");
  if (!(desc_.captureDistance > 0.0) || !std::isfinite(desc_.captureDistance))
    fail("the capture distance must be positive (m)");
  if (!(desc_.captureAngle > 0.0) || !(desc_.captureAngle <= M_PI))
    fail("the capture angle must be in (0, pi] (rad)");
}

double Grapple::distance(std::span<const RigidBody> bodies) const {
  const RigidBody& e = bodies[static_cast<size_t>(desc_.effector)];
  const RigidBody& t = bodies[static_cast<size_t>(desc_.target)];
  return (t.toWorld(desc_.fixturePoint) - e.toWorld(desc_.effectorPoint)).norm();
}

double Grapple::misalignment(std::span<const RigidBody> bodies) const {
  const RigidBody& e = bodies[static_cast<size_t>(desc_.effector)];
  const RigidBody& t = bodies[static_cast<size_t>(desc_.target)];
  const double c = -(e.rotation * desc_.effectorAxis).dot(t.rotation * desc_.fixtureAxis);
  return std::acos(std::clamp(c, -1.0, 1.0));
}

bool Grapple::inEnvelope(std::span<const RigidBody> bodies) const {
  return distance(bodies) <= desc_.captureDistance && misalignment(bodies) <= desc_.captureAngle;
}

// The weld's frames: one world frame at the pin's tip, oriented as the effector is, seen from
// each body - so the joint holds the relative pose of the moment of capture.
JointFrame Grapple::weldFrameOnEffector(std::span<const RigidBody> bodies) const {
  const RigidBody& e = bodies[static_cast<size_t>(desc_.effector)];
  const RigidBody& t = bodies[static_cast<size_t>(desc_.target)];
  const Vec3 anchor = t.toWorld(desc_.fixturePoint);
  return {e.orientation.inverse() * (anchor - e.position), Quat::Identity()};
}

JointFrame Grapple::weldFrameOnTarget(std::span<const RigidBody> bodies) const {
  const RigidBody& e = bodies[static_cast<size_t>(desc_.effector)];
  const RigidBody& t = bodies[static_cast<size_t>(desc_.target)];
  return {desc_.fixturePoint, (t.orientation.inverse() * e.orientation).normalized()};
}

}  // namespace impetus
