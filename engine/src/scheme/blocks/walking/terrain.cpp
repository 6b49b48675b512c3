#include "terrain.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace impetus::walking {
namespace {
/// Ground this much off the sole's plane is an edge under it (m).
constexpr double kEdge = 0.003;
constexpr double kFootholdStep = 0.02;  ///< how finely chooseFoothold searches (m)
}  // namespace

FootPlacement placeOnGround(const World& world, FootPlacement foot, const SoleGeometry& sole,
                            double* unevenness, double above, double below, double maxTilt) {
  if (unevenness) *unevenness = 0.0;
  // Heel, middle and toe of both edges, 1 cm inside, in the heading frame about the ankle point.
  const double hx = 0.5 * sole.length - 0.01, hy = 0.5 * sole.width - 0.01;
  const double c = std::cos(foot.yaw), s = std::sin(foot.yaw);
  constexpr int kSamples = 6;
  // Rows of samples without ground stay zero: they add nothing to the fit's normal equations.
  Eigen::Matrix<double, kSamples, 3> a = Eigen::Matrix<double, kSamples, 3>::Zero();
  Eigen::Matrix<double, kSamples, 1> h = Eigen::Matrix<double, kSamples, 1>::Zero();
  int hits = 0;
  double highest = -1e300;
  for (int k = 0; k < kSamples; ++k) {
    const double u = sole.forward + (k % 3 - 1) * hx, v = k < 3 ? -hy : hy;
    const Vec3 top = foot.position + Vec3(c * u - s * v, s * u + c * v, above);
    const auto hit = world.castRay(top, top - Vec3(0.0, 0.0, above + below));
    if (!hit) continue;
    a.row(hits) << 1.0, u, v;
    h[hits] = hit->point.z();
    highest = std::max(highest, hit->point.z());
    ++hits;
  }
  if (hits == 0) return foot;
  foot.tilt.setZero();
  foot.position.z() = highest;
  if (hits < 3) return foot;
  // Height = z0 + gu u + gv v: z0 under the ankle point, gu and gv the slopes along the heading
  // and across it; raised until no sample is under the ground (the sole rests on the highest).
  // Fixed sizes throughout: this runs inside the step (Eigen's dynamic matrices allocate).
  const Eigen::Vector3d fit = (a.transpose() * a).ldlt().solve(a.transpose() * h);
  const Eigen::Matrix<double, kSamples, 1> residual = h - a * fit;
  double raise = 0.0, off = 0.0;  // the highest sample over the plane, the farthest off it
  for (int k = 0; k < hits; ++k) {
    raise = std::max(raise, residual[k]);
    off = std::max(off, std::abs(residual[k]));
  }
  if (unevenness) *unevenness = off;
  foot.position.z() = fit[0] + raise;
  const double gu = fit[1], gv = fit[2];
  // The plane's normal in the world, and the tilt that turns +z onto it.
  const Vec3 normal = Vec3(-(c * gu - s * gv), -(s * gu + c * gv), 1.0).normalized();
  const double sine = normal.head<2>().norm();
  if (sine < 1e-9) return foot;
  const double angle = std::min(std::atan2(sine, normal.z()), maxTilt);
  foot.tilt = angle * Vec2(-normal.y(), normal.x()) / sine;
  return foot;
}

FootPlacement chooseFoothold(const World& world, const FootPlacement& foot,
                             const SoleGeometry& sole, const Vec3& along, double maxBack,
                             double maxAhead) {
  double uneven = 0.0;
  const FootPlacement planned = placeOnGround(world, foot, sole, &uneven);
  if (uneven <= kEdge) return planned;
  for (int k = 1; k * kFootholdStep <= std::max(maxBack, maxAhead) + 1e-9; ++k) {
    for (const double shift : {-k * kFootholdStep, k * kFootholdStep}) {
      if (shift < -maxBack - 1e-9 || shift > maxAhead + 1e-9) continue;
      FootPlacement moved = foot;
      moved.position += shift * along;
      moved = placeOnGround(world, moved, sole, &uneven);
      if (uneven <= kEdge) return moved;
    }
  }
  return planned;
}

}  // namespace impetus::walking
