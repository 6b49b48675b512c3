#include "impetus/flex/beam.h"

#include <cmath>
#include <memory>
#include <stdexcept>

namespace impetus {
namespace {

/// Inertia of a solid round rod of mass m, radius r, length l along x, about its centre (kg m^2).
Mat3 rodInertia(double m, double r, double l) {
  const double transverse = m * (3.0 * r * r + l * l) / 12.0;
  return Eigen::Vector3d(0.5 * m * r * r, transverse, transverse).asDiagonal();
}

void check(const BeamDesc& d) {
  const auto fail = [&](const char* what) {
    throw std::invalid_argument("beam '" + d.name + "': " + what);
  };
  for (const double v : {d.length, d.massPerLength, d.axialStiffness, d.bendingStiffnessY,
                         d.bendingStiffnessZ, d.torsionalStiffness, d.sectionRadius})
    if (!(v > 0.0) || !std::isfinite(v))
      fail("length, mass per length, stiffnesses and section radius must be positive");
  if (!(d.dampingTime >= 0.0) || !std::isfinite(d.dampingTime))
    fail("the damping time must be >= 0");
  if (d.segments < 1) fail("needs at least one segment");
  if (!d.root.allFinite() || !d.orientation.coeffs().allFinite()) fail("non-finite root pose");
}

}  // namespace

Vec3 Beam::tip(const World& world) const {
  return world.body(segments.back()).toWorld(tipInLastSegment);
}

Beam addBeam(World& world, const BeamDesc& desc) {
  check(desc);
  if (desc.mount < 0 || desc.mount >= world.bodyCount())
    throw std::invalid_argument("beam '" + desc.name + "': unknown mount body");
  const int n = desc.segments;
  const double l = desc.length / n;
  const Quat orientation = desc.orientation.normalized();
  const Vec3 axis = orientation * Vec3::UnitX();
  BeamJointSprings springs;
  springs.axial = desc.axialStiffness / l;
  springs.torsion = desc.torsionalStiffness / l;
  springs.bendingY = desc.bendingStiffnessY / l;
  springs.bendingZ = desc.bendingStiffnessZ / l;
  springs.dampingTime = desc.dampingTime;

  Beam beam;
  beam.elementLength = l;
  BodyId parent = desc.mount;
  for (int k = 1; k <= n; ++k) {
    // Segment k spans [(k - 1/2) l, (k + 1/2) l] along the beam; the last ends at L.
    const double start = (k - 0.5) * l, end = k == n ? desc.length : (k + 0.5) * l;
    const double segmentLength = end - start;
    RigidBodyDesc body;
    body.name = desc.name + "_" + std::to_string(k);
    body.mass = desc.massPerLength * segmentLength;
    body.inertia = rodInertia(body.mass, desc.sectionRadius, segmentLength);
    body.position = desc.root + 0.5 * (start + end) * axis;
    body.orientation = orientation;
    const BodyId child = world.addBody(body);
    if (desc.material >= 0) {
      ShapeDesc cylinder;
      cylinder.type = ShapeType::Cylinder;
      cylinder.radius = desc.sectionRadius;
      cylinder.length = segmentLength;
      cylinder.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());  // z -> x
      cylinder.material = desc.material;
      world.addShape(child, cylinder);
      beam.segmentShapes.push_back(cylinder);
    }
    // The joint at the element's middle, its x axis along the beam, y and z the section's.
    const Vec3 anchor = desc.root + start * axis;
    const RigidBody& a = world.body(parent);
    const RigidBody& b = world.body(child);
    const JointFrame inParent{a.orientation.inverse() * (anchor - a.position),
                              a.orientation.inverse() * orientation};
    const JointFrame inChild{b.orientation.inverse() * (anchor - b.position),
                             b.orientation.inverse() * orientation};
    Joint& joint = world.addJoint(std::make_unique<BeamJoint>(
        desc.name + "_j" + std::to_string(k), parent, child, inParent, inChild, springs));
    beam.segments.push_back(child);
    beam.joints.push_back(static_cast<BeamJoint*>(&joint));
    parent = child;
  }
  beam.tipInLastSegment = Vec3(0.25 * l, 0.0, 0.0);
  return beam;
}

BeamShape shapeOf(const World& world, const BeamDesc& desc, const Beam& beam) {
  BeamShape shape;
  shape.mount = desc.mount;
  const RigidBody& mount = world.body(desc.mount);
  const Quat toMount = mount.orientation.inverse();
  shape.rootInMount = toMount * (desc.root - mount.position);
  shape.axisInMount = toMount * (desc.orientation.normalized() * Vec3::UnitX());
  shape.segments = beam.segments;
  for (size_t k = 0; k < beam.segments.size(); ++k)
    shape.segmentLengths.push_back(k + 1 < beam.segments.size() ? beam.elementLength
                                                                : 0.5 * beam.elementLength);
  shape.radius = desc.sectionRadius;
  return shape;
}

}  // namespace impetus
