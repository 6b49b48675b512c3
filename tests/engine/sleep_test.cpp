// Sleeping islands (SleepSettings): resting bodies stop costing anything and stop moving, their
// contacts keep reporting their load, and any disturbance wakes the whole island it reaches.
#include <gtest/gtest.h>

#include <cmath>

#include "impetus/drives/dc_motor.h"
#include "impetus/dynamics/world.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/scenes/hinge_chain.h"
#include "impetus/session/state_stream.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;
constexpr double kG = 9.81;

void addFloor(World& world) {
  ShapeDesc floor;
  floor.type = ShapeType::Plane;
  world.addShape(World::kGround, floor);
}

BodyId addBox(World& world, const std::string& name, const Vec3& position, double edge, double mass,
              BodyType type = BodyType::Dynamic) {
  RigidBodyDesc d;
  d.name = name;
  d.mass = mass;
  d.inertia = scenes::boxInertia(mass, Vec3::Constant(edge));
  d.position = position;
  d.type = type;
  const BodyId id = world.addBody(d);
  ShapeDesc s;
  s.type = ShapeType::Box;
  s.size = Vec3::Constant(edge);
  world.addShape(id, s);
  return id;
}

/// Steps until `body` sleeps; returns the time it took (s), or a negative value after `limit` s.
double stepUntilAsleep(World& world, BodyId body, double limit) {
  const double start = world.time();
  while (world.time() - start < limit) {
    if (!world.step(kDt).ok) return -1.0;
    if (world.body(body).sleeping) return world.time() - start;
  }
  return -1.0;
}

/// A 0.4 m, 8 kg box dropped from 0.3 m onto the floor.
struct DroppedBox {
  World world;
  BodyId box;
  DroppedBox() {
    addFloor(world);
    box = addBox(world, "box", Vec3(0, 0, 0.5), 0.4, 8.0);
  }
};

TEST(Sleep, ABoxThatCameToRestSleepsAndItsContactsStillCarryItsWeight) {
  DroppedBox s;
  // It lands after sqrt(2 * 0.3 / g) = 0.25 s and rests at once (no restitution): asleep after
  // about 0.25 + timeToSleep = 0.75 s; 1.5 s leaves room for a little settling.
  const double asleepAfter = stepUntilAsleep(s.world, s.box, 1.5);
  ASSERT_GT(asleepAfter, s.world.settings().sleep.timeToSleep);
  const RigidBody& box = s.world.body(s.box);
  EXPECT_NEAR(box.position.z(), 0.2, 1e-3);
  EXPECT_EQ(box.linearVelocity, Vec3::Zero());
  EXPECT_EQ(s.world.statistics().sleepingBodies, 1);

  const Vec3 position = box.position;
  const Quat orientation = box.orientation;
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(s.world.step(kDt).ok);
  EXPECT_TRUE(box.sleeping);
  EXPECT_EQ(box.position, position);  // bit for bit: nothing integrates it
  EXPECT_EQ(box.orientation.coeffs(), orientation.coeffs());
  EXPECT_EQ(s.world.statistics().rows, 0);  // and nothing solves it
  // The read-outs a sensor uses still see the floor carrying m g (the last solved impulses).
  EXPECT_EQ(s.world.statistics().contacts, 4);
  EXPECT_NEAR(s.world.contactForce(s.box).z(), 8.0 * kG, 1e-3 * 8.0 * kG);
}

TEST(Sleep, OffByTheSettingTheBoxNeverSleeps) {
  DroppedBox s;
  s.world.settings().sleep.enabled = false;
  EXPECT_LT(stepUntilAsleep(s.world, s.box, 3.0), 0.0);
  EXPECT_GT(s.world.statistics().rows, 0);
}

