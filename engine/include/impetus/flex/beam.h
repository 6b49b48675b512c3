#pragma once
// A flexible link (seed 003): a straight uniform beam of given length, mass per length and
// section stiffnesses, split into N rigid segments joined by BeamJoints whose springs follow
// from the beam's properties. Element k (length l = L / N) is lumped into the joint at its
// middle: bending EI / l, torsion GJ / l, stretching EA / l (shear stays rigid: Euler-Bernoulli).
// The first half element belongs to the body the beam is mounted on; then N - 1 whole
// segments and a half one at the tip. A cantilever's tip deflection under a tip load is then the
// midpoint rule of P (L - x)^2 / EI over the elements: P L^3 / (3 EI) (1 - 1 / (4 N^2)); its
// twist under a tip torque T L / GJ exactly.

#include <string>
#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/joints/beam_joint.h"

namespace impetus {

struct BeamDesc {
  std::string name;                     ///< segments NAME_1..NAME_N, joints NAME_j1..NAME_jN
  BodyId mount = World::kGround;        ///< the body the root is fixed to
  Vec3 root = Vec3::Zero();             ///< root point, world (m)
  Quat orientation = Quat::Identity();  ///< world: local x along the beam, y and z its section's
  double length = 1.0;                  ///< L (m)
  double massPerLength = 1.0;           ///< rho A (kg/m)
  double axialStiffness = 1e7;          ///< EA (N)
  double bendingStiffnessY = 1e3;       ///< EI about local y (N m^2)
  double bendingStiffnessZ = 1e3;       ///< EI about local z (N m^2)
  double torsionalStiffness = 1e3;      ///< GJ (N m^2)
  /// Stiffness-proportional (Kelvin-Voigt) damping time c / k of every spring (s).
  double dampingTime = 0.0;
  int segments = 10;            ///< N
  double sectionRadius = 0.02;  ///< of the solid round section the segments' inertia takes (m)
  int material = -1;            ///< >= 0: each segment gets a cylinder of that radius and material
};

struct Beam {
  std::vector<BodyId> segments;  ///< root to tip
  std::vector<BeamJoint*> joints;
  /// The cylinder each segment carries (empty without a material), for drawing.
  std::vector<ShapeDesc> segmentShapes;
  double elementLength = 0.0;  ///< l = L / N (m)
  /// The beam's tip on the last segment, that segment's frame (m, from its centre of mass).
  Vec3 tipInLastSegment = Vec3::Zero();
  /// The tip in the world at the bodies' current poses.
  Vec3 tip(const World& world) const;
};

/// What a renderer needs to draw a beam as one smooth tube through its segments: the root (in
/// the mount's frame, with the beam's direction there) and each segment's length along its x.
struct BeamShape {
  BodyId mount = World::kGround;
  Vec3 rootInMount = Vec3::Zero();
  Vec3 axisInMount = Vec3::UnitX();
  std::vector<BodyId> segments;
  std::vector<double> segmentLengths;  ///< (m), root to tip
  double radius = 0.02;                ///< (m)
};

/// The shape of a beam added with `desc`.
BeamShape shapeOf(const World& world, const BeamDesc& desc, const Beam& beam);

/// Adds the beam's segments and joints to the world (throws std::invalid_argument on
/// non-positive or non-finite properties, fewer than one segment, or an unknown mount).
Beam addBeam(World& world, const BeamDesc& desc);

}  // namespace impetus
