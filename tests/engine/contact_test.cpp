// Contacts (seed 002): non-penetration, impacts with restitution, the Coulomb cone, rolling and
// spinning friction; collision through Bullet's collision module, dynamics ours.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <utility>

#include "impetus/dynamics/world.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/joints/spherical_joint.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/scenes/hinge_chain.h"
#include "resume_check.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;
constexpr double kG = 9.81;

/// Ground: the z = 0 plane, or the same floor as a triangle mesh (two triangles, 200 m square:
/// the sliding block travels 20 m).
void addFloor(World& world, bool mesh, int material = 0, const Quat& tilt = Quat::Identity()) {
  ShapeDesc floor;
  floor.material = material;
  floor.orientation = tilt;
  if (mesh) {
    floor.type = ShapeType::Mesh;
    floor.vertices = {{-100, -100, 0}, {100, -100, 0}, {100, 100, 0}, {-100, 100, 0}};
    floor.triangles = {0, 1, 2, 0, 2, 3};
  } else {
    floor.type = ShapeType::Plane;
  }
  world.addShape(World::kGround, floor);
}

BodyId addBox(World& world, const std::string& name, const Vec3& position, const Vec3& size,
              double mass, int material = 0, const Quat& orientation = Quat::Identity()) {
  RigidBodyDesc d;
  d.name = name;
  d.mass = mass;
  d.inertia = scenes::boxInertia(mass, size);
  d.position = position;
  d.orientation = orientation;
  const BodyId id = world.addBody(d);
  ShapeDesc s;
  s.type = ShapeType::Box;
  s.size = size;
  s.material = material;
  world.addShape(id, s);
  return id;
}

BodyId addBall(World& world, const Vec3& position, double radius, int material) {
  RigidBodyDesc d;
  d.name = "ball";
  d.mass = 1.0;
  d.inertia = Mat3::Identity() * 0.4 * radius * radius;
  d.position = position;
  const BodyId id = world.addBody(d);
  ShapeDesc s;
  s.type = ShapeType::Sphere;
  s.radius = radius;
  s.material = material;
  world.addShape(id, s);
  return id;
}

int material(World& world, double friction, double restitution = 0.0, double rolling = 0.0,
             double spinning = 0.0) {
  return world.materials().add({"m" + std::to_string(world.materials().size()),
                                friction,
                                restitution,
                                rolling,
                                spinning,
                                {}});
}

class ContactOnFloor : public ::testing::TestWithParam<bool> {};  // plane, or mesh floor

TEST_P(ContactOnFloor, BoxAtRestSettlesWithoutJitterOrCreep) {
  World world;
  world.settings().sleep.enabled = false;  // the solver holding it at rest is under test
  addFloor(world, GetParam());
  const BodyId box = addBox(world, "box", Vec3(0.3, -0.2, 0.25), Vec3(0.5, 0.4, 0.5), 10.0);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(world.step(kDt).ok);
  const Vec3 settled = world.body(box).position;
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(world.step(kDt).ok);
  EXPECT_LT(world.kineticEnergy(), 1e-6);
  EXPECT_LT((world.body(box).position - settled).norm(), 1e-5);
  EXPECT_NEAR(world.body(box).position.z(), 0.25, 2e-4);  // penetration within the slop
  // The floor carries the weight (unit: N).
  EXPECT_NEAR(world.contactForce(box).z(), 10.0 * kG, 1e-3 * 10.0 * kG);
}

TEST(Contact, AFaceAcrossTheSeamOfTwoFixedBoxesGetsEachPointOnce) {
  // Two fixed slabs abutting at x = 0 (tiles, a ramp at its crest) and a box resting across the
  // seam: each slab's manifold has the two seam corners of its contact area, the same points of
  // the box. As four rows for two points they are nearly parallel leaves of the exact joint tree
  // (a humanoid's foot at a ramp's crest was thrown 4 m); the later pair's are dropped.
  World world;
  for (const double x : {-0.5, 0.5}) {
    RigidBodyDesc d;
    d.name = x < 0 ? "left" : "right";
    d.type = BodyType::Static;
    d.position = Vec3(x, 0.0, -0.1);
    const BodyId id = world.addBody(d);
    ShapeDesc s;
    s.type = ShapeType::Box;
    s.size = Vec3(1.0, 1.0, 0.2);
    world.addShape(id, s);
  }
  const BodyId box = addBox(world, "box", Vec3(0.0, 0.0, 0.05), Vec3(0.4, 0.3, 0.1), 2.0);
  for (int i = 0; i < 100; ++i) world.step(0.01);
  const auto points = world.contacts();
  int onLeft = 0, onRight = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const ContactPoint& c = points[i];
    ASSERT_TRUE(c.bodyA == box || c.bodyB == box);
    (world.body(c.bodyA).name == "left" || world.body(c.bodyB).name == "left" ? onLeft : onRight)++;
    const Vec3 p = world.body(box).toWorld(c.bodyA == box ? c.localA : c.localB);
    for (size_t k = 0; k < i; ++k) {
      const ContactPoint& d = points[k];
      const Vec3 q = world.body(box).toWorld(d.bodyA == box ? d.localA : d.localB);
      EXPECT_GT((p - q).norm(), 0.005) << "points " << k << " and " << i << " coincide";
    }
  }
  EXPECT_EQ(onLeft + onRight, 6);  // the box's 4 corners and the seam's 2 points, once each
  EXPECT_GE(std::min(onLeft, onRight), 2);
  EXPECT_LT(world.body(box).linearVelocity.norm(), 1e-4);
  EXPECT_NEAR(world.body(box).position.z(), 0.05, 1e-3);
}

