// Several robots in one world: an <include prefix> gives each copy of a robot its own names, and
// the solver's islands (solver_islands.h) step robots that do not touch exactly as each would
// alone.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "impetus/probes/probe.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/simulation.h"

namespace impetus {
namespace {

constexpr double kSpacing = 10.0;  // m between the robots' start points

std::string prefixOf(int k) {
  return "r" + std::to_string(k) + "_";
}

/// MF-4s on open ground: robot k at (kSpacing k, 0), turned 0.4 k rad.
std::string mf4Team(const std::vector<int>& members) {
  std::string s =
      "<scene name='team'>\n<world gravity='0 0 -9.81'/>\n"
      "<material name='ground' friction='0.8'/>\n"
      "<body name='ground' fixed='true'><geom type='plane' material='ground'/></body>\n";
  for (const int k : members) {
    const double yaw = 0.4 * k;
    s += "<include file='robots/mf4.xml' prefix='" + prefixOf(k) + "' pos='" +
         std::to_string(kSpacing * k) + " 0 0' quat='" + std::to_string(std::cos(yaw / 2)) +
         " 0 0 " + std::to_string(std::sin(yaw / 2)) + "'/>\n";
  }
  return s + "</scene>\n";
}

/// Robot k's operator at time t (s): driving, turning, swinging the turret and working the
/// gripper, each their own way. (The arm stays clear of the ground: an MF-4 whose gripper is
/// driven into the ground at full torque can be thrown - docs/engine.md, "Known gaps" - alone
/// as in company, which this test does not need.)
double input(const std::string& channel, int k, double t) {
  const double phase = 1.3 * k;
  if (channel == "drive.y") return 0.8 * std::sin(0.5 * t + phase);
  if (channel == "drive.x") return 0.6 * std::sin(0.9 * t + 2.0 * phase);
  if (channel == "arm.x") return std::sin(1.1 * t + phase);  // the turret (arm.select 0)
  if (channel == "gripper") return std::fmod(t + 2.0 * k, 5.0) < 2.5 ? 0.0 : 1.0;
  return 0.0;
}

struct Pose {
  Vec3 position;
  Quat orientation;
};

/// Every body's pose of robot k, step by step, in a world of `members` (k among them).
std::vector<std::vector<Pose>> run(const std::vector<int>& members, int k, int steps) {
  Simulation sim(loadSceneText(mf4Team(members), "team.xml", IMPETUS_SCENES_DIR));
  const std::vector<std::string> channels = sim.scene().console.channels();
  std::vector<BodyId> bodies;
  const std::string prefix = prefixOf(k);
  for (BodyId b = 0; b < sim.world().bodyCount(); ++b)
    if (sim.world().body(b).name.rfind(prefix, 0) == 0) bodies.push_back(b);
  std::vector<std::vector<Pose>> trajectory;
  for (int i = 0; i < steps; ++i) {
    const double t = i * sim.stepSize();
    for (size_t c = 0; c < channels.size(); ++c) {
      const std::string& name = channels[c];
      const size_t underscore = name.find('_');
      const int robot = std::stoi(name.substr(1, underscore - 1));
      sim.channels()[c] = input(name.substr(underscore + 1), robot, t);
    }
    const StepStatus status = sim.step();
    EXPECT_TRUE(status.ok) << status.message;
    if (!status.ok) break;
    std::vector<Pose> poses;
    for (const BodyId b : bodies)
      poses.push_back({sim.world().body(b).position, sim.world().body(b).orientation});
    trajectory.push_back(poses);
  }
  return trajectory;
}

/// Largest difference of positions (m) and orientations (quaternion components) over the run.
double largestDifference(const std::vector<std::vector<Pose>>& a,
                         const std::vector<std::vector<Pose>>& b) {
  EXPECT_EQ(a.size(), b.size());
  double largest = 0.0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    for (size_t j = 0; j < a[i].size(); ++j) {
      largest = std::max(largest, (a[i][j].position - b[i][j].position).cwiseAbs().maxCoeff());
      largest = std::max(
          largest,
          (a[i][j].orientation.coeffs() - b[i][j].orientation.coeffs()).cwiseAbs().maxCoeff());
    }
  return largest;
}

TEST(SeveralRobots, EachOfTwoAndFourMf4sMovesExactlyAsItDoesAlone) {
#ifdef IMPETUS_SANITIZED_BUILD
  constexpr int kSteps = 500;  // the sanitizers' build: 5 s
#else
  constexpr int kSteps = 1500;  // 15 s: driving, turning, the arm moving, the gripper closing
#endif
  for (const std::vector<int>& team : {std::vector<int>{0, 1}, std::vector<int>{0, 1, 2, 3}}) {
    for (const int k : team) {
      const auto together = run(team, k, kSteps);
      const auto alone = run({k}, k, kSteps);
      ASSERT_EQ(together.size(), size_t(kSteps));
      EXPECT_LE(largestDifference(together, alone), 1e-9) << "robot " << k << " of " << team.size();
      // It did drive: the hull (the first body) left its start.
      const Vec3 start(kSpacing * k, 0.0, 0.0);
      const Vec3 end = together.back().front().position;
      EXPECT_GT((end - start).head<2>().norm(), kSteps > 1000 ? 0.5 : 0.1) << "robot " << k;
      EXPECT_LT((end - start).head<2>().norm(), kSpacing / 2 - 1.0) << "robot " << k;
    }
  }
}

/// The humanoid walking forward (from 0.5 s), alone or beside an MF-4 driving a curve 4 m to its
/// left; the pelvis's pose step by step.
std::vector<Pose> humanoidWalking(bool withMf4, int steps) {
  std::string scene =
      "<scene name='yard'>\n<world gravity='0 0 -9.81'/>\n"
      "<material name='ground' friction='1.0' restitution='0.0'/>\n"
      "<body name='ground' fixed='true'><geom type='plane' material='ground'/></body>\n"
      "<include file='robots/humanoid.xml' prefix='h_'/>\n";
  if (withMf4) scene += "<include file='robots/mf4.xml' prefix='m_' pos='0 4 0'/>\n";
  Simulation sim(loadSceneText(scene + "</scene>\n", "yard.xml", IMPETUS_SCENES_DIR));
  const std::vector<std::string> channels = sim.scene().console.channels();
  const BodyId pelvis = sim.world().findBody("h_pelvis");
  std::vector<Pose> poses;
  for (int i = 0; i < steps; ++i) {
    const double t = i * sim.stepSize();
    for (size_t c = 0; c < channels.size(); ++c) {
      if (channels[c] == "h_walk.forward") sim.channels()[c] = t > 0.5 ? 1.0 : 0.0;
      if (channels[c] == "m_drive.y") sim.channels()[c] = 1.0;
      if (channels[c] == "m_drive.x") sim.channels()[c] = 0.5;
    }
    const StepStatus status = sim.step();
    EXPECT_TRUE(status.ok) << status.message;
    if (!status.ok) break;
    poses.push_back({sim.world().body(pelvis).position, sim.world().body(pelvis).orientation});
  }
  return poses;
}

TEST(SeveralRobots, TheHumanoidBesideAnMf4WalksExactlyAsItDoesAlone) {
  // Its walking controller models its own links only (the world's tree also holds the MF-4).
#ifdef IMPETUS_SANITIZED_BUILD
  constexpr int kSteps = 250;
#else
  constexpr int kSteps = 500;
#endif
  const std::vector<Pose> together = humanoidWalking(true, kSteps);
  const std::vector<Pose> alone = humanoidWalking(false, kSteps);
  ASSERT_EQ(together.size(), alone.size());
  double largest = 0.0;
  for (size_t i = 0; i < alone.size(); ++i) {
    largest = std::max(largest, (together[i].position - alone[i].position).cwiseAbs().maxCoeff());
    largest = std::max(
        largest,
        (together[i].orientation.coeffs() - alone[i].orientation.coeffs()).cwiseAbs().maxCoeff());
  }
  EXPECT_LE(largest, 1e-9);
  EXPECT_GT(alone.back().position.x(), kSteps > 300 ? 0.5 : 0.1);  // it walked
  EXPECT_GT(alone.back().position.z(), 0.8);                       // upright
}

TEST(SeveralRobots, EveryNameOfAPrefixedCopyCarriesItsPrefix) {
  const LoadedScene s = loadSceneText(mf4Team({0, 1}), "team.xml", IMPETUS_SCENES_DIR);
  const World& w = *s.world;
  for (const std::string p : {"r0_", "r1_"}) {
    EXPECT_GE(w.findBody(p + "hull"), 0) << p;
    EXPECT_NE(const_cast<World&>(w).findJoint(p + "shoulder"), nullptr) << p;
    EXPECT_NE(const_cast<World&>(w).findMotor(p + "track_left"), nullptr) << p;
    EXPECT_NE(w.findSensor(p + "hull_imu"), nullptr) << p;
  }
  // Shared materials are declared by each copy and exist once.
  EXPECT_GE(w.materials().find("mf4_rubber"), 0);
  EXPECT_LT(w.materials().find("r0_mf4_rubber"), 0);
  // Channels, controls and scheme blocks.
  const std::vector<std::string> channels = s.console.channels();
  EXPECT_NE(std::find(channels.begin(), channels.end(), "r1_drive.y"), channels.end());
  EXPECT_EQ(std::find(channels.begin(), channels.end(), "drive.y"), channels.end());
  int r1Controls = 0;
  for (const ControlDesc& c : s.console.controls) {
    EXPECT_EQ(c.name.rfind(c.robot, 0), 0u) << c.name;
    r1Controls += c.robot == "r1_";
  }
  EXPECT_EQ(r1Controls * 2, int(s.console.controls.size()));
  ASSERT_TRUE(s.scheme);
  EXPECT_GE(s.scheme->signalIndex("r0_mix.left"), 0);
  EXPECT_GE(s.scheme->signalIndex("r1_mix.left"), 0);
  // The copy sits where its include put it.
  EXPECT_NEAR(w.body(w.findBody("r1_hull")).position.x(), kSpacing, 1e-12);
  // Cameras.
  int cameras = 0;
  for (const CameraDesc& c : s.cameras) cameras += c.name == "r1_gripper_camera";
  EXPECT_EQ(cameras, 1);
}

TEST(SeveralRobots, ProbesAndSignalsOfACopyGetItsPrefix) {
  EXPECT_EQ(qualifiedSignal("red_", "joint.elbow.position"), "joint.red_elbow.position");
  EXPECT_EQ(qualifiedSignal("red_", "sensor.hull_imu.roll"), "sensor.red_hull_imu.roll");
  EXPECT_EQ(qualifiedSignal("red_", "scheme.gait.state"), "scheme.red_gait.state");
  EXPECT_EQ(qualifiedSignal("red_", "gait.state"), "red_gait.state");
  EXPECT_EQ(qualifiedSignal("red_", "toggle"), "red_toggle");
  EXPECT_EQ(qualifiedSignal("", "body.hull.x"), "body.hull.x");
}

void expectRefused(const std::string& xml, const std::string& expected) {
  try {
    loadSceneText(xml, "bad.xml", IMPETUS_SCENES_DIR);
    ADD_FAILURE() << "accepted: " << xml;
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
        << "got: " << e.what() << "\nwanted: " << expected;
  }
}

const char* const kGround =
    "<scene>\n<body name='ground' fixed='true'><geom type='plane'/></body>\n";

TEST(SeveralRobots, MalformedPrefixesAndNameCollisionsAreFileLineErrors) {
  const std::string g = kGround;
  for (const std::string bad : {"1red_", "red.", "red blue", "", "_red", "red,"})
    expectRefused(g + "<include file='robots/mf4.xml' prefix='" + bad + "'/>\n</scene>",
                  "bad.xml:3: prefix '" + bad + "': a letter, then letters, digits");
  // The scene's own body and an included one.
  expectRefused(g + "<body name='red_hull' mass='1'><geom type='sphere' radius='0.1'/></body>\n" +
                    "<include file='robots/mf4.xml' prefix='red_'/>\n</scene>",
                "duplicate body name 'red_hull' (first at bad.xml:3)");
  // Two copies under one prefix: the second's first body collides with the first's.
  expectRefused(g + "<include file='robots/mf4.xml' prefix='red_'/>\n" +
                    "<include file='robots/mf4.xml' prefix='red_'/>\n</scene>",
                "robots/mf4.xml:");
  expectRefused(g + "<include file='robots/mf4.xml' prefix='red_'/>\n" +
                    "<include file='robots/mf4.xml' prefix='red_'/>\n</scene>",
                "duplicate motor name 'red_track_left': this file is included twice under the "
                "prefix 'red_'");
  // Without a prefix a second copy is refused, naming the first.
  expectRefused(g + "<include file='robots/mf4.xml'/>\n<include file='robots/mf4.xml'/>\n</scene>",
                "mf4.xml:12: duplicate motor name 'track_left': this file is included twice "
                "without a prefix (<include prefix=...> names each copy)");
  // A scene's console channel that a copy's control also feeds.
  expectRefused(g + "<include file='robots/mf4.xml' prefix='red_'/>\n" +
                    "<console><toggle name='x' channel='red_gripper'/></console>\n</scene>",
                "bad.xml:4: channel 'red_gripper' is fed by two controls (the other at ");
}

TEST(SeveralRobots, ASharedMaterialMustAgreeWithItsFirstDeclaration) {
  expectRefused(std::string(kGround) +
                    "<material name='mf4_steel' friction='0.9' shared='true'/>\n"
                    "<include file='robots/mf4.xml' prefix='red_'/>\n</scene>",
                "shared material 'mf4_steel' differs from its declaration at bad.xml:3");
}

}  // namespace
}  // namespace impetus