TEST(Sleep, SwitchingSleepOffWakesEverything) {
  DroppedBox s;
  ASSERT_GT(stepUntilAsleep(s.world, s.box, 1.5), 0.0);
  s.world.settings().sleep.enabled = false;
  ASSERT_TRUE(s.world.step(kDt).ok);
  EXPECT_FALSE(s.world.body(s.box).sleeping);
  EXPECT_EQ(s.world.sleepingBodyCount(), 0);
}

TEST(Sleep, AForceWakesTheBodyAndItMovesAsNewtonSays) {
  DroppedBox s;
  s.world.settings().sleep.enabled = true;
  ASSERT_GT(stepUntilAsleep(s.world, s.box, 1.5), 0.0);
  // 100 N up on 8 kg: a = 100/8 - g = 2.69 m/s^2 off the floor; one step gives v = a dt.
  s.world.body(s.box).force = Vec3(0, 0, 100.0);
  ASSERT_TRUE(s.world.step(kDt).ok);
  const RigidBody& box = s.world.body(s.box);
  EXPECT_FALSE(box.sleeping);
  EXPECT_NEAR(box.linearVelocity.z(), (100.0 / 8.0 - kG) * kDt, 1e-6);
}

TEST(Sleep, AVelocitySetOnASleepingBodyWakesIt) {
  DroppedBox s;
  ASSERT_GT(stepUntilAsleep(s.world, s.box, 1.5), 0.0);
  s.world.body(s.box).linearVelocity = Vec3(0, 0, 2.0);  // thrown up
  ASSERT_TRUE(s.world.step(kDt).ok);
  EXPECT_FALSE(s.world.body(s.box).sleeping);
  EXPECT_NEAR(s.world.body(s.box).linearVelocity.z(), 2.0 - kG * kDt, 1e-6);
}

/// Three boxes stacked, a fourth far away: two islands (the floor does not link them).
struct TwoIslands {
  World world;
  BodyId stack[3];
  BodyId loner;
  TwoIslands() {
    addFloor(world);
    for (int i = 0; i < 3; ++i)
      stack[i] = addBox(world, "s" + std::to_string(i), Vec3(0, 0, 0.25 + 0.5 * i), 0.5, 10.0);
    loner = addBox(world, "loner", Vec3(5, 0, 0.25), 0.5, 10.0);
  }
  bool allAsleep() const {
    for (BodyId b : stack)
      if (!world.body(b).sleeping) return false;
    return world.body(loner).sleeping;
  }
};

TEST(Sleep, ABallHittingASleepingStackWakesTheWholeStackButNotAnotherIsland) {
  TwoIslands s;
  for (int i = 0; i < 100 && !s.allAsleep(); ++i) ASSERT_TRUE(s.world.step(kDt).ok);
  ASSERT_TRUE(s.allAsleep());
  const double topBefore = s.world.body(s.stack[2]).position.z();

  // A 1 kg ball dropped onto the top box from 0.5 m.
  RigidBodyDesc d;
  d.name = "ball";
  d.mass = 1.0;
  d.inertia = Mat3::Identity() * 0.4 * 0.1 * 0.1;
  d.position = Vec3(0, 0, 1.5 + 0.1 + 0.5);
  const BodyId ball = s.world.addBody(d);
  ShapeDesc sphere;
  sphere.type = ShapeType::Sphere;
  sphere.radius = 0.1;
  s.world.addShape(ball, sphere);
  bool wokeTogether = false;
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(s.world.step(kDt).ok);
    const bool top = s.world.body(s.stack[2]).sleeping;
    const bool bottom = s.world.body(s.stack[0]).sleeping;
    EXPECT_EQ(top, bottom) << "at t = " << s.world.time();  // never half an island
    if (!top) wokeTogether = true;
  }
  EXPECT_TRUE(wokeTogether);
  EXPECT_TRUE(s.world.body(s.loner).sleeping);
  // The stack took the hit (a 1 kg ball at 3.1 m/s) and still stands.
  EXPECT_NEAR(s.world.body(s.stack[2]).position.z(), topBefore, 1e-3);
  // Everything comes to rest again, the ball too (it joins the stack's island).
  for (int i = 0; i < 300 && !(s.allAsleep() && s.world.body(ball).sleeping); ++i)
    ASSERT_TRUE(s.world.step(kDt).ok);
  EXPECT_TRUE(s.allAsleep());
  EXPECT_TRUE(s.world.body(ball).sleeping);
}