TEST(Contact, AToePressedIntoAConcaveSeamIsPushedOutOfTheSlope) {
  // A 10 degree ramp descending onto the floor plane (its foot at x = 0) and a sole-sized box
  // pitched 14 degrees, toe down, its toe 1.35 cm inside the slope 7.8 cm above the ramp's foot -
  // where a humanoid's stance foot was walking down. The toe's points with the floor (no depth)
  // and with the ramp (1.35 cm deep) coincide on the box; keeping the floor's, as the seam rule
  // did, left the toe in the ramp and the sole pitched over. The box must come to lie on the
  // slope, no corner deeper in it than the contact slop.
  World world;
  addFloor(world, false);
  const double slope = 10.0 * M_PI / 180.0;
  const Mat3 rampTilt = Eigen::AngleAxisd(slope, Vec3::UnitY()).toRotationMatrix();
  RigidBodyDesc rampDesc;
  rampDesc.name = "ramp";
  rampDesc.type = BodyType::Static;
  rampDesc.orientation = Quat(rampTilt);
  // The top face's lower edge at the origin: centre 1.5 m up the slope, 0.1 m under the face.
  rampDesc.position = rampTilt * Vec3(-1.5, 0.0, -0.1);
  const BodyId ramp = world.addBody(rampDesc);
  ShapeDesc rampShape;
  rampShape.type = ShapeType::Box;
  rampShape.size = Vec3(3.0, 1.0, 0.2);
  world.addShape(ramp, rampShape);
  const Vec3 size(0.24, 0.13, 0.04);
  const Mat3 pitch = Eigen::AngleAxisd(0.244, Vec3::UnitY()).toRotationMatrix();
  const Vec3 toe(-0.078, 0.0, 0.0);  // on the floor, 1.35 cm under the slope
  const BodyId box =
      addBox(world, "sole", toe - pitch * Vec3(0.12, 0.0, -0.02), size, 1.5, 0, Quat(pitch));
  // Depth of a box corner under the slope's surface (m; > 0 inside the ramp).
  const Vec3 normal = rampTilt * Vec3::UnitZ();
  const auto deepestCorner = [&] {
    double deepest = -1.0;
    for (const double x : {-0.12, 0.12})
      for (const double y : {-0.065, 0.065})
        deepest = std::max(deepest, -normal.dot(world.body(box).toWorld(Vec3(x, y, -0.02))));
    return deepest;
  };
  EXPECT_NEAR(deepestCorner(), 0.078 * std::sin(slope), 1e-9);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(world.step(0.01).ok);
  EXPECT_LT(deepestCorner(), 0.002);
  const Vec3 along = world.body(box).rotation.col(0);
  EXPECT_NEAR(std::atan2(-along.z(), along.x()), slope, 0.02);  // lies on the slope
}

TEST(Contact, BallReboundsToESquaredTimesTheDropHeight) {
  // On the plane and on a triangle-mesh floor (whose faces now reach out to the speculative
  // margin: the ball gets its point before it touches, as on the plane).
  for (const bool mesh : {false, true})
    for (const double e : {0.8, 0.5}) {
      World world;
      const int bouncy = material(world, 0.5, e);
      addFloor(world, mesh, bouncy);
      const double r = 0.1, h = 1.0;
      const BodyId ball = addBall(world, Vec3(0, 0, h + r), r, bouncy);
      bool rising = false;
      double apex = 0.0;
      for (int i = 0; i < 300; ++i) {
        ASSERT_TRUE(world.step(kDt).ok);
        const double vz = world.body(ball).linearVelocity.z();
        if (vz > 0) rising = true;
        if (rising) apex = std::max(apex, world.body(ball).position.z() - r);
        if (rising && vz < 0) break;
      }
      EXPECT_NEAR(apex, e * e * h, 0.03 * e * e * h) << "e = " << e << (mesh ? ", mesh" : "");
    }
  World still;
  const int dead = material(still, 0.5, 0.0);
  addFloor(still, true, dead);
  const BodyId ball = addBall(still, Vec3(0, 0, 1.1), 0.1, dead);
  double highest = 0.0;
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(still.step(kDt).ok);
    if (i > 50) highest = std::max(highest, still.body(ball).position.z() - 0.1);
  }
  EXPECT_LT(highest, 1e-3);  // e = 0: it stays down
}

