// Joint types, limits, reactions and failure reporting.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "impetus/dynamics/world.h"
#include "impetus/joints/cylindrical_joint.h"
#include "impetus/joints/fixed_joint.h"
#include "impetus/joints/prismatic_joint.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/joints/spherical_joint.h"
#include "impetus/joints/universal_joint.h"
#include "impetus/scenes/closed_loop.h"
#include "impetus/scenes/hinge_chain.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;
constexpr double kG = 9.81;

/// A uniform box of `mass` (kg) and `size` (m) centred at `position`.
BodyId addBlock(World& world, const std::string& name, double mass, const Vec3& size,
                const Vec3& position) {
  RigidBodyDesc d;
  d.name = name;
  d.mass = mass;
  d.inertia = scenes::boxInertia(mass, size);
  d.position = position;
  return world.addBody(d);
}

/// A 1 kg, 0.4 m bar with its left end at the origin, along +x.
BodyId addBar(World& world, const std::string& name = "bar") {
  return addBlock(world, name, 1.0, Vec3(0.4, 0.04, 0.04), Vec3(0.2, 0, 0));
}

TEST(JointLimits, RevoluteLimitHoldsTenTimesTheWeight) {
  World world;
  const BodyId bar = addBar(world);
  auto& hinge =
      world.addJoint<RevoluteJoint>("hinge", World::kGround, bar, Vec3::Zero(), Vec3::UnitY());
  hinge.limit = {true, -0.3, 0.3};
  // Gravity turns the bar about +y (tip down = positive angle) onto the upper limit; a tip load
  // of ten times its weight presses it there.
  for (int i = 0; i < 300; ++i) {
    world.body(bar).force = Vec3(0, 0, -10 * kG);
    const Vec3 tip = world.body(bar).toWorld(Vec3(0.2, 0, 0));
    world.body(bar).torque = (tip - world.body(bar).position).cross(Vec3(0, 0, -10 * kG));
    ASSERT_TRUE(world.step(kDt).ok);
    if (world.time() > 0.5) {
      ASSERT_LT(hinge.position() - 0.3, 0.01) << world.time();
    }
  }
  EXPECT_NEAR(hinge.position(), 0.3, 0.01);
  EXPECT_LT(world.largestAnchorSeparation(), 1e-3);
}

TEST(JointLimits, PrismaticLimitHoldsTenTimesTheWeight) {
  World world;
  const BodyId carriage = addBlock(world, "carriage", 5.0, Vec3::Constant(0.2), Vec3(0, 0, 1));
  auto& slider = world.addJoint<PrismaticJoint>("lift", World::kGround, carriage, Vec3(0, 0, 1),
                                                Vec3::UnitZ());
  slider.limit = {true, -0.25, 0.25};
  for (int i = 0; i < 300; ++i) {
    world.body(carriage).force = Vec3(0, 0, -10 * 5.0 * kG);
    ASSERT_TRUE(world.step(kDt).ok);
  }
  EXPECT_NEAR(slider.position(), -0.25, 1e-3);
  // The limit carries weight + load: 11 m g, read out as the generalised reaction (unit: N).
  EXPECT_NEAR(slider.generalizedForce(), 11 * 5.0 * kG, 0.01 * 11 * 5.0 * kG);
}

TEST(JointLimits, StopsOfALightLinkCarryAHeavyLoadExactly) {
  // A 0.1 kg, 0.4 m bar hinged at the origin (axis y) carries a 10 kg, 0.2 m cube hinged at its
  // tip; both hinges rest on their upper stops (0: horizontal) under gravity. Statics: the cube's
  // stop carries 10 g * 0.1 = 9.81 N m, the bar's 0.1 g * 0.2 + 10 g * 0.5 = 49.2462 N m. The
  // stops join their hinges in the exact tree solve, so each step is exact in one solve (a second
  // confirms it) even though the bar is 100 times lighter than its load - swept with the bar's
  // own mass, these stops need hundreds of iterations.
  World world;
  const BodyId bar = addBlock(world, "bar", 0.1, Vec3(0.4, 0.04, 0.04), Vec3(0.2, 0, 0));
  const BodyId load = addBlock(world, "load", 10.0, Vec3::Constant(0.2), Vec3(0.5, 0, 0));
  auto& shoulder =
      world.addJoint<RevoluteJoint>("shoulder", World::kGround, bar, Vec3::Zero(), Vec3::UnitY());
  auto& wrist = world.addJoint<RevoluteJoint>("wrist", bar, load, Vec3(0.4, 0, 0), Vec3::UnitY());
  shoulder.limit = {true, -0.5, 0.0};
  wrist.limit = {true, -0.5, 0.0};
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    if (i >= 10) {
      ASSERT_LE(world.statistics().velocityIterations, 2) << "step " << i;
    }
  }
  EXPECT_NEAR(wrist.limitForce(), -10 * kG * 0.1, 1e-6 * 10 * kG * 0.1);
  EXPECT_NEAR(shoulder.limitForce(), -(0.1 * kG * 0.2 + 10 * kG * 0.5), 1e-6 * 49.2462);
  EXPECT_NEAR(shoulder.position(), 0.0, 1e-6);  // rad
  EXPECT_NEAR(wrist.position(), 0.0, 1e-6);
}

