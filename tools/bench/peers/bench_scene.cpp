#include "bench_scene.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace peers {
namespace {

Vec3 boxInertia(double m, const Vec3& s) {
  return m / 12.0 *
         Vec3(s.y() * s.y() + s.z() * s.z(), s.x() * s.x() + s.z() * s.z(),
              s.x() * s.x() + s.y() * s.y());
}

/// Uniform solid capsule: a cylinder of length h and two hemispheres of radius r, total mass m.
Vec3 capsuleInertia(double m, double r, double h, int axis) {
  const double pi = std::numbers::pi;
  const double vCylinder = pi * r * r * h, vHemi = 2.0 / 3.0 * pi * r * r * r;
  const double mc = m * vCylinder / (vCylinder + 2 * vHemi),
               mh = m * vHemi / (vCylinder + 2 * vHemi);
  const double axial = mc * r * r / 2 + 2 * mh * (2.0 / 5.0 * r * r);
  // Hemisphere about the capsule centre: 2/5 m r^2 + m (h^2/4 + 3 h r / 8) (parallel axis
  // through its own centre of mass, 3r/8 from the flat face).
  const double transverse =
      mc * (h * h / 12 + r * r / 4) + 2 * mh * (2.0 / 5.0 * r * r + h * h / 4 + 3 * h * r / 8);
  Vec3 i = Vec3::Constant(transverse);
  i[axis] = axial;
  return i;
}

BenchBody box(std::string name, Vec3 size, double mass, Vec3 position) {
  BenchBody b;
  b.name = std::move(name);
  b.shape = ShapeKind::Box;
  b.boxSize = size;
  b.mass = mass;
  b.inertia = boxInertia(mass, size);
  b.position = position;
  return b;
}

BenchBody capsule(std::string name, double r, double length, int axis, double mass, Vec3 position) {
  BenchBody b;
  b.name = std::move(name);
  b.shape = ShapeKind::Capsule;
  b.radius = r;
  b.length = length;
  b.capsuleAxis = axis;
  b.mass = mass;
  b.inertia = capsuleInertia(mass, r, length, axis);
  b.position = position;
  return b;
}

}  // namespace

BenchScene chainScene(int links) {
  BenchScene s;
  s.name = "chain" + std::to_string(links);
  const double l = 0.1;
  for (int i = 0; i < links; ++i) {
    s.bodies.push_back(
        box("link" + std::to_string(i), Vec3(l, 0.02, 0.02), 1.0, Vec3((i + 0.5) * l, 0, 0)));
    BenchJoint j;
    j.name = "hinge" + std::to_string(i);
    j.parent = i - 1;
    j.child = i;
    j.anchor = Vec3(i * l, 0, 0);
    j.axis = Vec3::UnitY();
    s.joints.push_back(j);
    s.potentialZero += 1.0 * s.gravity * (i + 0.5) * l;  // m g z of link i hanging at -(i+0.5) l
  }
  return s;
}

BenchScene stack10Scene() {
  BenchScene s;
  s.name = "stack10";
  s.ground = s.collisions = true;
  for (int i = 0; i < 10; ++i)
    s.bodies.push_back(
        box("box" + std::to_string(i), Vec3::Constant(0.5), 10.0, Vec3(0, 0, 0.25 + 0.5 * i)));
  s.topBody = 9;
  return s;
}

