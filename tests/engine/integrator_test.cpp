// The semi-implicit Euler of seed 002 (linear velocity + angular momentum) against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "impetus/dynamics/world.h"
#include "impetus/scenes/hinge_chain.h"

namespace impetus {
namespace {

World freeSpace() {
  WorldSettings settings;
  settings.gravity.setZero();
  return World(settings);
}

BodyId addSpinner(World& world, const Vec3& angularVelocity) {
  RigidBodyDesc d;
  d.name = "spinner";
  d.mass = 2.0;
  d.inertia = Vec3(0.1, 0.2, 0.3).asDiagonal();  // minor x, intermediate y, major z
  d.angularVelocity = angularVelocity;
  return world.addBody(d);
}

TEST(Integrator, RotationFromVectorIsTheExactExponential) {
  // Below 1 rad it is a series (no sincos): the quaternion must still be exact to rounding,
  // across the switch to the closed form and down to the tiniest turns.
  double worst = 0.0;
  for (double angle = 1e-9; angle < std::numbers::pi; angle *= 1.05) {
    const Vec3 axis = Vec3(0.3, -0.5, 0.8).normalized();
    const Quat series = rotationFromVector(angle * axis);
    const Quat exact(Eigen::AngleAxisd(angle, axis));
    worst = std::max(worst, (series.coeffs() - exact.coeffs()).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(worst, 4e-16);  // a few ulps of 1 (one term fewer is off by 7e-16 at 1 rad)
}

TEST(Integrator, RotatedDiagonalIsRDRTransposed) {
  const Mat3 r = Quat(Eigen::AngleAxisd(1.1, Vec3(0.2, -0.7, 0.4).normalized())).toRotationMatrix();
  const Vec3 d(0.5, 2.0, 7.0);
  const Mat3 fast = rotatedDiagonal(r, d);
  const Mat3 reference = r * d.asDiagonal() * r.transpose();
  EXPECT_LT((fast - reference).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_EQ(fast, fast.transpose());  // exactly symmetric
}

TEST(Integrator, PrincipalAndGeneralInertiaPathsSpinAlike) {
  // The same body twice: once described in its principal frame (diagonal inertia: the six-entry
  // path), once in a frame turned by P (full tensor P D P^T, orientation R P^T: the general
  // path). Their world motion must be one and the same.
  const Vec3 principal(0.1, 0.2, 0.3);
  const Quat p(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  const Quat q0(Eigen::AngleAxisd(0.4, Vec3(0, 1, 1).normalized()));
  World world = freeSpace();
  RigidBodyDesc d;
  d.name = "principal";
  d.mass = 2.0;
  d.inertia = principal.asDiagonal();
  d.orientation = q0;
  d.angularVelocity = Vec3(0.3, 4.0, 0.2);
  const BodyId a = world.addBody(d);
  d.name = "turned";
  d.inertia = p.toRotationMatrix() * principal.asDiagonal() * p.toRotationMatrix().transpose();
  d.orientation = q0 * p.conjugate();
  d.position = Vec3(5, 0, 0);
  const BodyId b = world.addBody(d);
  ASSERT_TRUE(world.body(a).principalInertia);
  ASSERT_FALSE(world.body(b).principalInertia);
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(world.step(0.01).ok);
  // The intermediate-axis spin flips over these 30 s, which amplifies rounding differences.
  EXPECT_LT((world.body(a).angularVelocity - world.body(b).angularVelocity).norm(), 1e-6);
  EXPECT_LT((world.body(a).inverseInertiaWorld - world.body(b).inverseInertiaWorld).norm(), 1e-6);
}

TEST(Integrator, FreeFallIsExactForSemiImplicitEuler) {
  World world;
  RigidBodyDesc d;
  d.name = "ball";
  d.position = Vec3(0, 0, 10);
  const BodyId ball = world.addBody(d);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(world.step(0.01).ok);
  // v_n = -g n dt exactly; z_n = z0 - g dt^2 n (n + 1) / 2 (positions use the new velocity).
  EXPECT_NEAR(world.body(ball).linearVelocity.z(), -9.81, 1e-12);
  EXPECT_NEAR(world.body(ball).position.z(), 10 - 9.81 * 1e-4 * 100 * 101 / 2, 1e-10);
}

TEST(Integrator, TorqueFreeBodyConservesMomentumAndEnergy) {
  World world = freeSpace();
  const BodyId body = addSpinner(world, Vec3(0.3, 4.0, 0.2));  // near the intermediate axis
  const Vec3 l0 = world.body(body).angularMomentum;
  const double e0 = world.body(body).kineticEnergy();
  double worstEnergy = 0.0;
  for (int i = 0; i < 10000; ++i) {  // 100 s
    ASSERT_TRUE(world.step(0.01).ok);
    worstEnergy = std::max(worstEnergy, std::abs(world.body(body).kineticEnergy() / e0 - 1.0));
  }
  EXPECT_LT((world.body(body).angularMomentum - l0).norm() / l0.norm(), 1e-12);
  EXPECT_LT(worstEnergy, 1e-3);
  RecordProperty("worst_relative_energy_error", std::to_string(worstEnergy));
}

/// Largest angle (rad) between the body's spin axis (in the body frame) and its initial axis.
double largestAxisExcursion(const Vec3& spin) {
  World world = freeSpace();
  const BodyId body = addSpinner(world, spin);
  const Vec3 axis0 = spin.normalized();
  double worst = 0.0;
  for (int i = 0; i < 3000; ++i) {
    EXPECT_TRUE(world.step(0.01).ok);
    const RigidBody& b = world.body(body);
    const Vec3 inBody = (b.rotation.transpose() * b.angularVelocity).normalized();
    worst = std::max(worst, std::acos(std::clamp(inBody.dot(axis0), -1.0, 1.0)));
  }
  return worst;
}

TEST(Integrator, SpinAboutMajorAndMinorAxesIsStableAndAboutTheIntermediateFlips) {
  const double tilt = 0.01;  // rad/s of perturbation on a 5 rad/s spin
  EXPECT_LT(largestAxisExcursion(Vec3(5.0, tilt, tilt)), 0.05);  // minor axis
  EXPECT_LT(largestAxisExcursion(Vec3(tilt, tilt, 5.0)), 0.05);  // major axis
  EXPECT_GT(largestAxisExcursion(Vec3(tilt, 5.0, tilt)), 2.5);   // intermediate: it flips
}

}  // namespace
}  // namespace impetus