TEST(Contact, SpeculativePointsReachAsFarAsTheSpeedsCanCloseInTheStep) {
  // A resting body 2 cm off the floor has no point (1 cm resting margin: a lying ragdoll kept 25
  // of its 44 points apart beyond anything its step could close); the same body moving or
  // spinning towards the floor fast enough to cross the gap within the step has its point first
  // and lands without sinking in (one step: the speculative row closes the gap, no further).
  const double gap = 0.02, r = 0.1;
  const auto lowestAfterOneStep = [&](const Vec3& velocity, const Vec3& spin, bool capsule) {
    World world;
    world.settings().gravity = Vec3::Zero();  // the speeds given are the approach
    addFloor(world, false);
    RigidBodyDesc d;
    d.name = "probe";
    d.mass = 1.0;
    d.inertia = Mat3::Identity() * 0.01;
    d.position = Vec3(0, 0, r + gap);
    d.linearVelocity = velocity;
    d.angularVelocity = spin;
    const BodyId id = world.addBody(d);
    ShapeDesc s;
    s.type = capsule ? ShapeType::Capsule : ShapeType::Sphere;
    s.radius = r;
    s.length = 1.0;  // a capsule lies along x (its axis, local z, turned)
    if (capsule) s.orientation = Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitY()));
    world.addShape(id, s);
    EXPECT_TRUE(world.step(kDt).ok);
    const RigidBody& b = world.body(id);
    double lowest = b.position.z() - r;
    if (capsule)  // the ends of the segment, 0.5 m either side along the body's x
      for (const double end : {-0.5, 0.5})
        lowest = std::min(lowest, b.toWorld(Vec3(end, 0, 0)).z() - r);
    return std::pair{static_cast<int>(world.contacts().size()), lowest};
  };
  // At rest: no point at 2 cm.
  EXPECT_EQ(lowestAfterOneStep(Vec3::Zero(), Vec3::Zero(), false).first, 0);
  EXPECT_EQ(lowestAfterOneStep(Vec3::Zero(), Vec3::Zero(), true).first, 0);
  // 3 m/s down crosses 3 cm in the step: a point, and the ball stops at the floor (its row
  // closes the gap exactly; without the point it would sink 1 cm).
  const auto [fallingPoints, fallingLowest] =
      lowestAfterOneStep(Vec3(0, 0, -3.0), Vec3::Zero(), false);
  EXPECT_EQ(fallingPoints, 1);
  EXPECT_NEAR(fallingLowest, 0.0, 1e-6);
  // Spinning at 5 rad/s about y with no speed at all, the capsule's end comes down at 2.5 m/s
  // (2.5 cm in the step): its point is there and the end does not sink in.
  const auto [spinningPoints, spinningLowest] =
      lowestAfterOneStep(Vec3::Zero(), Vec3(0, 5.0, 0), true);
  EXPECT_GE(spinningPoints, 1);
  EXPECT_GT(spinningLowest, -1e-4);
}

TEST(Contact, BlockOnAnInclineSticksOrSlidesAsCoulombSays) {
  const double mu = 0.5;
  for (const bool mesh : {false, true})
    for (const double degrees : {20.0, 35.0}) {  // tan 20 = 0.36 < 0.5 < tan 35 = 0.70
      const double theta = degrees * std::numbers::pi / 180.0;
      World world;
      const int m = material(world, mu);
      const Quat tilt(Eigen::AngleAxisd(-theta, Vec3::UnitY()));  // slope descends toward +x
      addFloor(world, mesh, m, tilt);
      const Vec3 up = tilt * Vec3::UnitZ(), downhill = -(tilt * Vec3::UnitX());
      const BodyId block = addBox(world, "block", 0.1 * up, Vec3(0.3, 0.3, 0.2), 5.0, m, tilt);
      for (int i = 0; i < 20; ++i) ASSERT_TRUE(world.step(kDt).ok);  // settle onto the slope
      const Vec3 start = world.body(block).position;
      const double t0 = world.time();
      const double v0 = world.body(block).linearVelocity.dot(downhill);
      for (int i = 0; i < 500; ++i) ASSERT_TRUE(world.step(kDt).ok);
      const double travel = (world.body(block).position - start).dot(downhill);
      if (std::tan(theta) < mu) {
        EXPECT_LT(std::abs(travel), 1e-3) << degrees << " degrees" << (mesh ? ", mesh" : "");
      } else {
        const double a = kG * (std::sin(theta) - mu * std::cos(theta));
        const double measured =
            (world.body(block).linearVelocity.dot(downhill) - v0) / (world.time() - t0);
        EXPECT_NEAR(measured, a, 0.02 * a) << degrees << " degrees" << (mesh ? ", mesh" : "");
      }
    }
}