TEST(Sleep, WakeByHandWakesTheIslandOnly) {
  TwoIslands s;
  for (int i = 0; i < 100 && !s.allAsleep(); ++i) ASSERT_TRUE(s.world.step(kDt).ok);
  ASSERT_TRUE(s.allAsleep());
  s.world.wake(s.stack[1]);
  for (BodyId b : s.stack) EXPECT_FALSE(s.world.body(b).sleeping);
  EXPECT_TRUE(s.world.body(s.loner).sleeping);
  EXPECT_EQ(s.world.sleepingBodyCount(), 1);
}

TEST(Sleep, AKinematicPlatformStartingToMoveWakesTheBoxOnIt) {
  World world;
  const BodyId platform =
      addBox(world, "platform", Vec3(0, 0, -0.5), 1.0, 1.0, BodyType::Kinematic);
  const BodyId box = addBox(world, "box", Vec3(0, 0, 0.2), 0.4, 8.0);
  ASSERT_GT(stepUntilAsleep(world, box, 1.5), 0.0);
  world.body(platform).linearVelocity = Vec3(0, 0, 0.5);  // a lift going up
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(world.step(kDt).ok);
  EXPECT_FALSE(world.body(box).sleeping);
  EXPECT_NEAR(world.body(box).linearVelocity.z(), 0.5, 1e-3);  // carried along
}

TEST(Sleep, APendulumHangingStillSleepsUnlessAMotorDrivesIt) {
  for (const bool motorised : {false, true}) {
    World world;
    RigidBodyDesc d;
    d.name = "bob";
    d.mass = 1.0;
    d.inertia = Mat3::Identity() * 0.01;
    d.position = Vec3(0, 0, -0.5);
    const BodyId bob = world.addBody(d);
    auto& hinge =
        world.addJoint<RevoluteJoint>("pivot", World::kGround, bob, Vec3::Zero(), Vec3::UnitY());
    if (motorised) {
      DcMotorParams p;
      p.stallTorque = 0.2;
      p.noLoadSpeed = 5.0;
      p.gearRatio = 50;
      p.timeConstant = 0.05;
      world.addMotor("m", hinge, p);  // at 0 V: a brake-like load, but under command
    }
    for (int i = 0; i < 200; ++i) ASSERT_TRUE(world.step(kDt).ok);
    EXPECT_EQ(world.body(bob).sleeping, !motorised) << (motorised ? "motorised" : "free");
  }
}

TEST(Sleep, ASavedSleepingWorldContinuesBitForBit) {
  TwoIslands a, b;
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(a.world.step(kDt).ok);
  ASSERT_TRUE(a.allAsleep());
  StateWriter out;
  a.world.saveState(out);
  const std::vector<std::uint8_t> bytes = out.take();
  StateReader in(bytes);
  b.world.loadState(in);
  EXPECT_TRUE(b.allAsleep());
  EXPECT_EQ(b.world.sleepingBodyCount(), 4);
  // Wake both the same way and run on: the same bits.
  for (World* w : {&a.world, &b.world}) w->body(a.loner).force = Vec3(500, 0, 0);
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(a.world.step(kDt).ok);
    ASSERT_TRUE(b.world.step(kDt).ok);
  }
  EXPECT_FALSE(a.world.body(a.loner).sleeping);
  for (BodyId id = 1; id < a.world.bodyCount(); ++id) {
    EXPECT_EQ(a.world.body(id).position, b.world.body(id).position);
    EXPECT_EQ(a.world.body(id).sleeping, b.world.body(id).sleeping);
  }
}

}  // namespace
}  // namespace impetus
