// The scheme's `ik` block: Cartesian teleoperation of a motorised arm through the tree's inverse
// kinematics, every 10 ms step — "move the gripper 5 cm forward" and "keep the hand on a valve
// rim" — with PID position loops driving the DC gearmotors.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "block_desc.h"
#include "impetus/dynamics/world.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/scenes/hinge_chain.h"
#include "impetus/scheme/scheme.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;

using testing::block;

/// A 3-DOF arm (waist yaw, shoulder and elbow pitch; 0.4 + 0.35 m links) on 50 N m gearmotors,
/// each joint in a PID position loop on the ik block's setpoints; the hand point is the forearm's
/// tip. Channels: target.x, target.y, target.z.
struct TeleoperatedArm {
  World world;
  BodyId forearm = -1;  // before `scheme`: build() sets it
  const Vec3 handInForearm{0.175, 0, 0};
  Scheme scheme;

  explicit TeleoperatedArm(const std::string& mode) : scheme(build(mode)) {}

  Scheme build(const std::string& mode) {
    const auto link = [&](const char* name, double mass, const Vec3& size, const Vec3& centre,
                          const Quat& orientation) {
      RigidBodyDesc d;
      d.name = name;
      d.mass = mass;
      d.inertia = scenes::boxInertia(mass, size);
      d.position = centre;
      d.orientation = orientation;
      return world.addBody(d);
    };
    // Assembled bent, away from the stretched-out singularity: the upper arm rises 30 degrees,
    // the forearm falls 30 degrees.
    const double tilt = std::numbers::pi / 6;
    const Vec3 shoulder(0, 0, 0.4);
    const Vec3 upperDir(std::cos(tilt), 0, std::sin(tilt)),
        foreDir(std::cos(tilt), 0, -std::sin(tilt));
    const Vec3 elbow = shoulder + 0.4 * upperDir;
    const BodyId turret =
        link("turret", 3.0, Vec3(0.15, 0.15, 0.1), Vec3(0, 0, 0.35), Quat::Identity());
    const BodyId upper = link("upper", 1.5, Vec3(0.4, 0.05, 0.05), shoulder + 0.2 * upperDir,
                              Quat(Eigen::AngleAxisd(tilt, -Vec3::UnitY())));
    forearm = link("forearm", 1.0, Vec3(0.35, 0.04, 0.04), elbow + 0.175 * foreDir,
                   Quat(Eigen::AngleAxisd(tilt, Vec3::UnitY())));
    Joint* joints[] = {
        &world.addJoint<RevoluteJoint>("waist", World::kGround, turret, Vec3(0, 0, 0.3),
                                       Vec3::UnitZ()),
        &world.addJoint<RevoluteJoint>("shoulder", turret, upper, shoulder, -Vec3::UnitY()),
        &world.addJoint<RevoluteJoint>("elbow", upper, forearm, elbow, -Vec3::UnitY())};
    DcMotorParams motor;
    motor.stallTorque = 0.5;  // rotor side (N m); x100 gear = 50 N m at the joint
    motor.noLoadSpeed = 500;  // rad/s; 5 rad/s at the joint
    motor.timeConstant = 0.02;
    motor.gearRatio = 100;
    SchemeDesc desc;
    desc.blocks = {block("input", "tx", {{"channel", "target.x"}}),
                   block("input", "ty", {{"channel", "target.y"}}),
                   block("input", "tz", {{"channel", "target.z"}}),
                   block("ik", "ik", {{"tip", "forearm"}, {"point", "0.175 0 0"}, {"mode", mode}},
                         {{"x", "tx"}, {"y", "ty"}, {"z", "tz"}})};
    for (Joint* j : joints) {
      const std::string n = j->name();
      world.addMotor(n, *j, motor);
      desc.blocks.push_back(block("sensor", n + "_q", {{"probe", "joint." + n + ".position"}}));
      desc.blocks.push_back(block("pid", n + "_pid",
                                  {{"kp", "20"}, {"ki", "40"}, {"kd", "0.5"}, {"filter", "0.02"}},
                                  {{"setpoint", "ik." + n}, {"measurement", n + "_q"}}));
      desc.blocks.push_back(block("motor", n + "_out", {{"motor", n}}, {{"in", n + "_pid"}}));
    }
    return Scheme::compile(desc, world, {"target.x", "target.y", "target.z"});
  }