TEST_P(ContactOnFloor, TenBoxStackStandsForAMinute) {
  // BENCH-SCENES stack10: 10 cubes of 0.5 m and 10 kg, exactly touching, friction 0.8. Bullet
  // lets its top box creep 28 cm in 10 s, ODE 7-26 cm (tools/bench/peers).
  World world;
  world.settings().sleep.enabled = false;  // the solver holding it at rest is under test
  addFloor(world, GetParam());
  BodyId top = 0;
  for (int i = 0; i < 10; ++i)
    top = addBox(world, "b" + std::to_string(i), Vec3(0, 0, 0.25 + 0.5 * i), Vec3::Constant(0.5),
                 10.0);
  const Vec3 start = world.body(top).position;
  double worst = 0.0, positionIterations = 0.0;
  for (int i = 0; i < 6000; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    const Vec3 d = world.body(top).position - start;
    worst = std::max(worst, std::hypot(d.x(), d.y()));
    if (i >= 100) positionIterations += world.statistics().positionIterations / 5900.0;
  }
  EXPECT_LT(worst, 0.01);  // the issue's goal: the top box moves less than 1 cm in 60 s
  // At rest the boxes sink some 10 nm a step into the slop: within the position tolerance, so the
  // position pass looks once and stops (it ran all 6 sweeps for them before).
  EXPECT_LT(positionIterations, 2.0);
  EXPECT_NEAR(world.body(top).position.z(), start.z(), 0.01);  // and does not sink
  std::printf(
      "stack10 (%s floor): top box drift over 60 s %.3f mm, sank %.2f mm, %.2f position "
      "iterations a step at rest\n",
      GetParam() ? "mesh" : "plane", 1000 * worst,
      1000 * (start.z() - world.body(top).position.z()), positionIterations);
}

/// A 1000 kg cube on four 1 kg cubes (0.5 m, friction 0.8) left to rest for 3 s.
struct HeavyStack {
  double iterations = 0.0;  ///< velocity iterations a step
  int stalledSteps = 0;     ///< steps whose iterations stopped in a slow mode
  double floorImpulse = 0.0, weightImpulse = 0.0;  ///< the floor's last impulse; M g dt (N s)
  double creep = 0.0, sink = 0.0;                  ///< the top box's travel (m)
};

/// Five 0.5 m boxes, the top one 1000 kg, 300 steps on the floor - or on a kinematic conveyor
/// moving at `conveyorSpeed` (m/s) along x: a stack that moves is searched for points anew every
/// step (CollisionWorld keeps a still pair's), as a load carried on a robot is.
HeavyStack restHeavyStack(double stallVelocity, double conveyorSpeed = 0.0) {
  World world;
  world.settings().sleep.enabled = false;  // the solver holding it at rest is under test
  world.settings().solver.stallVelocity = stallVelocity;
  BodyId floor = World::kGround;
  if (conveyorSpeed > 0.0) {
    RigidBodyDesc belt;
    belt.name = "conveyor";
    belt.type = BodyType::Kinematic;
    belt.position = Vec3(0, 0, -0.1);
    belt.linearVelocity = Vec3(conveyorSpeed, 0, 0);
    floor = world.addBody(belt);
    ShapeDesc slab;
    slab.type = ShapeType::Box;
    slab.size = Vec3(20, 20, 0.2);
    world.addShape(floor, slab);
  } else {
    addFloor(world, false);
  }
  double totalMass = 0.0;
  BodyId top = 0;
  for (int i = 0; i < 5; ++i) {
    const double mass = i == 4 ? 1000.0 : 1.0;
    top = addBox(world, "b" + std::to_string(i), Vec3(0, 0, 0.25 + 0.5 * i), Vec3::Constant(0.5),
                 mass);
    totalMass += mass;
  }
  const Vec3 start = world.body(top).position, floorStart = world.body(floor).position;
  HeavyStack result;
  for (int i = 0; i < 300; ++i) {
    EXPECT_TRUE(world.step(kDt).ok);
    result.iterations += world.statistics().velocityIterations / 300.0;
    result.stalledSteps += world.statistics().stalled ? 1 : 0;
  }
  for (const ContactPoint& c : world.contacts())
    if (c.bodyA == floor || c.bodyB == floor) result.floorImpulse += c.normalImpulse;
  result.weightImpulse = totalMass * kG * kDt;
  const Vec3 travel = world.body(top).position - start - (world.body(floor).position - floorStart);
  result.creep = travel.head<2>().norm();
  result.sink = -travel.z();
  return result;
}

TEST(Contact, HeavyBoxOnLightBoxesIsCarriedExactly) {
  // A mass ratio of 1000 that the sweep, seeing two boxes at a time, converges on only slowly.
  // Resting faces push with equal targets, so each manifold joins the exact tree solve, which
  // carries the weight (statics: the floor's impulse per step is the total weight times dt,
  // 1004 g dt), and the stack stays put.
  const HeavyStack stack = restHeavyStack(WorldSettings{}.solver.stallVelocity);
  EXPECT_NEAR(stack.floorImpulse, stack.weightImpulse, 1e-6 * stack.weightImpulse);  // N s
  // Swept (the manifolds kept out of the tree) the stack falls over: the top box ends 2 m away.
  // Here it sinks 0.91 mm (five faces settling into their slop under 1000 kg) and creeps 1 um in
  // 3 s: once it holds still its points are kept, not found anew each step (CollisionWorld), so
  // the warm start is the answer and one iteration a step confirms it. Searched anew every step
  // the points moved by rounding, the sweeps ran to their cap and it crept 0.47 mm.
  EXPECT_LT(stack.creep, 1e-5);  // m
  EXPECT_LT(stack.sink, 1e-3);   // m
  std::printf(
      "heavy box on light boxes: %.1f velocity iterations a step, creep %.4f mm, sink %.3f mm\n",
      stack.iterations, 1000 * stack.creep, 1000 * stack.sink);
}