TEST(JointReaction, HangingBodyReadsItsWeightAndCantileverItsMoment) {
  World world;
  const BodyId bar = addBar(world);
  auto& weld = world.addJoint<FixedJoint>("weld", World::kGround, bar, Vec3::Zero(), Vec3::UnitX());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(world.step(kDt).ok);
  // The wall holds the 1 kg cantilever up (force +m g) and against its moment m g L/2 about -y
  // (in the joint frame, which here is the world frame).
  EXPECT_NEAR(weld.reactionForce().z(), kG, 1e-6);
  EXPECT_NEAR(weld.reactionTorque().y(), -kG * 0.2, 1e-6);
  EXPECT_LT(world.largestAnchorSeparation(), 1e-6);
  EXPECT_LT((world.body(bar).position - Vec3(0.2, 0, 0)).norm(), 1e-5);
}

/// The largest error a joint's position rows ask to remove: equalities either way, one-sided
/// rows (limits) only when violated (their target is then positive), as World's position pass
/// reads them.
double largestRowError(const RowBuffer& rows, double dt) {
  double largest = 0.0;
  for (const ConstraintRow& r : rows.rows())
    largest = std::max(largest, r.lower == 0.0 ? r.target * dt : std::abs(r.target) * dt);
  return largest;
}

TEST(JointErrors, MeasuredWithoutRowsAsTheRowsAskToRemove) {
  // The position pass skips building rows when the joints measure their errors within the
  // tolerance: the measure must be what the rows would say, for every error a joint can have.
  World world;
  const BodyId bar = addBar(world);
  const BodyId ball = addBar(world, "ball");
  auto& hinge =
      world.addJoint<RevoluteJoint>("hinge", World::kGround, bar, Vec3::Zero(), Vec3::UnitY());
  hinge.limit = {true, -0.3, 0.3};
  auto& socket = world.addJoint<SphericalJoint>("socket", World::kGround, ball, Vec3::Zero());
  JointBuildContext ctx;
  ctx.bodies = world.bodies();
  ctx.positionPhase = true;
  ctx.correctionFactor = 0.8;
  ctx.maxCorrectionSpeed = std::numeric_limits<double>::infinity();
  RowBuffer rows;
  struct Case {
    Vec3 offset;  // of the bar's centre (m)
    Vec3 turn;    // rotation vector (rad)
  };
  // A gap, an axis tilt about x and about z, and a turn about the hinge 0.1 rad past its stop.
  for (const Case& c :
       {Case{Vec3(2e-3, -1e-3, 5e-4), Vec3::Zero()}, Case{Vec3::Zero(), Vec3(0.02, 0, 0)},
        Case{Vec3::Zero(), Vec3(0, 0, -0.03)}, Case{Vec3::Zero(), Vec3(0, 0.4, 0)}}) {
    for (BodyId id : {bar, ball}) {
      RigidBody& b = world.body(id);
      b.orientation = rotationFromVector(c.turn);
      b.position = b.orientation * Vec3(0.2, 0, 0) + c.offset;
      b.updateDerived();
    }
    for (Joint* joint : {static_cast<Joint*>(&hinge), static_cast<Joint*>(&socket)}) {
      rows.clear();
      joint->buildPositionRows(ctx, rows);
      const double fromRows = largestRowError(rows, ctx.dt);
      // Every case is an error of the hinge's (a turn is none of the socket's).
      if (joint == &hinge || c.turn == Vec3::Zero()) {
        EXPECT_GT(fromRows, 1e-4) << joint->name();
      }
      EXPECT_NEAR(joint->positionError(ctx), fromRows, 1e-15 + 1e-12 * fromRows) << joint->name();
    }
  }
}

TEST(JointTypes, UniversalTransmitsTwistButBendsFreely) {
  // A shaft on a universal joint at the origin (cross axes x on the parent, y on the child),
  // driven by a spinning parent about z: the child follows the twist but may tilt.
  World world;
  world.settings().gravity.setZero();
  RigidBodyDesc d;
  d.inertia = scenes::boxInertia(1.0, Vec3(0.1, 0.1, 0.4));
  d.name = "driver";
  d.type = BodyType::Kinematic;
  d.position = Vec3(0, 0, -0.2);
  d.angularVelocity = Vec3(0, 0, 2.0);
  const BodyId driver = world.addBody(d);
  d.name = "shaft";
  d.type = BodyType::Dynamic;
  d.position = Vec3(0, 0, 0.2);
  d.angularVelocity = Vec3(0, 0, 2.0);
  const BodyId shaft = world.addBody(d);
  world.addJoint<UniversalJoint>("cardan", driver, shaft, Vec3::Zero(), Vec3::UnitX());
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(world.step(kDt).ok);
  EXPECT_NEAR(world.body(shaft).angularVelocity.z(), 2.0, 1e-3);
  EXPECT_LT(world.largestAnchorSeparation(), 1e-4);
}

