// Coulomb joint friction by sequential impulses (seed 000), checked against closed forms.
#include <gtest/gtest.h>

#include <cmath>

#include "impetus/dynamics/world.h"
#include "impetus/joints/prismatic_joint.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/joints/spherical_joint.h"
#include "impetus/scenes/hinge_chain.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;

/// A door 1 m wide (x), 2 m tall (z), 4 cm thick, 30 kg, hung on a vertical hinge at its edge
/// x = 0; gravity acts along the hinge axis, so only friction and applied torques turn it.
struct Door {
  World world;
  BodyId body = -1;
  RevoluteJoint* hinge = nullptr;
  double inertiaAboutHinge = 0.0;  // kg m^2

  explicit Door(double frictionTorque, double initialRate = 0.0) {
    const double m = 30.0, w = 1.0, t = 0.04, h = 2.0;
    RigidBodyDesc d;
    d.name = "door";
    d.mass = m;
    d.inertia = scenes::boxInertia(m, Vec3(w, t, h));
    d.position = Vec3(w / 2, 0, h / 2);
    d.angularVelocity = Vec3(0, 0, initialRate);
    d.linearVelocity = Vec3(0, initialRate * w / 2, 0);  // consistent with the hinge
    body = world.addBody(d);
    hinge =
        &world.addJoint<RevoluteJoint>("hinge", World::kGround, body, Vec3::Zero(), Vec3::UnitZ());
    hinge->friction.torque = frictionTorque;
    inertiaAboutHinge = m * (w * w + t * t) / 12.0 + m * (w / 2) * (w / 2);
  }
};

TEST(JointFriction, DoorStopsWithConstantDecelerationAndStays) {
  const double fMax = 20.0, w0 = 1.2;
  Door door(fMax, w0);
  const double tStop = door.inertiaAboutHinge * w0 / fMax;
  const double angleStop = door.inertiaAboutHinge * w0 * w0 / (2 * fMax);
  double stoppedAt = -1.0;
  while (door.world.time() < tStop + 0.5) {
    ASSERT_TRUE(door.world.step(kDt).ok);
    const double t = door.world.time();
    if (t < tStop - kDt) {
      // Decelerating: rate linear in t at F_max / I. 2e-4 rad/s (0.02 % of w0) covers the
      // curvature term, which uses the rate before this step's friction impulse.
      EXPECT_NEAR(door.hinge->rate(), w0 - fMax / door.inertiaAboutHinge * t, 2e-4) << t;
    }
    if (stoppedAt < 0 && std::abs(door.hinge->rate()) < 1e-9) stoppedAt = t;
  }
  ASSERT_GT(stoppedAt, 0.0);
  EXPECT_NEAR(stoppedAt, tStop, kDt);
  EXPECT_NEAR(door.hinge->position(), angleStop, w0 * kDt);
  const double restAngle = door.hinge->position();
  for (int i = 0; i < 500; ++i) {  // 5 s more: static friction holds it
    ASSERT_TRUE(door.world.step(kDt).ok);
    ASSERT_LT(std::abs(door.hinge->rate()), 1e-9) << door.world.time();
  }
  EXPECT_NEAR(door.hinge->position(), restAngle, 1e-9);
}

TEST(JointFriction, TorqueBelowFrictionDoesNotMoveTheDoor) {
  Door door(20.0);
  for (int i = 0; i < 200; ++i) {
    door.world.body(door.body).torque = Vec3(0, 0, 19.0);
    ASSERT_TRUE(door.world.step(kDt).ok);
  }
  EXPECT_LT(std::abs(door.hinge->position()), 1e-9);
  EXPECT_LT(std::abs(door.hinge->rate()), 1e-9);
  // The joint reads out the friction torque that holds the door (unit: N m).
  EXPECT_NEAR(std::abs(door.hinge->generalizedForce()), 19.0, 1e-6);
}

TEST(JointFriction, TorqueAboveFrictionAcceleratesAtTheDifference) {
  const double fMax = 20.0, torque = 50.0;
  Door door(fMax);
  for (int i = 0; i < 100; ++i) {
    door.world.body(door.body).torque = Vec3(0, 0, torque);
    ASSERT_TRUE(door.world.step(kDt).ok);
  }
  const double expected = (torque - fMax) / door.inertiaAboutHinge;
  EXPECT_NEAR(door.hinge->rate() / door.world.time(), expected, 0.005 * expected);
}

TEST(JointFriction, PrismaticSliderDeceleratesAtFrictionOverMass) {
  World world;
  RigidBodyDesc d;
  d.name = "carriage";
  d.mass = 12.0;
  d.inertia = scenes::boxInertia(d.mass, Vec3(0.3, 0.2, 0.1));
  d.position = Vec3(0, 0, 1);
  d.linearVelocity = Vec3(2.0, 0, 0);
  const BodyId carriage = world.addBody(d);
  auto& slider = world.addJoint<PrismaticJoint>("rail", World::kGround, carriage, Vec3(0, 0, 1),
                                                Vec3::UnitX());
  const double force = 30.0;  // N
  slider.friction.force = force;
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(world.step(kDt).ok);
  const double deceleration = (2.0 - slider.rate()) / world.time();
  EXPECT_NEAR(deceleration, force / d.mass, 0.005 * force / d.mass);
  EXPECT_NEAR(world.body(carriage).position.z(), 1.0, 1e-6);  // gravity held by the rail
}

TEST(JointFriction, SphericalFrictionIsAVectorNormAlongTheRelativeRate) {
  // A uniform cube (isotropic inertia) on a ball joint at its centre, spinning about a skew axis:
  // the friction impulse opposes the relative angular velocity as a vector, so the spin axis stays
  // fixed and |w| falls at F_max / I. A per-axis clamp would turn the axis.
  World world;
  RigidBodyDesc d;
  d.name = "ball";
  d.mass = 6.0;
  d.inertia = scenes::boxInertia(d.mass, Vec3(0.4, 0.4, 0.4));
  const double inertia = d.inertia(0, 0);
  const Vec3 axis = Vec3(1, 2, 3).normalized();
  const double w0 = 3.0, fMax = 0.5;
  d.angularVelocity = w0 * axis;
  const BodyId ball = world.addBody(d);
  auto& joint = world.addJoint<SphericalJoint>("socket", World::kGround, ball, Vec3::Zero());
  joint.friction.torque = fMax;
  const double tStop = inertia * w0 / fMax;
  while (world.time() < 0.9 * tStop) {
    ASSERT_TRUE(world.step(kDt).ok);
    const Vec3 w = world.body(ball).angularVelocity;
    ASSERT_NEAR(w.normalized().dot(axis), 1.0, 1e-12);
    ASSERT_NEAR(w.norm(), w0 - fMax / inertia * world.time(), 0.005 * w0);
  }
}

}  // namespace
}  // namespace impetus