TEST(Contact, AStackAtRestResumesBitForBitFromASavedState) {
  // A resting stack keeps its points without a search (CollisionWorld: both bodies held still at
  // the end of the last step); which bodies held still must follow from the saved state, or a
  // world loaded from it searches anew, finds its points a rounding apart and steps elsewhere.
  const auto build = [](World& world) {
    world.settings().sleep.enabled = false;
    addFloor(world, false);
    for (int i = 0; i < 5; ++i)  // the heavy stack: its light boxes settle for a while
      addBox(world, "b" + std::to_string(i), Vec3(0.01 * i, 0, 0.25 + 0.5 * i), Vec3::Constant(0.5),
             i == 4 ? 1000.0 : 1.0);
  };
  const auto [diverged, checked] = divergedResumes(build, 160, 20, 20, 30, kDt);
  EXPECT_EQ(diverged, 0) << "of " << checked;
}

TEST(Contact, SlowModeStopsWhenTheIterationsLeftWouldNotHalveIt) {
  // The heavy stack's light boxes trade impulses with the tree's manifolds, each iteration taking
  // a few per cent off the error: the iterations stop there (SolverSettings::stallVelocity)
  // instead of running to the cap, and the warm start carries the rest into the next step. The
  // stack rides a conveyor at 1 cm/s: its points are found anew every step (measured: 16.5
  // iterations a step against 20, the top box 1.6 mm off where it started on the belt against
  // 1.4 mm).
  // On a conveyor at 1 cm/s: at rest on the floor the stack's points are found once and kept,
  // and the warm start holds it in one iteration a step.
  const HeavyStack stopping = restHeavyStack(WorldSettings{}.solver.stallVelocity, 0.01);
  const HeavyStack iterating = restHeavyStack(0.0, 0.01);
  EXPECT_GT(stopping.stalledSteps, 30);
  EXPECT_EQ(iterating.stalledSteps, 0);
  EXPECT_LT(stopping.iterations, 0.9 * iterating.iterations);
  // Statics hold exactly either way, and the stack stays within what the cap leaves.
  EXPECT_NEAR(stopping.floorImpulse, stopping.weightImpulse, 1e-6 * stopping.weightImpulse);
  EXPECT_LT(stopping.creep, 2.0 * iterating.creep + 1e-4);
  EXPECT_NEAR(stopping.sink, iterating.sink, 1e-5);
  std::printf(
      "heavy stack: %.1f iterations a step (%d of 300 steps stalled), %.1f iterated to the "
      "cap; creep %.2f mm vs %.2f mm\n",
      stopping.iterations, stopping.stalledSteps, iterating.iterations, 1000 * stopping.creep,
      1000 * iterating.creep);
}

