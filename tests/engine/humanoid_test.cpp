// The walking humanoid (scenes/humanoid.xml, issue "walking humanoid"): its drives, its model and
// its onboard controller, checked as the operator would see them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <vector>

#include "impetus/probes/probe.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/session_reader.h"
#include "impetus/session/session_recorder.h"
#include "impetus/session/session_replay.h"
#include "impetus/session/simulation.h"
#include "replay_check.h"
#include "walker_runs.h"

namespace impetus {
namespace {

const std::string kScenes = IMPETUS_SCENES_DIR;

/// The four bottom corners of a foot's sole (robots/humanoid.xml: a 0.24 x 0.13 x 0.04 m box
/// whose centre is 0.02 m below the foot's centre of mass), world frame.
std::array<Vec3, 4> soleCorners(const World& world, const std::string& foot) {
  const RigidBody& b = world.body(world.findBody(foot));
  std::array<Vec3, 4> corners;
  for (int k = 0; k < 4; ++k)
    corners[size_t(k)] =
        b.position + b.rotation * Vec3((k & 1) ? 0.12 : -0.12, (k & 2) ? 0.065 : -0.065, -0.04);
  return corners;
}

TEST(Humanoid, StandsAMinuteWithNoInputWithoutSwayingSlidingOrSinking) {
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  World& world = sim.world();
  const Probe state = resolveProbe(world, &*sim.scene().scheme, "scheme.gait.state");
  const Vec3 pelvis0 = world.body(world.findBody("pelvis")).position;
  const std::array<std::array<Vec3, 4>, 2> corners0 = {soleCorners(world, "foot_l"),
                                                       soleCorners(world, "foot_r")};
  double pelvisMove = 0.0, slide = 0.0, sink = 0.0;
  for (int i = 0; i < 6000; ++i) {
    ASSERT_TRUE(sim.step().ok) << "step " << i;
    ASSERT_EQ(state(), 0.0) << "standing at step " << i;
    pelvisMove =
        std::max(pelvisMove, (world.body(world.findBody("pelvis")).position - pelvis0).norm());
    for (int f = 0; f < 2; ++f) {
      const auto corners = soleCorners(world, f == 0 ? "foot_l" : "foot_r");
      for (int k = 0; k < 4; ++k) {
        const Vec3 d = corners[size_t(k)] - corners0[size_t(f)][size_t(k)];
        slide = std::max(slide, d.head<2>().norm());
        sink = std::max(sink, -corners[size_t(k)].z());
      }
    }
  }
  std::printf("standing 60 s: pelvis moved %.2f mm, soles slid %.4f mm, sank %.4f mm\n",
              pelvisMove * 1e3, slide * 1e3, sink * 1e3);
  EXPECT_LT(pelvisMove, 0.01);  // the issue's bounds
  EXPECT_LT(slide, 0.001);
  EXPECT_LT(sink, 0.002);
}

TEST(Humanoid, EveryJointIsDrivenByAGearmotorUnderServoControl) {
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  World& world = sim.world();
  ASSERT_TRUE(sim.step().ok);
  int driven = 0;
  for (int j = 0; j < world.jointCount(); ++j) {
    const Joint& joint = world.joint(j);
    if (joint.type() == JointType::Fixed) continue;
    ASSERT_FALSE(joint.drives().empty()) << joint.name() << " has no drive";
    const DcMotor& m = *joint.drives()[0].motor;
    // Jaws follow their gripper motor (one motor, a repeater: seed 001); all others are servoed.
    if (joint.name().rfind("jaw_", 0) == 0) continue;
    EXPECT_TRUE(m.servoActive()) << joint.name();
    ++driven;
  }
  EXPECT_EQ(driven, 12 + 3 + 14);  // legs, waist and neck, arms
}

/// Runs the humanoid standing with one push on the pelvis at t = 1 s; returns the largest gait
/// state seen and the fastest any body moved in the last `settle` seconds.
struct PushOutcome {
  double worstState = 0.0;
  double lateSpeed = 0.0;
  double pelvisTilt = 0.0;
  bool drivesEnabled = true;
};
PushOutcome pushWhileStanding(const Vec3& impulse, double seconds, double settle) {
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  sim.schedulePush({"pelvis", 1.0, impulse});
  World& world = sim.world();
  const Scheme* scheme = &*sim.scene().scheme;
  const Probe state = resolveProbe(world, scheme, "scheme.gait.state");
  const Probe drives = resolveProbe(world, scheme, "scheme.gait.drives");
  PushOutcome out;
  const int steps = int(std::lround(seconds / 0.01));
  for (int i = 0; i < steps; ++i) {
    EXPECT_TRUE(sim.step().ok) << "step " << i;
    out.worstState = std::max(out.worstState, state());
    if (i >= steps - int(std::lround(settle / 0.01)))
      for (const RigidBody& b : world.bodies())
        out.lateSpeed = std::max(out.lateSpeed, b.linearVelocity.norm());
  }
  const Vec3 rpy = rollPitchYaw(world.body(world.findBody("pelvis")).orientation);
  out.pelvisTilt = std::hypot(rpy.x(), rpy.y());
  out.drivesEnabled = drives() > 0.5;
  return out;
}

TEST(Humanoid, StandingItTakesA25NsPushFromEverySide) {
  // 25 N s on 106 kg is 0.24 m/s of centre-of-mass velocity (the issue's must-show 4). The
  // largest survived: 45 N s from behind, 50 N s from the front, 60 N s sideways.
  const Vec3 directions[] = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY()};
  for (const Vec3& d : directions) {
    const PushOutcome o = pushWhileStanding(25.0 * d, 8.0, 2.0);
    EXPECT_EQ(o.worstState, 0.0) << "push along " << d.transpose();
    EXPECT_LT(o.pelvisTilt, 0.02) << "push along " << d.transpose();
    EXPECT_LT(o.lateSpeed, 0.01) << "push along " << d.transpose();
  }
}

TEST(Humanoid, A200NsPushFellsItTheDrivesLetGoAndNothingExplodes) {
  const PushOutcome o = pushWhileStanding(Vec3(200.0, 0.0, 0.0), 6.0, 1.0);
  EXPECT_EQ(o.worstState, 3.0);
  EXPECT_FALSE(o.drivesEnabled);
  EXPECT_GT(o.pelvisTilt, 1.0);  // lying down
  EXPECT_LT(o.lateSpeed, 0.5);   // and still, a second later
}

TEST(Humanoid, APushedSessionReplaysBitForBit) {
  const auto path = std::filesystem::temp_directory_path() / "impetus_humanoid_push.session";
  std::filesystem::remove(path);
  {
    Simulation sim(loadScene(kScenes + "/humanoid.xml"));
    sim.setDeterministic(true);
    sim.schedulePush({"pelvis", 0.5, Vec3(0.0, 30.0, 0.0)});
    SessionRecorder recorder(path.string(), sim, {.operatorName = "trainee"});
    for (int i = 0; i < 300; ++i) {
      ASSERT_TRUE(sim.step().ok);
      recorder.afterStep(sim);
    }
    recorder.finish(sim);
  }
  SessionReader reader(path.string());
  ASSERT_EQ(reader.info().pushes.size(), 1u);
  EXPECT_EQ(reader.info().pushes[0].impulse, Vec3(0.0, 30.0, 0.0));
  SessionReplay replay(reader);
  const auto divergence = replay.verify();
  EXPECT_FALSE(divergence.has_value()) << divergence->what;
}

TEST(Humanoid, AWalkingSessionReplaysBitForBit) {
  // Must-show 7: walking forward, then turning while walking; the keyframes fall mid-step, so
  // the replay resumes the controller (pattern, feet, ankle damping) from its saved state.
  const auto path = std::filesystem::temp_directory_path() / "impetus_humanoid_walk.session";
  std::filesystem::remove(path);
  double travelled = 0.0;
  {
    Simulation sim(loadScene(kScenes + "/humanoid.xml"));
    sim.setDeterministic(true);
    const auto channels = sim.scene().console.channels();
    const auto channel = [&](const std::string& name) {
      return static_cast<size_t>(std::find(channels.begin(), channels.end(), name) -
                                 channels.begin());
    };
    const size_t forward = channel("walk.forward"), turn = channel("walk.turn");
    ASSERT_LT(forward, channels.size());
    ASSERT_LT(turn, channels.size());
    const Probe state = resolveProbe(sim.world(), &*sim.scene().scheme, "scheme.gait.state");
    const Vec3 start = sim.world().body(sim.world().findBody("pelvis")).position;
    SessionRecorder recorder(path.string(), sim, {.operatorName = "trainee"});
    for (int i = 0; i < 450; ++i) {
      sim.channels()[forward] = i >= 50 ? 1.0 : 0.0;
      sim.channels()[turn] = i >= 300 ? 0.5 : 0.0;
      ASSERT_TRUE(sim.step().ok);
      recorder.afterStep(sim);
      if (i >= 100) {
        ASSERT_EQ(state(), 1.0) << "walking at step " << i;
      }
    }
    recorder.finish(sim);
    travelled = (sim.world().body(sim.world().findBody("pelvis")).position - start).norm();
  }
  std::printf("walking session: travelled %.2f m\n", travelled);
  EXPECT_GT(travelled, 0.5);  // it walked
  // Resumed from the keyframe at 2 s, mid-step and turning soon, it goes on as recorded.
  testing::expectReplaysBitForBit(path.string(), 200);
}

/// The operator's three walking axes held piecewise constant: (time from which, forward,
/// lateral, turn), each in [-1, 1].
struct WalkCommandAt {
  double time;
  Vec3 command;
};

/// Drives the humanoid through `commands` for `seconds`; `each` sees the simulation after every
/// step. Fails the test on a step error; returns the first time the gait reported a fall (-1:
/// never).
double walkThrough(Simulation& sim, const std::vector<WalkCommandAt>& commands, double seconds,
                   const std::function<void(double)>& each = {}) {
  const auto channels = sim.scene().console.channels();
  std::array<size_t, 3> axis{};
  const char* names[] = {"walk.forward", "walk.lateral", "walk.turn"};
  for (size_t k = 0; k < 3; ++k) {
    axis[k] = size_t(std::find(channels.begin(), channels.end(), names[k]) - channels.begin());
    EXPECT_LT(axis[k], channels.size()) << names[k];
    if (axis[k] >= channels.size()) return 0.0;
  }
  const Probe state = resolveProbe(sim.world(), &*sim.scene().scheme, "scheme.gait.state");
  size_t next = 0;
  Vec3 command = Vec3::Zero();
  const int steps = int(std::lround(seconds / 0.01));
  for (int i = 0; i < steps; ++i) {
    const double t = i * 0.01;
    while (next < commands.size() && commands[next].time <= t + 1e-9)
      command = commands[next++].command;
    for (size_t k = 0; k < 3; ++k) sim.channels()[axis[k]] = command[Eigen::Index(k)];
    EXPECT_TRUE(sim.step().ok) << "step " << i;
    if (state() == 3.0) return t + 0.01;
    if (each) each(t + 0.01);
  }
  return -1.0;
}

TEST(Humanoid, WalksForwardAtItsTopSpeedStraightAndStopsWithinAStep) {
  // Must-show 2: walk.forward = 1 from standing for 10 s. The documented top speed is the walking
  // block's top_forward, 0.40 m/s (scenes/README.md); the command slews at 0.4 m/s^2, so it is
  // back to zero 1 s after the operator lets go, and the robot stops within a step (0.5 s).
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  const World& world = sim.world();
  const BodyId pelvis = world.findBody("pelvis");
  const Probe state = resolveProbe(sim.world(), &*sim.scene().scheme, "scheme.gait.state");
  Vec3 at5 = Vec3::Zero(), at11 = Vec3::Zero(), start = world.body(pelvis).position;
  double standingAgain = -1.0, latestMove = 0.0, feetMove = 0.0;
  Vec3 settled = Vec3::Zero();
  std::array<Vec3, 2> feetAtStop{};
  const BodyId feet[] = {world.findBody("foot_l"), world.findBody("foot_r")};
  const double fell =
      walkThrough(sim, {{1.0, Vec3(1, 0, 0)}, {11.0, Vec3::Zero()}}, 16.0, [&](double t) {
        const Vec3 p = world.body(pelvis).position;
        if (std::abs(t - 5.0) < 1e-6) at5 = p;
        if (std::abs(t - 11.0) < 1e-6) at11 = p;
        if (t > 11.0 && standingAgain < 0.0 && state() == 0.0) {
          standingAgain = t;
          for (int f = 0; f < 2; ++f) feetAtStop[size_t(f)] = world.body(feet[f]).position;
        }
        if (standingAgain < 0.0) return;
        EXPECT_EQ(state(), 0.0) << "standing again at " << t << " s";
        for (int f = 0; f < 2; ++f)
          feetMove = std::max(
              feetMove, (world.body(feet[f]).position - feetAtStop[size_t(f)]).head<2>().norm());
        // The body's sway after the last step has died out 2 s on.
        if (t <= standingAgain + 2.0) settled = p;
        latestMove = std::max(latestMove, (p - settled).norm());
      });
  ASSERT_LT(fell, 0.0) << "fell at " << fell << " s";
  // The robot faces +x in the scene.
  const double speed = (at11.x() - at5.x()) / 6.0;
  const Vec3 sideways = at11 - start;
  std::printf(
      "forward 10 s: %.3f m/s over the last 6 s, %.1f mm off the straight line over %.2f m, "
      "standing again at %.2f s (feet moved %.2f mm since, pelvis %.2f mm after 2 s)\n",
      speed, 1e3 * std::abs(sideways.y()), sideways.x(), standingAgain, 1e3 * feetMove,
      1e3 * latestMove);
  EXPECT_NEAR(speed, 0.40, 0.15 * 0.40);
  EXPECT_LT(std::abs(sideways.y()), 0.05 * sideways.x());  // drift < 5 % of the distance
  EXPECT_GT(standingAgain, 11.0);
  EXPECT_LT(standingAgain, 12.0 + 0.5 + 0.05);  // within a step of the command reaching zero
  // No further step (a step is 0.1 m or more). The feet may settle by up to ~1.5 cm as the last
  // landing is handed back (the sanitizer build's rounding: 15 mm, release 4 mm).
  EXPECT_LT(feetMove, 0.03);
  EXPECT_LT(latestMove, 0.005);  // and it stands still
}

TEST(Humanoid, TurnsSideStepsBacksUpAndTakesMinutesOfRandomSticksWithoutFalling) {
  // Must-show 3 on flat ground: turning in place both ways, side-stepping both ways, walking
  // backwards, mixes of them, then the sticks slammed between random positions (full, zero or
  // anywhere) every 0.3 to 4 s for two minutes - as a trainee new to the robot drives it. It is
  // not proof against every such run: of 200 two-minute runs on other seeds with the sticks
  // slammed every 0.3 to 2 s, 3 fell (scenes/README.md).
  testing::skipWalkerRunInSanitizedBuild();
  if (IsSkipped()) return;
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  const World& world = sim.world();
  const BodyId pelvis = world.findBody("pelvis");
  std::vector<WalkCommandAt> commands = {{1.0, Vec3(0, 0, 1)},     {8.0, Vec3(0, 0, -1)},
                                         {15.0, Vec3(0, 1, 0)},    {20.0, Vec3(0, -1, 0)},
                                         {25.0, Vec3(-1, 0, 0)},   {31.0, Vec3(1, 0.5, 0.7)},
                                         {37.0, Vec3(-1, -1, -1)}, {42.0, Vec3::Zero()}};
  std::mt19937 random(3);
  const auto stick = [&] {
    const double r = std::uniform_real_distribution<double>(0.0, 1.0)(random);
    if (r < 0.3) return 0.0;
    if (r < 0.5) return -1.0;
    if (r < 0.7) return 1.0;
    return std::uniform_real_distribution<double>(-1.0, 1.0)(random);
  };
  for (double t = 44.0; t < 164.0; t += std::uniform_real_distribution<double>(0.3, 4.0)(random)) {
    const double forward = stick(), lateral = stick(), turn = stick();
    commands.push_back({t, Vec3(forward, lateral, turn)});
  }
  commands.push_back({164.0, Vec3::Zero()});
  double yaw = 0.0, turned = 0.0, travelled = 0.0, lowest = 1e9;
  Vec3 last = world.body(pelvis).position;
  const double fell = walkThrough(sim, commands, 168.0, [&](double) {
    const RigidBody& b = world.body(pelvis);
    const double now = std::atan2(b.rotation(1, 0), b.rotation(0, 0));
    turned += std::abs(std::remainder(now - yaw, 2.0 * M_PI));
    yaw = now;
    travelled += (b.position - last).head<2>().norm();
    last = b.position;
    lowest = std::min(lowest, b.position.z());
  });
  std::printf("random sticks: turned %.1f rad, walked %.1f m, pelvis never below %.3f m\n", turned,
              travelled, lowest);
  EXPECT_LT(fell, 0.0) << "fell at " << fell << " s";
  // It did walk and turn: 7 s of turning at the 0.3 rad/s top rate each way alone is 4 rad.
  EXPECT_GT(turned, 8.0);
  EXPECT_GT(travelled, 10.0);
  EXPECT_GT(lowest, 0.85);  // upright: walking, the pelvis is 0.92-0.95 m high
}

TEST(Humanoid, PlacedFacingAnotherWayItStandsAndWalksWhereItFaces) {
  // A scene may place the robot facing anywhere (an <include> turned 90 degrees: facing +y).
  // The walking model used to take the robot as placed for facing +x: it twisted the pelvis a
  // quarter turn against the feet and fell at once.
  Simulation sim(
      loadSceneText("<scene>\n<world gravity=\"0 0 -9.81\" step=\"0.01\"/>\n"
                    "<body name=\"ground\" fixed=\"true\"><geom type=\"plane\"/>"
                    "</body>\n<include file=\"robots/humanoid.xml\" pos=\"1 2 0\" "
                    "quat=\"0.70710678 0 0 0.70710678\"/>\n</scene>",
                    "turned.xml", kScenes));
  const World& world = sim.world();
  const BodyId pelvis = world.findBody("pelvis");
  const Vec3 start = world.body(pelvis).position;
  Vec3 standing = start;
  const double fell =
      walkThrough(sim, {{3.0, Vec3(1, 0, 0)}, {9.0, Vec3::Zero()}}, 11.0, [&](double t) {
        if (std::abs(t - 3.0) < 1e-6) standing = world.body(pelvis).position;
      });
  ASSERT_LT(fell, 0.0) << "fell at " << fell << " s";
  const Vec3 walked = world.body(pelvis).position - standing;
  std::printf("turned a quarter: stood %.2f mm still, walked %.3f m along +y, %.3f m across\n",
              1e3 * (standing - start).head<2>().norm(), walked.y(), walked.x());
  EXPECT_LT((standing - start).head<2>().norm(), 0.01);
  // 6 s of full stick, slewed up over the first second: about 2 m forward, which is +y.
  EXPECT_GT(walked.y(), 1.5);
  EXPECT_LT(std::abs(walked.x()), 0.05 * walked.y());
}

TEST(Humanoid, TheRampSceneIsTheIssues) {
  // scenes/humanoid-ramp.xml: a 10 degree ramp whose foot is 1.5 m ahead of the robot, 3 m up
  // the slope, then a flat top (the boxes are 0.2 m and 0.5 m thick, 3 m and 4 m long).
  Simulation sim(loadScene(kScenes + "/humanoid-ramp.xml"));
  const World& world = sim.world();
  const RigidBody& ramp = world.body(world.findBody("ramp"));
  const RigidBody& top = world.body(world.findBody("ramp_top"));
  const Vec3 foot = ramp.position + ramp.rotation * Vec3(-1.5, 0.0, 0.1);
  const Vec3 crest = ramp.position + ramp.rotation * Vec3(1.5, 0.0, 0.1);
  const double slope = std::atan2(crest.z() - foot.z(), crest.x() - foot.x());
  const Vec3 pelvis = world.body(world.findBody("pelvis")).position;
  EXPECT_NEAR(foot.x() - pelvis.x(), 1.5, 1e-3);
  EXPECT_NEAR(foot.z(), 0.0, 1e-3);
  EXPECT_NEAR(slope, 10.0 * M_PI / 180.0, 1e-4);
  EXPECT_NEAR((crest - foot).norm(), 3.0, 1e-3);
  EXPECT_NEAR(top.position.z() + 0.25, crest.z(), 1e-3);  // the flat top continues the crest
  EXPECT_NEAR(top.position.x() - 2.0, crest.x(), 1e-3);

  // The terrain the walking controller sees (World::castRay): the ground plane, the slope at
  // tan(10 deg) with its normal, the top; the robot's own bodies are not terrain.
  const auto heightAt = [&](double x) {
    const auto hit = world.castRay(Vec3(x, 0.3, 2.0), Vec3(x, 0.3, -1.0));
    return hit ? hit->point.z() : -99.0;
  };
  EXPECT_NEAR(heightAt(1.0), 0.0, 1e-9);
  // (The scene's poses are written to 0.1 mm.)
  EXPECT_NEAR(heightAt(2.5), std::tan(slope) * (2.5 - foot.x()), 1e-4);
  EXPECT_NEAR(heightAt(6.0), crest.z(), 1e-4);
  const auto onSlope = world.castRay(Vec3(3.0, 0.0, 2.0), Vec3(3.0, 0.0, 0.0));
  ASSERT_TRUE(onSlope);
  EXPECT_EQ(onSlope->body, world.findBody("ramp"));
  EXPECT_NEAR(onSlope->normal.x(), -std::sin(slope), 1e-9);
  EXPECT_NEAR(onSlope->normal.z(), std::cos(slope), 1e-9);
  const auto underRobot = world.castRay(pelvis + Vec3(0, 0, 1), pelvis - Vec3(0, 0, 2));
  ASSERT_TRUE(underRobot);
  EXPECT_EQ(underRobot->body, world.findBody("ground"));
  EXPECT_FALSE(world.castRay(Vec3(1.0, 0.0, 2.0), Vec3(1.0, 0.0, 0.5)));  // stops above ground
}

/// A walk on scenes/humanoid-ramp.xml under `commands`: when it fell (-1: never), where the
/// pelvis ended and how high above its standing height, the highest it rose, its worst tilt.
struct RampWalk {
  double fell = -1.0;
  Vec3 end = Vec3::Zero();
  double endHeight = 0.0, highest = 0.0, worstTilt = 0.0;  // m, m, rad
};
RampWalk walkOnTheRamp(const std::vector<WalkCommandAt>& commands, double seconds) {
  Simulation sim(loadScene(kScenes + "/humanoid-ramp.xml"));
  const World& world = sim.world();
  const BodyId pelvis = world.findBody("pelvis");
  const double standingHeight = world.body(pelvis).position.z();
  RampWalk walk;
  walk.fell = walkThrough(sim, commands, seconds, [&](double) {
    const RigidBody& b = world.body(pelvis);
    walk.highest = std::max(walk.highest, b.position.z() - standingHeight);
    walk.worstTilt = std::max(walk.worstTilt, std::acos(b.rotation(2, 2)));
  });
  walk.end = world.body(pelvis).position;
  walk.endHeight = walk.end.z() - standingHeight;
  return walk;
}

TEST(Humanoid, WalksUpTheRampOntoItsTopAtFullStick) {
  // Must-show 5, up: walk.forward = 1 from standing onto the 10 degree ramp 1.5 m ahead and on to
  // its flat top. The footsteps land at the height and tilt of the ground under them (the
  // terrain query), clear of the ramp's foot and crest, and on the slope the robot walks at
  // most 0.28 m/s (max_step_up). Before, the swing toe hit the slope and the robot fell back on
  // the first step; a stance foot across the crest was thrown 4 m by the two seam manifolds'
  // nearly parallel rows in the exact tree.
  testing::skipWalkerRunInSanitizedBuild();
  if (IsSkipped()) return;
  const RampWalk walk = walkOnTheRamp({{1.0, Vec3(1, 0, 0)}, {18.0, Vec3::Zero()}}, 21.0);
  ASSERT_LT(walk.fell, 0.0) << "fell at " << walk.fell << " s";
  std::printf("up the ramp: pelvis at x %.2f m, %.3f m above its start, worst tilt %.3f rad\n",
              walk.end.x(), walk.endHeight, walk.worstTilt);
  EXPECT_GT(walk.end.x(), 4.454 + 0.5);      // on the top, past the crest
  EXPECT_NEAR(walk.endHeight, 0.521, 0.02);  // standing on it as on the ground
  EXPECT_LT(walk.worstTilt, 0.1);
}

TEST(Humanoid, WalksUpTheRampTurnsOnItsTopAndWalksBackDown) {
  // Must-show 5, up and down: full stick up onto the top, a U-turn in place there, full stick
  // down to the flat and a stop. Down the slope it walks at most 0.17 m/s (max_step_down),
  // slowing before it steps onto it. Before the ankle cells' readings were compared with the
  // commanded ZMP in one frame (the plan's odometry drifts centimetres from the world), the
  // soles were asked for a centre of pressure centimetres off, the body ran ahead on the way
  // down and half the descents fell; of 15 such runs (0.5, 0.75 and full stick down, five
  // turning times) one fell, after the stop.
  testing::skipWalkerRunInSanitizedBuild();
  if (IsSkipped()) return;
  const RampWalk walk = walkOnTheRamp({{1.0, Vec3(1, 0, 0)},
                                       {18.0, Vec3::Zero()},
                                       {21.0, Vec3(0, 0, 1)},
                                       {32.5, Vec3::Zero()},
                                       {35.0, Vec3(1, 0, 0)},
                                       {57.0, Vec3::Zero()}},
                                      61.0);
  ASSERT_LT(walk.fell, 0.0) << "fell at " << walk.fell << " s";
  std::printf(
      "up and down: %.3f m up at most, back at x %.2f y %.2f, %.3f m above the start, "
      "worst tilt %.3f rad\n",
      walk.highest, walk.end.x(), walk.end.y(), walk.endHeight, walk.worstTilt);
  EXPECT_NEAR(walk.highest, 0.521, 0.03);  // it was on the top
  EXPECT_LT(walk.end.x(), 1.5 - 0.3);      // back on the flat, past the ramp's foot
  EXPECT_NEAR(walk.endHeight, 0.0, 0.02);  // standing on the ground again
  EXPECT_LT(walk.worstTilt, 0.15);
}

TEST(Humanoid, ANegativeSlopeLimitIsAFileLineError) {
  // max_step_down, max_step_up (m): zero switches a limit off; below zero means nothing.
  std::ifstream in(kScenes + "/robots/humanoid.xml");
  std::stringstream text;
  text << in.rdbuf();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "impetus_walking_bad_slope_limit";
  std::filesystem::create_directories(dir / "robots");
  const std::string scene =
      "<scene>\n<body name=\"ground\" fixed=\"true\"><geom type=\"plane\"/></body>\n"
      "<include file=\"robots/humanoid.xml\"/>\n</scene>";
  for (const std::string limit : {"max_step_down", "max_step_up"}) {
    std::string robot = text.str();
    const std::string key = "half_width=\"0.1\"";
    const size_t at = robot.find(key);
    ASSERT_NE(at, std::string::npos);
    robot.insert(at + key.size(), " " + limit + "=\"-0.01\"");
    std::ofstream(dir / "robots" / "humanoid.xml") << robot;
    try {
      loadSceneText(scene, "bad.xml", dir.string());
      ADD_FAILURE() << "accepted a negative " << limit;
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find(limit + " must be zero (no limit) or positive"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("humanoid.xml:"), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(Humanoid, PushesAreParsedAndBadOnesNamed) {
  const ScheduledPush p = parsePush("pelvis@2.5=25,-1e-3,0");
  EXPECT_EQ(p.body, "pelvis");
  EXPECT_EQ(p.time, 2.5);
  EXPECT_EQ(p.impulse, Vec3(25, -1e-3, 0));
  EXPECT_EQ(parsePush(formatPush(p)).impulse, p.impulse);
  for (const char* bad : {"pelvis", "pelvis@x=1,2,3", "pelvis@1=1,2", "@1=1,2,3", "pelvis@-1=1,2,3",
                          "pelvis@1=1,2,nan"})
    EXPECT_THROW(parsePush(bad), std::invalid_argument) << bad;
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  EXPECT_THROW(sim.schedulePush({"nobody", 1.0, Vec3::Zero()}), std::invalid_argument);
  EXPECT_THROW(sim.schedulePush({"ground", 1.0, Vec3::Zero()}), std::invalid_argument);
}

}  // namespace
}  // namespace impetus
