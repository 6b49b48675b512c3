// Training exercises (<exercise>, scenes/README.md "Exercises"): each objective and limit kind
// against a scene built for it, timed against the closed form of a ball falling from rest
// (z = z0 - g t^2 / 2; the step's integrator lags it by under a step), the shipped door
// exercise with its passing and failing scripts, and malformed exercises refused with
// file:line errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "impetus/exercise/exercise_evaluator.h"
#include "impetus/scene/input_script.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/session_reader.h"
#include "impetus/session/session_recorder.h"
#include "impetus/session/session_replay.h"
#include "impetus/session/simulation.h"
#include "walker_runs.h"

namespace impetus {
namespace {

const std::string kScenes = IMPETUS_SCENES_DIR;
constexpr double kG = 9.81, kStep = 0.01;

/// A 0.1 m ball 2 m above a floor, and a pendulum bob hanging from a fixed pivot; `exercise`
/// goes in as the scene's <exercise>.
std::string ballScene(const std::string& exercise) {
  return R"(<scene name="ball">
  <world gravity="0 0 -9.81" step="0.01" frame="0.04"/>
  <body name="floor" fixed="true"><geom type="plane"/></body>
  <body name="ball" pos="0 0 2" mass="1"><geom type="sphere" radius="0.1"/></body>
  <body name="pivot" pos="3 0 2" fixed="true"><geom type="box" size="0.1 0.1 0.1"/></body>
  <body name="bob" pos="3 0 1.5" mass="1">
    <geom type="sphere" radius="0.05"/>
    <joint name="swing" type="revolute" pos="0 0 0.5" axis="0 1 0"/>
  </body>
)" + exercise +
         "\n</scene>";
}

/// Loads `xml`, steps it `seconds` with the exercise evaluated after each step.
struct ExerciseRun {
  LoadedScene scene;
  std::unique_ptr<ExerciseEvaluator> exercise;
  explicit ExerciseRun(const std::string& xml, double seconds)
      : scene(loadSceneText(xml, "test.xml")) {
    exercise = std::make_unique<ExerciseEvaluator>(*scene.exercise, *scene.world, nullptr);
    while (scene.world->time() < seconds - 1e-9) {
      EXPECT_TRUE(scene.world->step(kStep).ok);
      exercise->afterStep(scene.world->time());
    }
  }
  /// The first event of `kind` about `name` (time, or -1).
  double first(ExerciseEvent::Kind kind, const std::string& name) const {
    for (const ExerciseEvent& e : exercise->events())
      if (e.kind == kind && e.name == name) return e.time;
    return -1.0;
  }
};

double fallTime(double drop) {
  return std::sqrt(2.0 * drop / kG);
}

TEST(Exercise, ABodyEntersARegionWhenItsFallSaysSo) {
  // The box spans z 0.9 to 1.1: the ball's centre enters it after falling 0.9 m.
  ExerciseRun run(ballScene(R"(<exercise name="e">
    <objective name="in" kind="region" body="ball" centre="0 0 1" size="1 1 0.2"/>
    <objective name="ball" kind="region" body="ball" centre="0 0 0.5" radius="0.1"/>
  </exercise>)"),
                  1.0);
  EXPECT_NEAR(run.exercise->doneAt(0), fallTime(0.9), 2 * kStep);
  EXPECT_NEAR(run.exercise->doneAt(1), fallTime(1.4), 2 * kStep);  // the sphere, 1.6 to 1.4 m
}

TEST(Exercise, AProbeCrossesAValueAndHoldsABandForItsTime) {
  ExerciseRun run(ballScene(R"(<exercise name="e">
    <objective name="down" kind="cross" probe="body.ball.z" below="1.0"/>
    <objective name="rest" kind="hold" probe="body.ball.z" min="0.09" max="0.11" for="1"/>
  </exercise>)"),
                  3.0);
  EXPECT_NEAR(run.exercise->doneAt(0), fallTime(1.0), 2 * kStep);
  // It lands after 1.9 m (restitution 0) and stays within the band from then on.
  EXPECT_NEAR(run.exercise->doneAt(1), fallTime(1.9) + 1.0, 3 * kStep);
  EXPECT_TRUE(run.exercise->passed());
  EXPECT_EQ(run.exercise->score(), 2.0);  // two objectives of weight 1
}

TEST(Exercise, AnObjectRestingInAZoneAndOneHeldOffTheGround) {
  ExerciseRun run(ballScene(R"(<exercise name="e">
    <objective name="placed" kind="rest" body="ball" centre="0 0 0.1" size="1 1 0.4"/>
    <objective name="held" kind="lift" body="bob" height="0" for="0.5"/>
    <objective name="lifted" kind="lift" body="ball" height="0"/>
  </exercise>)"),
                  3.0);
  EXPECT_NEAR(run.exercise->doneAt(0), fallTime(1.9) + 1.0, 3 * kStep);  // at rest 1 s
  // The bob hangs, touching nothing fixed, from the first step's end on.
  EXPECT_NEAR(run.exercise->doneAt(1), kStep + 0.5, 1e-9);
  EXPECT_LT(run.exercise->doneAt(2), 0.0);  // the ball never rises above where it started
  EXPECT_FALSE(run.exercise->finished());
}

TEST(Exercise, HintsShowOnceWhenTheirConditionsHaveHeldAndCostTheirPenalty) {
  ExerciseRun run(ballScene(R"(<exercise name="e">
    <objective name="never" kind="cross" probe="body.ball.z" above="5"/>
    <objective name="down" kind="cross" probe="body.ball.z" below="1.5"/>
    <hint name="stuck" text="try harder" objective="never" for="0.5" penalty="3"/>
    <hint name="low" text="it is low" probe="body.ball.z" max="1.0" for="0.2" penalty="2"/>
    <hint name="late" text="too late" objective="down" for="0.5" penalty="100"/>
  </exercise>)"),
                  2.0);
  // Held from the first step's end on.
  EXPECT_NEAR(run.first(ExerciseEvent::Kind::Hint, "stuck"), kStep + 0.5, 1e-9);
  EXPECT_NEAR(run.first(ExerciseEvent::Kind::Hint, "low"), fallTime(1.0) + 0.2, 2 * kStep);
  EXPECT_LT(run.first(ExerciseEvent::Kind::Hint, "late"), 0.0);  // "down" is done at 0.32 s
  int hints = 0;
  for (const ExerciseEvent& e : run.exercise->events())
    hints += e.kind == ExerciseEvent::Kind::Hint;
  EXPECT_EQ(hints, 2);  // each once
  EXPECT_EQ(run.exercise->penalties(), 5.0);
}

TEST(Exercise, ObjectivesInSequenceCountOnlyAfterTheirPredecessors) {
  ExerciseRun run(ballScene(R"(<exercise name="e" order="sequence">
    <objective name="low" kind="cross" probe="body.ball.z" below="1.0"/>
    <objective name="high" kind="cross" probe="body.ball.z" below="1.8"/>
  </exercise>)"),
                  1.0);
  // "high" held from 0.2 s on, but counts only once "low" is done, in the same step.
  EXPECT_NEAR(run.exercise->doneAt(0), fallTime(1.0), 2 * kStep);
  EXPECT_EQ(run.exercise->doneAt(1), run.exercise->doneAt(0));
  EXPECT_GT(run.first(ExerciseEvent::Kind::Completed, "e"), 0.0);
}

TEST(Exercise, AProbeLimitWarnsInItsBandThenBreaksAndAStopEndsTheExercise) {
  ExerciseRun run(ballScene(R"(<exercise name="e">
    <objective name="never" kind="cross" probe="body.ball.z" above="5"/>
    <limit name="height" kind="probe" probe="body.ball.z" min="0.5" warn="0.3" penalty="7"
           stop="true"/>
  </exercise>)"),
                  2.0);
  EXPECT_NEAR(run.first(ExerciseEvent::Kind::Warning, "height"), fallTime(1.2), 2 * kStep);
  EXPECT_NEAR(run.first(ExerciseEvent::Kind::Violation, "height"), fallTime(1.5), 2 * kStep);
  EXPECT_EQ(run.first(ExerciseEvent::Kind::Failed, "height"),
            run.first(ExerciseEvent::Kind::Violation, "height"));
  EXPECT_TRUE(run.exercise->finished());
  EXPECT_FALSE(run.exercise->passed());
  EXPECT_EQ(run.exercise->score(), -7.0);
  EXPECT_EQ(run.exercise->violations(0), 1);
}

TEST(Exercise, AContactLimitCountsEachTouchAndChargesPerSecond) {
  ExerciseRun run(ballScene(R"(<exercise name="e" time_limit="3">
    <objective name="never" kind="cross" probe="body.ball.z" above="5"/>
    <limit name="floor" kind="contact" body="ball" with="floor" penalty="10" per="second"/>
    <limit name="anything" kind="contact" body="ball" penalty="1"/>
    <limit name="pivot" kind="contact" body="ball" with="pivot" penalty="1"/>
  </exercise>)"),
                  4.0);
  const double landing = fallTime(1.9);
  EXPECT_NEAR(run.first(ExerciseEvent::Kind::Violation, "floor"), landing, 2 * kStep);
  EXPECT_EQ(run.exercise->violations(0), 1);  // it lands and stays: one touch
  EXPECT_EQ(run.exercise->violations(1), 1);
  EXPECT_EQ(run.exercise->violations(2), 0);
  // 10 points a second from landing to the time limit, and 1 for the touch of "anything".
  EXPECT_NEAR(run.exercise->penalties(), 10.0 * (3.0 - landing) + 1.0, 10.0 * 2 * kStep);
  EXPECT_NEAR(run.first(ExerciseEvent::Kind::Failed, "time"), 3.0, 1e-9);
}

TEST(Exercise, ABounceBackWithinATenthOfASecondIsTheSameTouch) {
  // Dropped 1.9 m onto a floor of restitution 0.5: it lands at 6.1 m/s and leaves at 3.05, 1.53,
  // 0.76, 0.38 and 0.19 m/s (the next impact, 0.19 m/s, is under the 0.2 m/s threshold), flying
  // 2v/g = 0.62, 0.31, 0.16, 0.078 and 0.039 s. Counted touch by touch, 7 (the last rests
  // chatter once); the touches after the last two flights come back within 0.1 s of letting go,
  // so the limit counts four.
  std::string xml = ballScene(R"(<exercise name="e" time_limit="3">
    <objective name="never" kind="cross" probe="body.ball.z" above="5"/>
    <limit name="floor" kind="contact" body="ball" with="floor" penalty="1"/>
  </exercise>)");
  xml.replace(xml.find("<world"), 0, R"(<material name="bouncy" restitution="0.5"/>
  )");
  xml.replace(xml.find(R"(<geom type="plane"/>)"), 20, R"(<geom type="plane" material="bouncy"/>)");
  xml.replace(xml.find(R"(<geom type="sphere" radius="0.1"/>)"), 33,
              R"(<geom type="sphere" radius="0.1" material="bouncy"/>)");
  ExerciseRun run(xml, 3.0);
  EXPECT_EQ(run.exercise->violations(0), 4);
  EXPECT_NEAR(run.first(ExerciseEvent::Kind::Violation, "floor"), fallTime(1.9), 2 * kStep);
}

/// Runs a shipped scene with one of its scripts for `seconds`, the exercise evaluated each step.
std::unique_ptr<ExerciseEvaluator> runScript(const std::string& scene, const std::string& script,
                                             double seconds) {
  Simulation sim(loadScene(kScenes + "/" + scene));
  auto exercise =
      std::make_unique<ExerciseEvaluator>(*sim.scene().exercise, sim.world(), &*sim.scene().scheme);
  InputScript input = InputScript::read(kScenes + "/" + script, sim.scene().console.channels());
  while (sim.world().time() < seconds - 1e-9) {
    input.apply(sim.world().time(), sim.channels());
    EXPECT_TRUE(sim.step().ok);
    exercise->afterStep(sim.world().time());
  }
  return exercise;
}

TEST(Exercise, TheDoorIsOpenedByItsScriptAndFailedByTheOthersForTheirReasons) {
  {
    const auto e = runScript("mf4-door.xml", "mf4-door.csv", 21.0);
    EXPECT_TRUE(e->passed());
    EXPECT_EQ(e->score(), 100.0);
    EXPECT_NEAR(e->doneAt(0), 0.6, 0.05);  // the door passes 30 degrees swinging at ~1 rad/s
  }
  {
    const auto e = runScript("mf4-door.xml", "mf4-door-short.csv", 21.0);
    EXPECT_FALSE(e->passed());
    EXPECT_LT(e->doneAt(0), 0.0);
    ASSERT_FALSE(e->events().empty());
    EXPECT_EQ(e->events().back().kind, ExerciseEvent::Kind::Failed);
    EXPECT_EQ(e->events().back().name, "time");
    EXPECT_NEAR(e->events().back().time, 20.0, 1e-9);
  }
  {
    const auto e = runScript("mf4-door.xml", "mf4-door-frame.csv", 21.0);
    EXPECT_FALSE(e->passed());
    EXPECT_EQ(e->violations(0), 1);  // the frame
    EXPECT_TRUE(e->hintShown(0));    // 5 s without the door open
    EXPECT_EQ(e->score(), -25.0 - 10.0);
  }
}

TEST(Exercise, AReplayedSessionReEvaluatesToTheSameEventsAndScore) {
  const auto path = std::filesystem::temp_directory_path() / "impetus_exercise_frame.session";
  std::filesystem::remove(path);
  std::vector<ExerciseEvent> live;
  double liveScore = 0.0;
  {
    Simulation sim(loadScene(kScenes + "/mf4-door.xml"));
    sim.setDeterministic(true);
    SessionRecorder recorder(path.string(), sim, {.operatorName = "trainee"});
    ExerciseEvaluator exercise(*sim.scene().exercise, sim.world(), &*sim.scene().scheme);
    InputScript input =
        InputScript::read(kScenes + "/mf4-door-frame.csv", sim.scene().console.channels());
    while (sim.world().time() < 21.0 - 1e-9) {
      input.apply(sim.world().time(), sim.channels());
      ASSERT_TRUE(sim.step().ok);
      recorder.afterStep(sim);
      exercise.afterStep(sim.world().time());
    }
    recorder.setExercise(outcomeOf(exercise));
    recorder.finish(sim);
    live = exercise.events();
    liveScore = exercise.score();
  }
  // The frame touched (how often depends on the build's rounding: contact is chaotic), the time
  // up at the end.
  ASSERT_GE(live.size(), 2u);
  EXPECT_EQ(live.front().kind, ExerciseEvent::Kind::Violation);
  EXPECT_EQ(live.front().name, "frame");
  EXPECT_EQ(live.back().kind, ExerciseEvent::Kind::Failed);
  EXPECT_EQ(live.back().name, "time");
  SessionReader reader(path.string());
  // The file keeps the outcome for the session browser, events and all.
  ASSERT_TRUE(reader.info().exercise.has_value());
  const SessionExercise& stored = *reader.info().exercise;
  EXPECT_EQ(stored.name, "door");
  EXPECT_EQ(stored.score, liveScore);
  EXPECT_TRUE(stored.finished);
  EXPECT_FALSE(stored.passed);
  ASSERT_EQ(stored.events.size(), live.size());
  for (size_t i = 0; i < live.size(); ++i) {
    EXPECT_EQ(stored.events[i].time, live[i].time);
    EXPECT_EQ(stored.events[i].kind, live[i].kind);
    EXPECT_EQ(stored.events[i].text, live[i].text);
  }
  SessionReplay replay(reader);
  Simulation& sim = replay.simulation();
  ExerciseEvaluator exercise(*sim.scene().exercise, sim.world(), &*sim.scene().scheme);
  while (replay.advance()) exercise.afterStep(sim.world().time());
  ASSERT_EQ(exercise.events().size(), live.size());
  for (size_t i = 0; i < live.size(); ++i) {
    EXPECT_EQ(exercise.events()[i].time, live[i].time);  // bit for bit
    EXPECT_EQ(exercise.events()[i].kind, live[i].kind);
    EXPECT_EQ(exercise.events()[i].name, live[i].name);
  }
  EXPECT_EQ(exercise.score(), liveScore);
}

TEST(Exercise, TheContainerGoesInTheBinByItsScriptAndIsDroppedByTheOther) {
  {
    const auto e = runScript("mf4-container.xml", "mf4-container-bin.csv", 10.0);
    EXPECT_TRUE(e->passed());
    EXPECT_EQ(e->score(), 100.0);
    EXPECT_LT(e->doneAt(0), e->doneAt(1));  // lifted, then placed
    EXPECT_EQ(e->violations(0), 0);         // the jaws never crush it
  }
  {
    const auto e = runScript("mf4-container.xml", "mf4-container-drop.csv", 10.0);
    EXPECT_TRUE(e->finished());
    EXPECT_FALSE(e->passed());
    EXPECT_GE(e->doneAt(0), 0.0);
    EXPECT_LT(e->doneAt(1), 0.0);
    EXPECT_EQ(e->violations(1), 1);  // dropped: falling faster than 1.2 m/s
    ASSERT_FALSE(e->events().empty());
    EXPECT_EQ(e->events().back().kind, ExerciseEvent::Kind::Failed);
    EXPECT_EQ(e->events().back().name, "dropped");
    EXPECT_EQ(e->score(), 40.0);  // the lift's points only
  }
}

TEST(Exercise, TheGatesCourseIsDrivenByItsScriptAndFailedByDrivingStraightOn) {
  {
    // Full speed, steering 0.6 right, left, right: the four gates in order, 12.4 s.
    const auto e = runScript("mf4-gates.xml", "mf4-gates.csv", 14.0);
    EXPECT_TRUE(e->passed());
    EXPECT_EQ(e->score(), 400.0);
    for (int g = 1; g < 4; ++g) EXPECT_LT(e->doneAt(g - 1), e->doneAt(g)) << "gate " << g;
    EXPECT_NEAR(e->doneAt(3), 12.4, 0.3);
    EXPECT_EQ(e->violations(0), 0);  // no post touched
  }
  {
    // Straight on: through the first gate, into the second's post (the arm reaches it first),
    // and the time runs out. How often it touches after that depends on the build's rounding.
    const auto e = runScript("mf4-gates.xml", "mf4-gates-straight.csv", 21.0);
    EXPECT_FALSE(e->passed());
    EXPECT_GE(e->doneAt(0), 0.0);
    for (int g = 1; g < 4; ++g) EXPECT_LT(e->doneAt(g), 0.0) << "gate " << g;
    EXPECT_GE(e->violations(0), 1);
    EXPECT_TRUE(e->hintShown(0));  // 6 s without the second gate
    ASSERT_FALSE(e->events().empty());
    EXPECT_EQ(e->events().back().kind, ExerciseEvent::Kind::Failed);
    EXPECT_EQ(e->events().back().name, "time");
    EXPECT_NEAR(e->events().back().time, 20.0, 1e-9);
  }
}

TEST(Exercise, TheHumanoidWalksItsGatesCourseByItsScriptAndTooSlowlyByTheOther) {
  testing::skipWalkerRunInSanitizedBuild();
  if (IsSkipped()) return;
  {
    // Full stick, turning left from 6 s to 9 s, stopping at 14 s: both gates, then at rest in
    // the finish square.
    const auto e = runScript("humanoid-gates.xml", "humanoid-gates.csv", 26.0);
    EXPECT_TRUE(e->passed());
    EXPECT_EQ(e->score(), 300.0);
    EXPECT_LT(e->doneAt(0), e->doneAt(1));
    EXPECT_LT(e->doneAt(1), e->doneAt(2));
    EXPECT_LT(e->doneAt(2), 20.0);
    EXPECT_EQ(e->violations(0), 0);  // no post touched
    EXPECT_EQ(e->violations(1), 0);  // never fell
  }
  {
    // The same line at 0.4 stick: still walking, short of the square, when the time is up.
    const auto e = runScript("humanoid-gates.xml", "humanoid-gates-slow.csv", 26.0);
    EXPECT_FALSE(e->passed());
    EXPECT_GE(e->doneAt(0), 0.0);
    EXPECT_LT(e->doneAt(2), 0.0);
    EXPECT_EQ(e->violations(0), 0);
    EXPECT_EQ(e->violations(1), 0);
    ASSERT_FALSE(e->events().empty());
    EXPECT_EQ(e->events().back().kind, ExerciseEvent::Kind::Failed);
    EXPECT_EQ(e->events().back().name, "time");
    EXPECT_NEAR(e->events().back().time, 25.0, 1e-9);
  }
}

struct BadExercise {
  const char* what;
  std::string exercise;
  int line;  // in the scene text ballScene() builds
  const char* says;
};

void PrintTo(const BadExercise& bad, std::ostream* os) {
  *os << bad.what;
}

class MalformedExercise : public ::testing::TestWithParam<BadExercise> {};

TEST_P(MalformedExercise, IsRefusedWithFileLineAndTheProblem) {
  const BadExercise& bad = GetParam();
  try {
    loadSceneText(ballScene(bad.exercise), "bad.xml");
    FAIL() << bad.what << ": accepted";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.line(), bad.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(bad.says), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("bad.xml:", 0), 0u) << e.what();
  }
}