TEST(Contact, JointedPairOnTheFloorSticksAsOneBodyUntilCoulombLetsItSlide) {
  // A 0.5 kg block hung on a 20 kg block by a ball joint, both on the floor (mu = 0.5), pulled
  // away from the heavy one by F. The light block's own floor holds only mu m g = 2.5 N: below
  // mu (M + m) g = 100.5 N the joint must hand the rest to the heavy block's friction, and the
  // pair stays put; above it the pair slides at a = (F - mu (M + m) g) / (M + m). Sticking, the
  // friction pairs are solved exactly in the tree with the joint and the normal rows: one
  // iteration a step (swept beside the tree, as before, they took up to 15, the pair creeping
  // 50 nm a second).
  const double mu = 0.5, heavyMass = 20.0, lightMass = 0.5;
  const double holds = mu * (heavyMass + lightMass) * kG;  // N
  for (const double pull : {20.0, 60.0, 110.0}) {
    World world;
    world.settings().sleep.enabled = false;  // the solver holding it is under test
    // The rows' tree (an articulation sweeps its friction: ArticulationTest's jointed pair).
    world.settings().articulations = false;
    const int m = material(world, mu);
    addFloor(world, false, m);
    const BodyId heavy = addBox(world, "heavy", Vec3(0, 0, 0.1), Vec3(0.4, 0.4, 0.2), heavyMass, m);
    const BodyId light =
        addBox(world, "light", Vec3(0.26, 0, 0.1), Vec3(0.1, 0.1, 0.2), lightMass, m);
    world.addJoint<SphericalJoint>("ball", heavy, light, Vec3(0.205, 0, 0.1));
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(world.step(kDt).ok);  // settle onto the floor
    const Vec3 start = world.body(heavy).position;
    const double v0 = world.body(heavy).linearVelocity.x(), t0 = world.time();
    int mostIterations = 0;
    for (int i = 0; i < 100; ++i) {
      world.body(light).force = Vec3(pull, 0, 0);
      ASSERT_TRUE(world.step(kDt).ok);
      mostIterations = std::max(mostIterations, world.statistics().velocityIterations);
    }
    const double moved = (world.body(heavy).position - start).norm();
    if (pull < holds) {
      EXPECT_LT(moved, 1e-8) << pull << " N";  // m in 1 s
      EXPECT_EQ(mostIterations, 1) << pull << " N";
    } else {
      const double a = (pull - holds) / (heavyMass + lightMass);
      const double measured = (world.body(heavy).linearVelocity.x() - v0) / (world.time() - t0);
      EXPECT_NEAR(measured, a, 0.02 * a) << pull << " N";
      EXPECT_LT(std::abs(world.body(heavy).linearVelocity.y()), 1e-6);  // straight, no yaw
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PlaneAndMesh, ContactOnFloor, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Mesh" : "Plane"; });

TEST(Contact, RollingFrictionDeceleratesABallAtFiveSeventhsCgOverR) {
  // Rolling without slip against a resisting torque c N: (m + I/R^2) a = -c N / R, so for a solid
  // ball a = -5 c g / (7 R).
  World world;
  const double c = 0.002, r = 0.1;  // rolling arm (m)
  const int m = material(world, 0.8, 0.0, c);
  addFloor(world, false, m);
  const BodyId ball = addBall(world, Vec3(0, 0, r), r, m);
  const double v0 = 1.0;
  world.body(ball).linearVelocity = Vec3(v0, 0, 0);
  world.body(ball).setAngularVelocity(Vec3(0, v0 / r, 0));
  world.updateDerived();
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(world.step(kDt).ok);
  const double t0 = world.time(), vStart = world.body(ball).linearVelocity.x();
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(world.step(kDt).ok);
  const double a = (vStart - world.body(ball).linearVelocity.x()) / (world.time() - t0);
  const double expected = 5.0 * c * kG / (7.0 * r);
  EXPECT_NEAR(a, expected, 0.05 * expected);
}

TEST(Contact, SpinningFrictionStopsABallSpinningOnThePointItTouches) {
  // A ball spinning about the vertical touches at one point that does not slide, so only the
  // spinning friction torque c N = c m g acts: t_stop = I w0 / (c m g), I = 2/5 m r^2.
  // (A flat box would be stopped by ordinary Coulomb friction at its corners instead.)
  World world;
  const double c = 0.002, r = 0.1;
  const int m = material(world, 0.8, 0.0, 0.0, c);
  addFloor(world, false, m);
  const BodyId ball = addBall(world, Vec3(0, 0, r), r, m);
  const double w0 = 3.0;
  world.body(ball).setAngularVelocity(Vec3(0, 0, w0));
  world.updateDerived();
  const double tStop = 0.4 * r * r * w0 / (c * kG);
  double stoppedAt = -1.0;
  while (world.time() < 2 * tStop) {
    ASSERT_TRUE(world.step(kDt).ok);
    if (stoppedAt < 0 && std::abs(world.body(ball).angularVelocity.z()) < 1e-6)
      stoppedAt = world.time();
  }
  ASSERT_GT(stoppedAt, 0.0);
  EXPECT_NEAR(stoppedAt, tStop, 0.05 * tStop);
  EXPECT_LT(world.body(ball).position.head<2>().norm(), 1e-6);  // spins in place
}

TEST(Contact, TwentyBoxPyramidStandsForAMinute) {
  World world;
  world.settings().sleep.enabled = false;  // the solver holding it at rest is under test
  addFloor(world, false);
  std::vector<BodyId> boxes;
  std::vector<Vec3> start;
  const double size = 0.5, gap = 0.01;
  for (int row = 0, base = 6; row < 5; ++row, --base)  // 6 + 5 + 4 + 3 + 2 = 20
    for (int j = 0; j < base; ++j) {
      const Vec3 p((j - (base - 1) / 2.0) * (size + gap), 0, size / 2 + size * row);
      boxes.push_back(
          addBox(world, "b" + std::to_string(boxes.size()), p, Vec3::Constant(size), 10.0));
      start.push_back(p);
    }
  ASSERT_EQ(boxes.size(), 20u);
  for (int i = 0; i < 6000; ++i) ASSERT_TRUE(world.step(kDt).ok);
  double worst = 0.0;
  for (size_t k = 0; k < boxes.size(); ++k)
    worst = std::max(worst, (world.body(boxes[k]).position - start[k]).norm());
  EXPECT_LT(worst, 0.01);
  std::printf("pyramid20: worst box displacement after 60 s %.2f mm\n", 1000 * worst);
}

TEST(Contact, AJointedLinksFrictionKeptInItsConeKeepsTheJoint) {
  // A 0.25 kg link hinged to a 20 kg sled, its edge dragged over the floor at 2 m/s: the solves
  // often end with the link's friction, bounded by its normal as it stood when swept, past the
  // cone. Taken back with the link's own mass (with the manifold swept so), that broke the
  // hinge's velocity rows: the link turned at up to 0.29 rad/s about axes the hinge forbids (an
  // MF-4 jaw so dragged spun at 174 rad/s and its rail opened 30 mm). Taken back and settled
  // onto the joints, it turns about the hinge only (6e-5 rad/s off it: the iterations' residue).
  World world;
  world.settings().articulations = false;  // the rows' tree, as a robot with motors steps
  world.settings().sleep.enabled = false;
  addFloor(world, false);
  const BodyId sled = addBox(world, "sled", Vec3(0, 0, 0.05), Vec3(0.4, 0.3, 0.1), 20.0);
  // Hanging from the sled's rear edge, tilted back 0.3 rad, its lower edge in the floor.
  const double tilt = 0.3, length = 0.12;
  const Vec3 pivot(-0.2, 0, 0.1);
  const Vec3 down(-std::sin(tilt), 0, -std::cos(tilt));
  const BodyId link = addBox(world, "link", pivot + 0.5 * length * down, Vec3(0.02, 0.1, length),
                             0.25, 0, Quat(Eigen::AngleAxisd(tilt, -Vec3::UnitY())));
  world.addJoint<RevoluteJoint>("hinge", sled, link, pivot, Vec3::UnitY());
  for (const BodyId b : {sled, link}) world.body(b).linearVelocity = Vec3(2.0, 0, 0);
  world.updateDerived();
  double worstSpin = 0.0;
  int touching = 0;
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    const Vec3 relative = world.body(link).angularVelocity - world.body(sled).angularVelocity;
    worstSpin = std::max(worstSpin, std::hypot(relative.x(), relative.z()));  // the hinge is y
    for (const ContactPoint& c : world.contacts())
      if ((c.bodyA == link || c.bodyB == link) && c.normalImpulse > 0.0) ++touching;
  }
  EXPECT_GT(touching, 50);
  EXPECT_LT(worstSpin, 1e-3);
}

TEST(Contact, JointedBodiesDoNotCollideUnlessAsked) {
  World world;
  world.settings().gravity.setZero();
  const BodyId a = addBox(world, "a", Vec3(0, 0, 1), Vec3::Constant(0.5), 1.0);
  const BodyId b = addBox(world, "b", Vec3(0.45, 0, 1), Vec3::Constant(0.5), 1.0);  // overlapping
  world.addJoint<RevoluteJoint>("hinge", a, b, Vec3(0.2, 0, 1), Vec3::UnitY());
  ASSERT_TRUE(world.step(kDt).ok);
  EXPECT_TRUE(world.contacts().empty());
  world.setCollision(a, b, true);
  ASSERT_TRUE(world.step(kDt).ok);
  EXPECT_FALSE(world.contacts().empty());
}

TEST(Contact, BadShapesAreRejectedWithTheBodyNamed) {
  World world;
  const BodyId box = addBox(world, "crate", Vec3(0, 0, 1), Vec3::Constant(0.5), 1.0);
  ShapeDesc plane;
  plane.type = ShapeType::Plane;
  try {
    world.addShape(box, plane);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("crate"), std::string::npos) << e.what();
  }
  ShapeDesc zero;
  zero.type = ShapeType::Box;
  zero.size = Vec3(0.1, 0, 0.1);
  EXPECT_THROW(world.addShape(box, zero), std::invalid_argument);
  EXPECT_THROW(world.materials().add({"bad", -1.0, 0.0, 0.0, 0.0, {}}), std::invalid_argument);
}

}  // namespace
}  // namespace impetus

