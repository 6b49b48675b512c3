// Seed 002's valve task (issue "the humanoid's arms", must-shows 2 and 4): the humanoid standing
// before a hand-wheel valve with 8 N m of Coulomb friction; the console script steers both hands
// onto the rim, closes the grippers and turns the wheel open and closed again through the
// assisted two-hand turn, regrasping at the ends of the arms' reach.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>

#include "impetus/probes/probe.h"
#include "impetus/scene/input_script.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/session_recorder.h"
#include "impetus/session/simulation.h"
#include "replay_check.h"

namespace impetus {
namespace {

const std::string kScenes = IMPETUS_SCENES_DIR;
constexpr double kScriptEnd = 48.5;  // s: the script lets go at 47.0 s

TEST(HumanoidValve, TheScriptTurnsTheValveOpenPastNinetyDegreesAndClosesItWithinAMinute) {
  Simulation sim(loadScene(kScenes + "/humanoid-valve.xml"));
  InputScript script =
      InputScript::read(kScenes + "/humanoid-valve.csv", sim.scene().console.channels());
  World& world = sim.world();
  const Scheme* scheme = &*sim.scene().scheme;
  const Probe valve = resolveProbe(world, scheme, "joint.valve.position");
  const Probe commanded = resolveProbe(world, scheme, "scheme.wheel.angle");
  const Probe holding = resolveProbe(world, scheme, "scheme.wheel.holding");
  const Probe gait = resolveProbe(world, scheme, "scheme.gait.state");
  const Probe jawLeft = resolveProbe(world, scheme, "joint.jaw_a_l.position");
  const Probe jawRight = resolveProbe(world, scheme, "joint.jaw_a_r.position");
  const Probe forceLeft = resolveProbe(world, scheme, "scheme.hand_left.force");
  const Probe forceRight = resolveProbe(world, scheme, "scheme.hand_right.force");
  const BodyId feet[2] = {world.findBody("foot_l"), world.findBody("foot_r")};
  const Vec3 feetAtStart[2] = {world.body(feet[0]).position, world.body(feet[1]).position};

  double widest = 0.0, worstLag = 0.0, widestJaw = 0.0, strongest = 0.0, closedAt = -1.0;
  while (world.time() < kScriptEnd) {
    script.apply(world.time(), sim.channels());
    ASSERT_TRUE(sim.step().ok) << "at " << world.time() << " s";
    ASSERT_LT(gait(), 2.5) << "fell at " << world.time() << " s";
    widest = std::max(widest, valve());
    if (holding() > 0.5) {
      // The wheel follows the hands: it lags the assist's commanded angle by what the
      // grippers' and the arms' give takes up, never by a slip.
      worstLag = std::max(worstLag, std::abs(valve() - commanded()));
      // The jaws closed on the 30 mm tube stop at about 19 mm of travel; closing on nothing
      // they would run to their 30 mm stop.
      widestJaw = std::max({widestJaw, jawLeft(), jawRight()});
      strongest = std::max({strongest, forceLeft(), forceRight()});
    }
    if (widest > 1.0 && closedAt < 0.0 && std::abs(valve()) < 0.05) closedAt = world.time();
  }
  double slid = 0.0;
  for (int k = 0; k < 2; ++k)
    slid = std::max(slid, (world.body(feet[k]).position - feetAtStart[k]).head<2>().norm());
  std::printf(
      "valve: opened to %.1f deg, closed at %.1f s, ends at %.2f deg; wheel behind the command "
      "by %.3f rad at most; widest closed jaw %.1f mm; wrist contact force at most %.1f N; soles "
      "slid %.2f mm\n",
      widest * 180.0 / std::numbers::pi, closedAt, valve() * 180.0 / std::numbers::pi, worstLag,
      1000.0 * widestJaw, strongest, 1000.0 * slid);
  EXPECT_GE(widest, std::numbers::pi / 2.0);  // must-show 2: at least 90 degrees
  EXPECT_GT(closedAt, 0.0);
  EXPECT_LT(closedAt, 60.0);
  EXPECT_LT(std::abs(valve()), 0.1);  // and left closed
  EXPECT_LT(worstLag, 0.15);
  EXPECT_LT(widestJaw, 0.026);
  EXPECT_LT(strongest, 60.0);  // the documented bound (scenes/README.md, humanoid-valve)
  EXPECT_LT(slid, 0.001);
}

TEST(HumanoidValve, ARecordedValveSessionReplaysBitForBit) {
  // Resumed at 25 s, in the middle of a regrasp: the assist's phase, each hand's place on the
  // rim and the grippers' commands are state.
#ifdef IMPETUS_SANITIZED_BUILD
  GTEST_SKIP() << "recorded, replayed and resumed: two minutes under the sanitizers, whose "
                  "build checks the session machinery through the other replay tests";
#endif
  const auto path = std::filesystem::temp_directory_path() / "impetus_humanoid_valve.session";
  std::filesystem::remove(path);
  {
    Simulation sim(loadScene(kScenes + "/humanoid-valve.xml"));
    sim.setDeterministic(true);
    InputScript script =
        InputScript::read(kScenes + "/humanoid-valve.csv", sim.scene().console.channels());
    const Probe phase = resolveProbe(sim.world(), &*sim.scene().scheme, "scheme.wheel.state");
    SessionRecorder recorder(path.string(), sim, {.operatorName = "trainee"});
    for (int i = 0; i < 2700; ++i) {
      script.apply(sim.world().time(), sim.channels());
      ASSERT_TRUE(sim.step().ok);
      recorder.afterStep(sim);
      if (i == 2500) {
        EXPECT_GE(phase(), 2.0);  // regrasping at the resume point
      }
    }
    recorder.finish(sim);
  }
  testing::expectReplaysBitForBit(path.string(), 2500);
}

}  // namespace
}  // namespace impetus
