#pragma once
// Fixed-size math types of the engine (Eigen, double precision) and the few rotation helpers the
// integrator and the joints share.

#include <algorithm>
#include <cmath>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace impetus {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

/// Cross-product matrix: skew(a) * b == a.cross(b).
inline Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return m;
}

/// Rotation by the rotation vector `theta` (axis * angle, rad), exact exponential map.
inline Quat rotationFromVector(const Vec3& theta) {
  const double a2 = theta.squaredNorm();
  if (a2 < 1.0) {
    // Below 1 rad (every body's turn in a step but the wildest) the series of cos(a/2) and
    // sin(a/2)/a in x = (a/2)^2 <= 1/4 to x^7 is exact to double precision (the next terms are
    // < x^8/16! < 1e-18) and costs a fraction of a sincos and the axis' normalisation.
    // Coefficients (-1)^k / (2k)! and (-1)^k / (2k+1)! / 2, highest first (Horner).
    static constexpr double kCos[] = {
        -1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0, 1.0 / 40320.0,
        -1.0 / 720.0,         1.0 / 24.0,        -1.0 / 2.0,       1.0};
    static constexpr double kSin[] = {
        -0.5 / 1307674368000.0, 0.5 / 6227020800.0, -0.5 / 39916800.0, 0.5 / 362880.0,
        -0.5 / 5040.0,          0.5 / 120.0,        -0.5 / 6.0,        0.5};
    const double x = 0.25 * a2;
    double c = 0.0, s = 0.0;
    for (int k = 0; k < 8; ++k) {
      c = c * x + kCos[k];
      s = s * x + kSin[k];
    }
    return Quat(c, s * theta.x(), s * theta.y(), s * theta.z());
  }
  const double angle = std::sqrt(a2);
  return Quat(Eigen::AngleAxisd(angle, theta / angle));
}

/// R diag(d) R^T: a tensor given by its principal values `d` along the columns of rotation `r`,
/// in the world frame. Only the six distinct entries are computed (27 products where the general
/// R S R^T takes 54), and the result is exactly symmetric.
inline Mat3 rotatedDiagonal(const Mat3& r, const Vec3& d) {
  const Mat3 rd = r * d.asDiagonal();
  Mat3 out;
  out(0, 0) = rd.row(0).dot(r.row(0));
  out(1, 1) = rd.row(1).dot(r.row(1));
  out(2, 2) = rd.row(2).dot(r.row(2));
  out(0, 1) = out(1, 0) = rd.row(0).dot(r.row(1));
  out(0, 2) = out(2, 0) = rd.row(0).dot(r.row(2));
  out(1, 2) = out(2, 1) = rd.row(1).dot(r.row(2));
  return out;
}

/// Roll, pitch, yaw (x, y, z Tait-Bryan angles, rad) of an orientation: probes and the IMU.
inline Vec3 rollPitchYaw(const Quat& q) {
  const Mat3 r = q.toRotationMatrix();
  const double pitch = std::asin(std::clamp(-r(2, 0), -1.0, 1.0));
  return {std::atan2(r(2, 1), r(2, 2)), pitch, std::atan2(r(1, 0), r(0, 0))};
}

/// q(t + dt) for angular velocity w (world frame, rad/s): exp(w dt) * q, renormalised.
inline Quat integrateOrientation(const Quat& q, const Vec3& w, double dt) {
  return (rotationFromVector(w * dt) * q).normalized();
}

/// Rotation vector (axis * angle, |angle| <= pi) of a unit quaternion.
inline Vec3 rotationVector(Quat q) {
  if (q.w() < 0) q.coeffs() = -q.coeffs();  // shortest arc
  const Vec3 v = q.vec();
  const double s = v.norm();
  if (s < 1e-12) return 2.0 * v;
  return v * (2.0 * std::atan2(s, q.w()) / s);
}

/// Any unit vector perpendicular to unit `n`, and a third completing a right-handed basis.
inline void orthonormalBasis(const Vec3& n, Vec3& t1, Vec3& t2) {
  t1 = (std::abs(n.x()) < 0.57735) ? Vec3(0, n.z(), -n.y()) : Vec3(n.y(), -n.x(), 0);
  t1.normalize();
  t2 = n.cross(t1);
}

}  // namespace impetus