namespace impetus {
namespace {

// A kept point is refreshed along its old normal, which says nothing of surfaces that have slid
// apart sideways. A plate slides off the edge of a slab, both links of mechanisms (whose kept
// points may drift 5 cm), both turned 45 degrees about the vertical so that their bounding boxes
// still overlap: 2 cm past the edge the exact colliders find them apart, and no point may still
// claim contact (the MF-4's wrist plate, slid past a door's edge, pushed on it for 2 s).
TEST(ContactPersistence, APlateSlidOffASlabsEdgeKeepsNoPointOfItsFormerContact) {
  LoadedScene s = loadSceneText(R"(<scene>
    <world gravity="0 0 0"/>
    <material name="slick" friction="0"/>
    <body name="slab" pos="0 0 0.9" quat="0.92388 0 0 0.382683" mass="10">
      <geom type="box" size="0.4 0.4 0.2" material="slick"/>
      <joint name="rail" type="prismatic" axis="1 0 0"/>
    </body>
    <body name="plate" pos="-0.106066 0.106066 1.01" quat="0.92388 0 0 0.382683" mass="1">
      <geom type="box" size="0.1 0.1 0.02" material="slick"/>
      <joint name="slide" type="prismatic" axis="0 1 0"/>
    </body>
  </scene>)",
                                "slab.xml");
  World& world = *s.world;
  const BodyId slab = world.findBody("slab"), plate = world.findBody("plate");
  const auto pairPoints = [&](double closerThan) {
    int n = 0;
    for (const ContactPoint& c : world.contacts())
      if (((c.bodyA == slab && c.bodyB == plate) || (c.bodyA == plate && c.bodyB == slab)) &&
          c.separation < closerThan)
        ++n;
    return n;
  };
  ASSERT_TRUE(world.step(0.01).ok);
  ASSERT_GT(pairPoints(0.001), 0);                       // lying on the slab
  const Vec3 across = world.body(slab).rotation.col(1);  // the slab's y: off its edge
  world.body(plate).linearVelocity = 0.2 * across;
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(world.step(0.01).ok);
  EXPECT_NEAR(world.body(plate).position.dot(across) - 0.05 - 0.2, 0.02, 0.001);  // 2 cm past
  EXPECT_EQ(pairPoints(0.005), 0);
}

// Two points found in one step within the 5 cm a mechanism's manifold merges: the deeper must
// stand. A jaw pressed onto the end of a short tube (a wheel's rim of straight capsules meets
// the jaw at a seam) finds the end under its face and, 26 mm on, the tube's far end off its edge,
// 9 mm away along a tilted normal; kept instead of the near end, that point let the jaw sink
// through the tube.
TEST(ContactPersistence, AJawOnATubesEndRestsOnItNotOnItsFarEnd) {
  LoadedScene s = loadSceneText(R"(<scene>
    <world gravity="0 0 -9.81"/>
    <body name="tube" pos="0 0.013 1" mass="1" inertia="0.001 0.001 0.001">
      <geom type="capsule" radius="0.015" length="0.026" quat="0.707107 -0.707107 0 0"/>
      <joint name="spin" type="revolute" axis="0 1 0"/>
    </body>
    <body name="jaw" pos="0 0 1.0235" mass="1">
      <geom type="box" size="0.015 0.015 0.015"/>
      <joint name="slide" type="prismatic" axis="0 0 1"/>
    </body>
  </scene>)",
                                "tube.xml");
  World& world = *s.world;
  const BodyId jaw = world.findBody("jaw");
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(world.step(0.01).ok);
  // Resting on the tube's top: its face at the tube's 15 mm radius above the axis.
  EXPECT_NEAR(world.body(jaw).position.z(), 1.0 + 0.015 + 0.0075, 0.001);
}

