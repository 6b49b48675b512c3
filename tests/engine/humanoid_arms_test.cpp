// The humanoid's arms (scenes/humanoid.xml, issue "the humanoid's arms"): each hand steered in
// Cartesian space from the console while the robot keeps its balance, checked as the operator
// would: the hand's pose as the world has it, against targets the arm can reach.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "block_desc.h"
#include "impetus/probes/probe.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/scheme/scheme.h"
#include "impetus/session/session_recorder.h"
#include "impetus/session/simulation.h"
#include "impetus/tree/tree_from_world.h"
#include "replay_check.h"

namespace impetus {
namespace {

const std::string kScenes = IMPETUS_SCENES_DIR;

/// The grasp point between the jaws in the hand body's frame (robots/humanoid.xml, `point` of
/// the `hand` blocks).
const Vec3 kGraspPoint(0.0612836, 0.0, -0.051423);

struct Pose {
  Vec3 position = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();
};

/// A hand's grasp point and orientation in the pelvis frame, as the world's bodies have them.
Pose measuredHand(const World& world, const std::string& hand) {
  const RigidBody& pelvis = world.body(world.findBody("pelvis"));
  const RigidBody& h = world.body(world.findBody(hand));
  const Mat3 toRobot = pelvis.rotation.transpose();
  return {toRobot * (h.position + h.rotation * kGraspPoint - pelvis.position),
          toRobot * h.rotation};
}

/// The same pose at the robot's present state with the arm's joints moved to `angles`: a
/// target the arm can reach, by the scene's own kinematic tree.
Pose handAt(const World& world, const std::string& hand, const std::array<std::string, 7>& joints,
            const std::array<double, 7>& angles) {
  const tree::WorldTree wt = tree::treeFromWorld(world);
  tree::VectorX q, qd;
  tree::coordinatesFromWorld(wt, world, q, qd);
  for (size_t k = 0; k < 7; ++k) {
    int index = -1;
    for (int j = 0; j < world.jointCount(); ++j)
      if (world.joint(j).name() == joints[k]) index = j;
    q[wt.linkOfJoint(index)] = angles[k];
  }
  tree::TreeKinematics kinematics(wt.tree);
  kinematics.updatePositions(q);
  const auto bodyPose = [&](BodyId b) {
    const int link = wt.bodyLink[size_t(b)];
    const Mat3 rotation = kinematics.link(link).rotation * wt.bodyRotation[size_t(b)];
    return Pose{kinematics.pointPosition(link, wt.bodyOffset[size_t(b)]), rotation};
  };
  const Pose pelvis = bodyPose(world.findBody("pelvis"));
  const Pose h = bodyPose(world.findBody(hand));
  const Mat3 toRobot = pelvis.rotation.transpose();
  return {toRobot * (h.position + h.rotation * kGraspPoint - pelvis.position),
          toRobot * h.rotation};
}

size_t channel(const Simulation& sim, const std::string& name) {
  const auto channels = sim.scene().console.channels();
  const auto at = std::find(channels.begin(), channels.end(), name);
  EXPECT_NE(at, channels.end()) << name;
  return size_t(at - channels.begin());
}

TEST(HumanoidArms, EachHandReachesTwentyRandomTargetsStandingWithoutSlidingOrFalling) {
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  World& world = sim.world();
  const Probe state = resolveProbe(world, &*sim.scene().scheme, "scheme.gait.state");
  std::array<size_t, 6> stick{};
  const char* axes[] = {"hand.x", "hand.y", "hand.z", "hand.roll", "hand.pitch", "hand.yaw"};
  for (size_t k = 0; k < 6; ++k) stick[k] = channel(sim, axes[k]);
  const size_t select = channel(sim, "hand.select");
  const double topSpeed = 0.1, topTurn = 0.5;  // the hand blocks' defaults (m/s, rad/s)

  const BodyId feet[2] = {world.findBody("foot_l"), world.findBody("foot_r")};
  const Vec3 feet0[2] = {world.body(feet[0]).position, world.body(feet[1]).position};
  double slide = 0.0;
  const auto step = [&] {
    ASSERT_TRUE(sim.step().ok);
    ASSERT_EQ(state(), 0.0) << "standing at " << world.time() << " s";
    for (int f = 0; f < 2; ++f)
      slide = std::max(slide, (world.body(feet[f]).position - feet0[f]).head<2>().norm());
  };
  for (int i = 0; i < 100; ++i) step();  // settle on the soles

  std::mt19937 random(45);
  const auto uniform = [&](double a, double b) {
    return std::uniform_real_distribution<double>(a, b)(random);
  };
  double worstPosition = 0.0, worstAngle = 0.0, slowest = 0.0;
  for (int side = 0; side < 2; ++side) {
    const std::string sd = side == 0 ? "l" : "r";
    const double s = side == 0 ? 1.0 : -1.0;  // the right arm mirrors the left
    const std::array<std::string, 7> joints = {
        "shoulder_pitch_" + sd, "shoulder_roll_" + sd, "shoulder_yaw_" + sd, "elbow_" + sd,
        "forearm_roll_" + sd,   "wrist_pitch_" + sd,   "wrist_yaw_" + sd};
    sim.channels()[select] = side;
    for (int target = 0; target < 20; ++target) {
      // A reachable pose in front of the robot, on its own side, above the thighs.
      Pose goal;
      for (;;) {
        const std::array<double, 7> angles = {
            uniform(-1.5, -0.3), s * uniform(0.05, 0.5), uniform(-0.6, 0.6), uniform(-0.3, 0.8),
            uniform(-0.7, 0.7),  uniform(-0.7, 0.7),     uniform(-0.7, 0.7)};
        goal = handAt(world, "hand_" + sd, joints, angles);
        if (goal.position.x() > 0.25 && s * goal.position.y() > 0.05 && goal.position.z() > -0.05)
          break;
      }
      // The operator steers the hand at the target on the sticks (a proportional hand on them,
      // 3 1/s), lets go once it is there and checks it a moment later.
      double took = 0.0;
      const double start = world.time();
      for (int i = 0; i < 600; ++i) {
        const Pose hand = measuredHand(world, "hand_" + sd);
        const Vec3 moveBy = goal.position - hand.position;
        const Vec3 turnBy = rotationVector(Quat(goal.rotation * hand.rotation.transpose()));
        if (moveBy.norm() < 0.001 && turnBy.norm() < 0.005) break;
        for (int k = 0; k < 3; ++k) {
          sim.channels()[stick[size_t(k)]] = std::clamp(3.0 * moveBy[k] / topSpeed, -1.0, 1.0);
          sim.channels()[stick[size_t(k) + 3]] = std::clamp(3.0 * turnBy[k] / topTurn, -1.0, 1.0);
        }
        step();
        if (HasFatalFailure()) return;
        took = world.time() - start;
      }
      for (size_t k = 0; k < 6; ++k) sim.channels()[stick[k]] = 0.0;
      for (int i = 0; i < 50; ++i) {
        step();
        if (HasFatalFailure()) return;
      }
      const Pose hand = measuredHand(world, "hand_" + sd);
      const double positionError = (goal.position - hand.position).norm();
      const double angleError =
          rotationVector(Quat(goal.rotation * hand.rotation.transpose())).norm();
      EXPECT_LT(positionError, 0.005) << "hand " << sd << " target " << target;
      EXPECT_LT(angleError, 3.0 * M_PI / 180.0) << "hand " << sd << " target " << target;
      worstPosition = std::max(worstPosition, positionError);
      worstAngle = std::max(worstAngle, angleError);
      slowest = std::max(slowest, took);
    }
  }
  std::printf(
      "40 targets: worst %.2f mm, %.2f deg, slowest reached in %.1f s; soles slid %.3f mm\n",
      worstPosition * 1e3, worstAngle * 180.0 / M_PI, slowest, slide * 1e3);
  EXPECT_LT(slide, 0.001);
}

/// scenes/humanoid-wall.xml: the humanoid before a wall whose face is 0.40 m ahead of the pelvis.
LoadedScene robotBeforeAWall() {
  return loadScene(kScenes + "/humanoid-wall.xml");
}

struct Press {
  double meanForce = 0.0;   ///< the wall's push on the robot over the last 4 s (unit: N)
  double peakForce = 0.0;   ///< (unit: N)
  double pelvisBack = 0.0;  ///< how far the pelvis was pushed back, at most (unit: m)
  bool fell = false;
};

/// Steers the left hand forward at `stick` into the wall for 14 s, complying or not.
Press pressTheWall(double stick, bool comply) {
  Simulation sim(robotBeforeAWall());
  World& world = sim.world();
  const Probe state = resolveProbe(world, &*sim.scene().scheme, "scheme.gait.state");
  const BodyId wall = world.findBody("wall"), pelvis = world.findBody("pelvis");
  const double pelvisAtStart = world.body(pelvis).position.x();
  Press press;
  int samples = 0;
  for (int i = 0; i < 1500; ++i) {
    sim.channels()[channel(sim, "hand.x")] = i >= 100 ? stick : 0.0;
    sim.channels()[channel(sim, "hands.comply")] = comply ? 1.0 : 0.0;
    EXPECT_TRUE(sim.step().ok);
    double impulse = 0.0;  // the wall's normal impulse on the robot this step (N s)
    for (const ContactPoint& c : world.contacts())
      if (c.bodyA == wall || c.bodyB == wall) impulse += c.normalImpulse;
    const double force = impulse / 0.01;
    press.peakForce = std::max(press.peakForce, force);
    if (i >= 1100) {
      press.meanForce += force;
      ++samples;
    }
    press.fell = press.fell || state() == 3.0;
    press.pelvisBack = std::max(press.pelvisBack, pelvisAtStart - world.body(pelvis).position.x());
  }
  press.meanForce /= samples;
  return press;
}

TEST(HumanoidArms, EachHandsTargetInTheWorldIsWhereItsGraspPointStands) {
  // The overlay's target (BLOCK.world_x/y/z): the robot-frame target placed by the floating
  // base's pose now; standing still, it is the grasp point between the jaws.
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  World& world = sim.world();
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(sim.step().ok);
  for (const char* side : {"left", "right"}) {
    const std::string sd = std::string(side) == "left" ? "l" : "r";
    const Vec3 grasp = 0.5 * (world.body(world.findBody("jaw_a_" + sd)).position +
                              world.body(world.findBody("jaw_b_" + sd)).position);
    Vec3 target;
    for (int k = 0; k < 3; ++k)
      target[k] = resolveProbe(world, &*sim.scene().scheme,
                               std::string("scheme.hand_") + side + ".world_" + "xyz"[k])();
    EXPECT_LT((target - grasp).norm(), 0.003) << side;
  }
}

TEST(HumanoidArms, AComplyingHandPressesAWallWithTheForceItsStickCommands) {
  // Complying (hands.comply), a hand steered at v into a wall stops where it presses with
  // v / admittance past the dead band: 0.3 and full stick at the 0.1 m/s top speed, 0.002 m/s
  // per N, 3 N: 18 and 53 N.
  for (const double stick : {0.3, 1.0}) {
    const Press press = pressTheWall(stick, true);
    const double commanded = 3.0 + stick * 0.1 / 0.002;
    std::printf("complying at %.1f stick: %.2f N (commanded %.0f N), peak %.1f N\n", stick,
                press.meanForce, commanded, press.peakForce);
    EXPECT_NEAR(press.meanForce, commanded, 0.1 * commanded) << "stick " << stick;
    EXPECT_FALSE(press.fell);
  }
  // Not complying, the hand's position loop drives its target on into the wall as a position-
  // controlled arm does: the push grows until something gives - here the robot, its soles
  // sliding and its body pushed back by its own arm.
  const Press stiff = pressTheWall(0.3, false);
  std::printf("not complying at 0.3 stick: peak %.0f N, pelvis pushed back %.2f m, %s\n",
              stiff.peakForce, stiff.pelvisBack, stiff.fell ? "fell" : "still upright");
  EXPECT_GT(stiff.peakForce, 5 * 18.0);
  EXPECT_TRUE(stiff.fell || stiff.pelvisBack > 0.1);
}

TEST(HumanoidArms, ASessionPressingAWallReplaysBitForBit) {
  // The hands' targets, setpoints and filtered contact forces are state: a replay resumed from the
  // keyframe at 2 s, the left hand complying against the wall, goes on as recorded.
  const auto path = std::filesystem::temp_directory_path() / "impetus_humanoid_hands.session";
  std::filesystem::remove(path);
  {
    Simulation sim(robotBeforeAWall());
    sim.setDeterministic(true);
    const Probe force = resolveProbe(sim.world(), &*sim.scene().scheme, "scheme.hand_left.force");
    SessionRecorder recorder(path.string(), sim, {.operatorName = "trainee"});
    for (int i = 0; i < 400; ++i) {
      sim.channels()[channel(sim, "hand.x")] = i >= 20 ? 1.0 : 0.0;
      sim.channels()[channel(sim, "hand.yaw")] = i >= 250 ? -0.5 : 0.0;
      sim.channels()[channel(sim, "hands.comply")] = 1.0;
      ASSERT_TRUE(sim.step().ok);
      recorder.afterStep(sim);
      if (i == 200) {
        EXPECT_GT(force(), 20.0);  // pressing at the keyframe
      }
    }
    recorder.finish(sim);
  }
  testing::expectReplaysBitForBit(path.string(), 210);
}

TEST(HumanoidArms, BadHandParametersNameTheProblem) {
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  const std::string arm =
      "shoulder_pitch_l shoulder_roll_l shoulder_yaw_l elbow_l forearm_roll_l wrist_pitch_l "
      "wrist_yaw_l";
  const auto compile = [&](std::map<std::string, std::string> params) {
    std::map<std::string, std::string> inputs;
    for (const char* port : {"x", "y", "z", "roll", "pitch", "yaw", "frame"}) inputs[port] = "zero";
    if (params.count("comply")) {  // not a parameter: asks for the optional input
      params.erase("comply");
      inputs["comply"] = "zero";
    }
    SchemeDesc desc;
    desc.blocks = {testing::block("constant", "zero", {{"value", "0"}}),
                   testing::block("hand", "hand", std::move(params), std::move(inputs))};
    return Scheme::compile(desc, sim.world(), {});
  };
  const auto message = [&](std::map<std::string, std::string> params) -> std::string {
    try {
      compile(std::move(params));
    } catch (const SchemeError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(message({{"tip", "paw"}, {"joints", arm}}).find("tip body 'paw' not found"),
            std::string::npos);
  EXPECT_NE(message({{"tip", "hand_l"}, {"joints", "shoulder_pitch_l elbow_l"}})
                .find("at least six joints"),
            std::string::npos);
  EXPECT_NE(message({{"tip", "hand_l"}, {"joints", arm + " knee_l"}}).find("does not move"),
            std::string::npos);
  EXPECT_NE(message({{"tip", "hand_l"}, {"joints", arm}, {"posture", "0 0"}}).find("posture"),
            std::string::npos);
  EXPECT_NE(message({{"tip", "hand_l"}, {"joints", arm}, {"top_speed", "0"}}).find("top_speed"),
            std::string::npos);
  EXPECT_NE(message({{"tip", "hand_l"}, {"joints", arm}, {"speed", "2"}}).find("speed"),
            std::string::npos);
  EXPECT_NE(message({{"tip", "hand_l"}, {"joints", arm}, {"wrist_sensor", "pelvis_imu"}})
                .find("not a force_torque sensor"),
            std::string::npos);
  EXPECT_NE(message({{"tip", "hand_l"}, {"joints", arm}, {"comply", ""}}).find("wrist_sensor"),
            std::string::npos);
  EXPECT_NE(message({{"tip", "hand_l"},
                     {"joints", arm},
                     {"wrist_sensor", "wrist_ft_left"},
                     {"admittance", "-1"}})
                .find("admittance"),
            std::string::npos);
  EXPECT_NO_THROW(compile({{"tip", "hand_l"}, {"joints", arm}}));
  EXPECT_NO_THROW(compile(
      {{"tip", "hand_l"}, {"joints", arm}, {"wrist_sensor", "wrist_ft_left"}, {"comply", ""}}));
}

}  // namespace
}  // namespace impetus