TEST(JointTypes, CylindricalSlidesAndTurnsButHoldsTheRest) {
  World world;  // gravity pulls a horizontal sleeve sideways off the axis: the joint holds it
  RigidBodyDesc d;
  d.name = "sleeve";
  d.inertia = scenes::boxInertia(1.0, Vec3(0.3, 0.1, 0.1));
  d.linearVelocity = Vec3(0.5, 0, 0);
  d.angularVelocity = Vec3(3.0, 0, 0);
  const BodyId sleeve = world.addBody(d);
  auto& joint = world.addJoint<CylindricalJoint>("sleeve", World::kGround, sleeve, Vec3::Zero(),
                                                 Vec3::UnitX());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(world.step(kDt).ok);
  EXPECT_NEAR(joint.position(), 0.5, 1e-6);
  EXPECT_NEAR(world.body(sleeve).angularVelocity.x(), 3.0, 1e-6);
  EXPECT_LT(std::abs(world.body(sleeve).position.z()), 1e-6);
}

TEST(JointTypes, SphericalPendulumConservesEnergyWithoutFriction) {
  World world;
  const BodyId bar = addBar(world);
  world.body(bar).linearVelocity = Vec3(0, 1.0, 0);  // swing out of the plane
  world.body(bar).setAngularVelocity(Vec3(0, 0, 1.0 / 0.2));
  world.updateDerived();
  world.addJoint<SphericalJoint>("ball", World::kGround, bar, Vec3::Zero());
  const double e0 = world.kineticEnergy() + world.potentialEnergy();
  double highest = e0;
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    highest = std::max(highest, world.kineticEnergy() + world.potentialEnergy());
  }
  EXPECT_LT(highest - e0, 0.005 * kG * 0.2);
  EXPECT_LT(world.largestAnchorSeparation(), 1e-4);
}

TEST(World, NonFiniteStateStopsCleanlyAndNamesTheBody) {
  World world;
  const BodyId bar = addBar(world, "gripper_jaw");
  world.addJoint<RevoluteJoint>("hinge", World::kGround, bar, Vec3::Zero(), Vec3::UnitY());
  world.body(bar).force = Vec3(std::numeric_limits<double>::quiet_NaN(), 0, 0);
  const StepStatus status = world.step(kDt);
  EXPECT_FALSE(status.ok);
  EXPECT_NE(status.message.find("gripper_jaw"), std::string::npos) << status.message;
  EXPECT_TRUE(world.failed());
  EXPECT_FALSE(world.step(kDt).ok);  // stays stopped
}

TEST(World, RejectsNonPhysicalBodiesAndJoints) {
  World world;
  RigidBodyDesc d;
  d.name = "bad";
  d.mass = -1.0;
  EXPECT_THROW(world.addBody(d), std::invalid_argument);
  d.mass = 1.0;
  d.inertia = Vec3(1.0, 0.1, 0.1).asDiagonal();  // 0.1 + 0.1 < 1: violates the triangle inequality
  EXPECT_THROW(world.addBody(d), std::invalid_argument);
  const BodyId bar = addBar(world);
  EXPECT_THROW(world.addJoint<RevoluteJoint>("h", World::kGround, bar, Vec3::Zero(), Vec3::Zero()),
               std::invalid_argument);
  EXPECT_THROW(world.addJoint<RevoluteJoint>("h", bar, bar, Vec3::Zero(), Vec3::UnitY()),
               std::invalid_argument);
  EXPECT_FALSE(world.step(-0.01).ok);
}

}  // namespace
}  // namespace impetus

namespace impetus {
namespace {

TEST(ClosedLoops, FiftyLinkRingHungFromTwoPinsStaysClosed) {
  World world;
  scenes::buildHingeRing(world, 50);
  ASSERT_LT(world.largestAnchorSeparation(), 1e-12);  // assembled closed
  double peak = 0.0;
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(world.step(0.01).ok);
    peak = std::max(peak, world.largestAnchorSeparation());
  }
  EXPECT_LT(peak, 0.01);  // measured 4.1 mm in the first swing (8.4 before one pin joined the
                          // exact tree solve as its root), the chain30 bound
  EXPECT_LT(world.largestAnchorSeparation(), 1e-3);     // settled
  EXPECT_LT(world.kineticEnergy(), 50.0 * 9.81 * 0.5);  // bounded by the potential it can lose
  std::printf("ring50: peak gap %.2f mm, gap at 5 s %.3f mm\n", 1000 * peak,
              1000 * world.largestAnchorSeparation());
}

}  // namespace
}  // namespace impetus