// ballScene()'s <exercise> starts on line 10.
INSTANTIATE_TEST_SUITE_P(
    Exercise, MalformedExercise,
    ::testing::Values(
        BadExercise{"unknown probe",
                    "<exercise name='e'>\n<objective name='a' kind='cross' probe='body.nobody.z' "
                    "below='1'/>\n</exercise>",
                    11, "no body named 'nobody'"},
        BadExercise{
            "unknown body",
            "<exercise name='e'>\n<objective name='a' kind='rest' body='cat' centre='0 0 0' "
            "radius='1'/>\n</exercise>",
            11, "no body named 'cat'"},
        BadExercise{"unknown objective kind",
                    "<exercise name='e'>\n<objective name='a' kind='dance'/>\n</exercise>", 11,
                    "unknown objective kind 'dance'"},
        BadExercise{"negative region",
                    "<exercise name='e'>\n<objective name='a' kind='region' body='ball' "
                    "centre='0 0 0' size='1 -1 1'/>\n</exercise>",
                    11, "size must be 3 positive numbers"},
        BadExercise{"circular order",
                    "<exercise name='e'>\n<objective name='a' kind='cross' probe='body.ball.z' "
                    "below='1' after='b'/>\n<objective name='b' kind='cross' probe='body.ball.z' "
                    "below='1' after='a'/>\n</exercise>",
                    12, "circular order"},
        BadExercise{"unknown limit body",
                    "<exercise name='e'>\n<objective name='a' kind='cross' probe='body.ball.z' "
                    "below='1'/>\n<limit name='l' kind='contact' body='ball' with='wall'/>\n"
                    "</exercise>",
                    12, "no body named 'wall'"},
        BadExercise{"hint without a condition",
                    "<exercise name='e'>\n<objective name='a' kind='cross' probe='body.ball.z' "
                    "below='1'/>\n<hint name='h' text='t'/>\n</exercise>",
                    12, "needs an 'objective', a 'probe' or both"},
        BadExercise{"hint on an unknown probe",
                    "<exercise name='e'>\n<objective name='a' kind='cross' probe='body.ball.z' "
                    "below='1'/>\n<hint name='h' text='t' probe='joint.nope.rate' max='1'/>\n"
                    "</exercise>",
                    12, "no joint named 'nope'"},
        BadExercise{"no objective", "<exercise name='e'>\n</exercise>", 10,
                    "at least one <objective>"},
        BadExercise{"duplicate objective",
                    "<exercise name='e'>\n<objective name='a' kind='cross' probe='body.ball.z' "
                    "below='1'/>\n<objective name='a' kind='cross' probe='body.ball.z' "
                    "below='1'/>\n</exercise>",
                    12, "duplicate objective name 'a'"},
        BadExercise{"two exercises",
                    "<exercise name='e'>\n<objective name='a' kind='cross' probe='body.ball.z' "
                    "below='1'/>\n</exercise>\n<exercise name='f'>\n</exercise>",
                    13, "at most one <exercise>"}));

}  // namespace
}  // namespace impetus
