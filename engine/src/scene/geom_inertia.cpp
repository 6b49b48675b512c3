#include "geom_inertia.h"

#include <numbers>

namespace impetus {
namespace {

/// Volume (m^3) and inertia per unit density about the geom's own centre, geom frame.
bool unitInertia(const ShapeDesc& s, double& volume, Mat3& inertia) {
  const double pi = std::numbers::pi;
  switch (s.type) {
    case ShapeType::Box: {
      const Vec3 q = s.size.cwiseProduct(s.size);
      volume = s.size.prod();
      inertia = (volume / 12.0 * Vec3(q.y() + q.z(), q.x() + q.z(), q.x() + q.y())).asDiagonal();
      return true;
    }
    case ShapeType::Sphere:
      volume = 4.0 / 3.0 * pi * std::pow(s.radius, 3);
      inertia = Mat3::Identity() * 0.4 * volume * s.radius * s.radius;
      return true;
    case ShapeType::Cylinder:
    case ShapeType::Capsule: {
      const double r = s.radius, l = s.length;
      const double vc = pi * r * r * l;
      const double axial = vc * (3 * r * r + l * l) / 12.0;
      inertia = Vec3(axial, axial, 0.5 * vc * r * r).asDiagonal();
      volume = vc;
      if (s.type == ShapeType::Capsule) {  // two hemispheres: a sphere's inertia, shifted out by
        const double vs = 4.0 / 3.0 * pi * r * r * r;  // l/2 + 3r/8 (their centroids)
        const double d = 0.5 * l + 0.375 * r;
        const double sphere = 0.4 * vs * r * r;
        inertia += Vec3(sphere + vs * (d * d - (0.375 * r) * (0.375 * r)),
                        sphere + vs * (d * d - (0.375 * r) * (0.375 * r)), sphere)
                       .asDiagonal();
        volume += vs;
      }
      return true;
    }
    default:
      return false;  // planes, meshes, heightfields carry no volume
  }
}

}  // namespace

bool inertiaFromGeoms(const std::vector<ShapeDesc>& geoms, double mass, Mat3& inertia,
                      std::string& problem) {
  double total = 0.0;
  Mat3 sum = Mat3::Zero();
  for (const ShapeDesc& s : geoms) {
    double v = 0.0;
    Mat3 own;
    if (!unitInertia(s, v, own)) continue;
    const Mat3 r = s.orientation.toRotationMatrix();
    const Vec3 p = s.position;
    sum += r * own * r.transpose() + v * (p.squaredNorm() * Mat3::Identity() - p * p.transpose());
    total += v;
  }
  if (!(total > 0.0)) {
    problem = "its geoms have no volume to compute it from";
    return false;
  }
  inertia = sum * (mass / total);
  return true;
}

}  // namespace impetus