  Vec3 hand() const { return world.body(forearm).toWorld(handInForearm); }
  void step(const Vec3& input) {
    const double channels[3] = {input.x(), input.y(), input.z()};
    scheme.step(channels, kDt);
    ASSERT_TRUE(world.step(kDt).ok);
  }
};

TEST(IkBlock, JogMovesTheGripperFiveCentimetresForward) {
  TeleoperatedArm arm("velocity");
  // Hold still while the loops settle under gravity.
  for (int k = 0; k < 100; ++k) arm.step(Vec3::Zero());
  const Vec3 start = arm.hand();
  // The operator pushes "forward" (+x) at 5 cm/s for one second, then lets go.
  for (int k = 0; k < 100; ++k) arm.step(Vec3(0.05, 0, 0));
  for (int k = 0; k < 150; ++k) arm.step(Vec3::Zero());
  const Vec3 moved = arm.hand() - start;
  RecordProperty("moved_mm", std::to_string(moved.x() * 1e3));
  EXPECT_NEAR(moved.x(), 0.05, 0.002);
  EXPECT_NEAR(moved.y(), 0.0, 0.002);
  EXPECT_NEAR(moved.z(), 0.0, 0.002);
  // Holding a jog far past the reach does not wind the target up: the hand comes straight back.
  for (int k = 0; k < 300; ++k) arm.step(Vec3(0.5, 0, 0));
  const Vec3 stretched = arm.hand();
  EXPECT_GT(stretched.x(), 0.7);
  // (Out of the stretched singularity the first centimetres are slow: x has no first-order lever.)
  for (int k = 0; k < 100; ++k) arm.step(Vec3(-0.05, 0, 0));
  EXPECT_LT(arm.hand().x(), stretched.x() - 0.02);
}

TEST(IkBlock, HandFollowsAValveRim) {
  TeleoperatedArm arm("position");
  // A valve wheel of radius 0.1 m facing the arm at x = 0.55 m; the hand circles its rim once in
  // 12.6 s (0.5 rad/s), starting on the rim.
  const Vec3 centre(0.55, 0.0, 0.35);
  const double radius = 0.1, rate = 0.5;
  const auto rim = [&](double t) {
    return Vec3(centre.x(), centre.y() + radius * std::cos(rate * t),
                centre.z() + radius * std::sin(rate * t));
  };
  double worst = 0.0;
  for (int k = 0; k < 1400; ++k) {
    const double t = k * kDt;
    arm.step(rim(t));
    if (t > 1.5) worst = std::max(worst, (arm.hand() - rim(t + kDt)).norm());
  }
  RecordProperty("worst_rim_error_mm", std::to_string(worst * 1e3));
  EXPECT_LT(worst, 0.005);
}

TEST(IkBlock, BadParametersNameTheProblem) {
  World world;
  RigidBodyDesc d;
  d.name = "arm";
  const BodyId id = world.addBody(d);
  world.addJoint<RevoluteJoint>("j", World::kGround, id, Vec3::Zero(), Vec3::UnitZ());
  const auto compile = [&](std::map<std::string, std::string> params) {
    SchemeDesc desc;
    desc.blocks = {
        block("constant", "zero", {{"value", "0"}}),
        block("ik", "ik", std::move(params), {{"x", "zero"}, {"y", "zero"}, {"z", "zero"}})};
    return Scheme::compile(desc, world, {});
  };
  EXPECT_THROW(compile({{"tip", "nothing"}}), SchemeError);
  EXPECT_THROW(compile({{"tip", "arm"}, {"joints", "k"}}), SchemeError);
  EXPECT_THROW(compile({{"tip", "arm"}, {"mode", "fast"}}), SchemeError);
  EXPECT_THROW(compile({{"tip", "arm"}, {"point", "1 2"}}), SchemeError);
  EXPECT_NO_THROW(compile({{"tip", "arm"}}));
}

}  // namespace
}  // namespace impetus