// A 45 kg box pushed backwards into a bin's corner, where the bin's overlapping walls give the
// box's edge several points on one line (dependent normal rows), over a grid of approaches. With
// restitution each point's bounce shift differed with its gap and the position pass's block
// pushed and pulled a million N s against itself: the box jumped up to 12 cm in a step (the
// MF-4 reversing into mf4-container.xml's bin had its turret torn off). Travel per step is at
// most the 1 m/s approach times the step, and no speed exceeds the approach.
TEST(Contact, ABoxDrivenIntoABinsCornerNeverJumps) {
  int runs = 0;
  for (int iy = 0; iy < 9; ++iy)
    for (int yawStep = 0; yawStep < 9; ++yawStep)
      for (const double speed : {0.4, 0.7, 1.0}) {
        const double y = 0.09 + 0.06 * iy, yaw = -0.4 + 0.1 * yawStep;
        // 1 cm clear of the bin's outer wall face (x = 0.87 m) at the box's nearest corner.
        const double x = 0.88 + 0.35 * std::cos(yaw) + 0.18 * std::sin(std::abs(yaw));
        std::ostringstream xml;
        xml << R"(<scene><material name="steel" friction="0.4" restitution="0.2"/>
          <material name="plastic" friction="0.6" restitution="0.2"/>
          <body name="ground" fixed="true"><geom type="plane" material="steel"/></body>
          <body name="bin" pos="0.75 0.33 0" fixed="true">
            <geom type="box" size="0.24 0.24 0.02" pos="0 0 0.01" material="plastic"/>
            <geom type="box" size="0.02 0.24 0.12" pos="0.11 0 0.06" material="plastic"/>
            <geom type="box" size="0.02 0.24 0.12" pos="-0.11 0 0.06" material="plastic"/>
            <geom type="box" size="0.2 0.02 0.12" pos="0 0.11 0.06" material="plastic"/>
            <geom type="box" size="0.2 0.02 0.12" pos="0 -0.11 0.06" material="plastic"/>
          </body>
          <body name="box" pos=")"
            << x << ' ' << y << " 0.0801\" quat=\"" << std::cos(yaw / 2) << " 0 0 "
            << std::sin(yaw / 2) << "\" velocity=\"" << -speed << R"( 0 0" mass="45">
            <geom type="box" size="0.7 0.36 0.16" material="steel"/>
          </body></scene>)";
        LoadedScene scene = loadSceneText(xml.str(), "bin.xml");
        World& world = *scene.world;
        const BodyId box = world.findBody("box");
        Vec3 last = world.body(box).position;
        double farthest = 0.0, fastest = 0.0;
        for (int i = 0; i < 100; ++i) {
          world.body(box).force = Vec3(-90.0 * speed, 0, 0);  // kept pushing, as tracks would
          ASSERT_TRUE(world.step(kDt).ok);
          farthest = std::max(farthest, (world.body(box).position - last).norm());
          fastest = std::max(fastest, world.body(box).linearVelocity.norm());
          last = world.body(box).position;
        }
        EXPECT_LT(farthest, 1.0 * kDt + 1e-3) << "y " << y << ", yaw " << yaw << ", " << speed;
        EXPECT_LT(fastest, 1.0 + 1e-3) << "y " << y << ", yaw " << yaw << ", " << speed;
        ++runs;
      }
  EXPECT_EQ(runs, 243);
}

}  // namespace
}  // namespace impetus
