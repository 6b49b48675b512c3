// Tracks: a vehicle driven by its track motors through ground contact (issue 6): the belt's
// surface moves against the hull, friction at the ground does the rest.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "impetus/scenes/tracked_vehicle.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;

double yaw(const Quat& q) {
  const Vec3 x = q * Vec3::UnitX();
  return std::atan2(x.y(), x.x());
}

World groundWorld(double friction, const Quat& tilt = Quat::Identity()) {
  World world;
  world.materials()[0].friction = friction;
  ShapeDesc ground;
  ground.type = ShapeType::Plane;
  ground.orientation = tilt;
  world.addShape(World::kGround, ground);
  return world;
}

TEST(Tracks, DrivesStraightAtTheSprocketSpeedWithoutDrifting) {
  World world = groundWorld(0.8);
  const scenes::TrackedVehicle v = scenes::buildTrackedVehicle(world);
  v.left->setVoltage(1.0);
  v.right->setVoltage(1.0);
  const Vec3 start = world.body(v.hull).position;
  while (world.body(v.hull).position.x() - start.x() < 10.0 && world.time() < 60.0)
    ASSERT_TRUE(world.step(kDt).ok);
  const RigidBody& hull = world.body(v.hull);
  EXPECT_GE(hull.position.x() - start.x(), 10.0);
  EXPECT_LT(std::abs(yaw(hull.orientation)) * 180 / std::numbers::pi, 1.0);  // heading drift
  EXPECT_LT(std::abs(hull.position.y() - start.y()), 0.05);
  // On flat ground nothing loads the motors but rolling: the hull runs at the belt's no-load speed.
  EXPECT_NEAR(hull.linearVelocity.x(), v.topSpeed, 0.03 * v.topSpeed);
  EXPECT_NEAR(v.left->speed(), v.left->params().noLoadSpeed, 0.03 * v.left->params().noLoadSpeed);
  // Stopping: with u = 0 the idle motors' back-EMF brakes the tracks and the hull stops.
  v.left->setVoltage(0.0);
  v.right->setVoltage(0.0);
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(world.step(kDt).ok);
  EXPECT_LT(world.body(v.hull).linearVelocity.norm(), 1e-3);
}

TEST(Tracks, OppositeVoltagesTurnInPlace) {
  World world = groundWorld(0.8);
  const scenes::TrackedVehicle v = scenes::buildTrackedVehicle(world);
  // Left track back, right forward: counter-clockwise from above. Skidding the tracks sideways
  // costs about mu m g L / 4 = 71 N m here; half voltage gives ~70 N m and stalls, full ~140 N m.
  v.left->setVoltage(-1.0);
  v.right->setVoltage(1.0);
  const Vec3 start = world.body(v.hull).position;
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(world.step(kDt).ok);
  const RigidBody& hull = world.body(v.hull);
  EXPECT_GT(hull.angularVelocity.z(), 0.1);                   // turning
  EXPECT_LT((hull.position - start).head<2>().norm(), 0.05);  // in place
  EXPECT_GT(std::abs(yaw(hull.orientation)), 0.3);
}

TEST(Tracks, ClimbsWhereFrictionAllowsAndSlipsBackWhereItDoesNot) {
  const double mu = 0.5;
  for (const double degrees : {10.0, 35.0}) {  // tan 10 = 0.18 < 0.5 < tan 35 = 0.70
    const double theta = degrees * std::numbers::pi / 180;
    const Quat tilt(Eigen::AngleAxisd(-theta, Vec3::UnitY()));  // uphill toward +x
    World world = groundWorld(mu, tilt);
    scenes::TrackedVehicleOptions options;
    options.orientation = tilt;
    const scenes::TrackedVehicle v = scenes::buildTrackedVehicle(world, options);
    v.left->setVoltage(1.0);
    v.right->setVoltage(1.0);
    const Vec3 uphill = tilt * Vec3::UnitX();
    const Vec3 start = world.body(v.hull).position;
    for (int i = 0; i < 300; ++i) ASSERT_TRUE(world.step(kDt).ok);
    const double progress = (world.body(v.hull).position - start).dot(uphill);
    if (std::tan(theta) < mu)
      EXPECT_GT(progress, 0.5) << degrees << " degrees: should climb";
    else
      EXPECT_LT(progress, -0.1) << degrees << " degrees: should slip back, tracks spinning";
  }
}

}  // namespace
}  // namespace impetus