BenchScene ragdollScene() {
  BenchScene s;
  s.name = "ragdoll";
  s.ground = s.collisions = true;
  const double z = 1.0;  // soles 1 m above the ground
  const double deg = std::numbers::pi / 180.0;
  s.bodies.push_back(box("pelvis", Vec3(0.20, 0.30, 0.16), 11.0, Vec3(0, 0, z + 1.05)));
  s.bodies.push_back(box("torso", Vec3(0.20, 0.36, 0.44), 25.4, Vec3(0, 0, z + 1.37)));
  BenchBody head;
  head.name = "head";
  head.shape = ShapeKind::Sphere;
  head.radius = 0.11;
  head.mass = 5.0;
  head.inertia = Vec3::Constant(2.0 / 5.0 * 5.0 * 0.11 * 0.11);
  head.position = Vec3(0, 0, z + 1.72);
  s.bodies.push_back(head);
  const auto joint = [&](std::string name, JointKind kind, int parent, int child, Vec3 anchor,
                         Vec3 axis = Vec3::UnitX(), double lower = 0, double upper = 0) {
    BenchJoint j;
    j.name = std::move(name);
    j.kind = kind;
    j.parent = parent;
    j.child = child;
    j.anchor = anchor;
    j.axis = axis;
    j.limited = kind == JointKind::Hinge;
    j.lower = lower;
    j.upper = upper;
    s.joints.push_back(j);
  };
  joint("lower_back", JointKind::Ball, 0, 1, Vec3(0, 0, z + 1.14));
  joint("neck", JointKind::Ball, 1, 2, Vec3(0, 0, z + 1.60));
  for (const double side : {1.0, -1.0}) {
    const std::string suffix = side > 0 ? "_l" : "_r";
    const int first = static_cast<int>(s.bodies.size());
    s.bodies.push_back(
        capsule("upper_arm" + suffix, 0.045, 0.21, 1, 2.0, Vec3(0, 0.35 * side, z + 1.50)));
    s.bodies.push_back(
        capsule("forearm" + suffix, 0.040, 0.20, 1, 1.3, Vec3(0, 0.66 * side, z + 1.50)));
    s.bodies.push_back(
        box("hand" + suffix, Vec3(0.04, 0.16, 0.09), 0.5, Vec3(0, 0.90 * side, z + 1.50)));
    s.bodies.push_back(
        capsule("thigh" + suffix, 0.065, 0.31, 2, 8.5, Vec3(0, 0.1 * side, z + 0.73)));
    s.bodies.push_back(
        capsule("shin" + suffix, 0.050, 0.32, 2, 3.5, Vec3(0, 0.1 * side, z + 0.28)));
    s.bodies.push_back(
        box("foot" + suffix, Vec3(0.24, 0.10, 0.06), 1.0, Vec3(0.04, 0.1 * side, z + 0.03)));
    const int upperArm = first, forearm = first + 1, hand = first + 2, thigh = first + 3,
              shin = first + 4, foot = first + 5;
    joint("shoulder" + suffix, JointKind::Ball, 1, upperArm, Vec3(0, 0.19 * side, z + 1.50));
    joint("hip" + suffix, JointKind::Ball, 0, thigh, Vec3(0, 0.1 * side, z + 0.96));
    joint("elbow" + suffix, JointKind::Hinge, upperArm, forearm, Vec3(0, 0.51 * side, z + 1.50),
          Vec3(0, 0, -side), 0.0, 150 * deg);
    joint("wrist" + suffix, JointKind::Hinge, forearm, hand, Vec3(0, 0.81 * side, z + 1.50),
          Vec3(0, 0, 1), -60 * deg, 60 * deg);
    joint("knee" + suffix, JointKind::Hinge, thigh, shin, Vec3(0, 0.1 * side, z + 0.50),
          Vec3(0, 1, 0), 0.0, 150 * deg);
    joint("ankle" + suffix, JointKind::Hinge, shin, foot, Vec3(0, 0.1 * side, z + 0.065),
          Vec3(0, 1, 0), -45 * deg, 45 * deg);
  }
  return s;
}

BenchScene ragdollDropsScene() {
  BenchScene s = ragdollScene();
  s.name = "ragdoll-drops";
  constexpr int kHeights = 12;
  for (int k = 0; k < kHeights; ++k)  // -0.4 .. +1.5 m: soles 0.6 .. 2.5 m up
    s.variantRaises.push_back(-0.4 + 1.9 * k / (kHeights - 1));
  return s;
}

BenchScene raisedScene(const BenchScene& scene, double dz) {
  BenchScene s = scene;
  s.variantRaises.clear();
  for (BenchBody& b : s.bodies) b.position.z() += dz;
  for (BenchJoint& j : s.joints) j.anchor.z() += dz;
  return s;
}

BenchScene sceneByName(const std::string& name) {
  if (name == "chain30") return chainScene(30);
  if (name == "chain100") return chainScene(100);
  if (name == "stack10") return stack10Scene();
  if (name == "ragdoll") return ragdollScene();
  if (name == "ragdoll-drops") return ragdollDropsScene();
  throw std::invalid_argument("unknown benchmark scene '" + name +
                              "' (chain30, chain100, stack10, ragdoll, ragdoll-drops)");
}

}  // namespace peers
