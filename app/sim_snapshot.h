#pragma once
// What the simulation thread hands the GUI after each batch of steps: enough to draw a frame, fill
// the status bar, the console's lamps and readouts, and the debug overlays. Plain values, copied.

#include <cstdint>
#include <string>
#include <vector>

#include "impetus/exercise/exercise_evaluator.h"
#include "impetus/math/types.h"
#include "impetus/render/debug_overlay.h"

namespace impetus::app {

using render::ContactMark;
using render::JointMark;

/// The scene's exercise as the trainee sees it: the checklist, the limits, the score, the events.
struct ExerciseStatus {
  bool present = false;  ///< the scene sets an exercise
  std::string title;
  double timeLimit = 0.0;  ///< (s); 0: none
  double passMark = 0.0;
  struct Objective {
    std::string text;
    double weight = 0.0;
    double doneAt = -1.0;  ///< (s); negative: not yet
  };
  struct Limit {
    std::string text;
    bool violated = false, warned = false;
    int violations = 0;
  };
  std::vector<Objective> objectives;
  std::vector<Limit> limits;
  double score = 0.0, penalties = 0.0;
  bool finished = false, passed = false;
  std::vector<ExerciseEvent> events;
};

struct Snapshot {
  std::uint64_t serial = 0;  ///< increases with every publication
  double time = 0.0;         ///< sim time (s)
  std::int64_t stepIndex = 0;
  std::vector<Vec3> positions;      ///< per body (World order), centre of mass (m)
  std::vector<Quat> orientations;   ///< per body
  std::vector<double> motorAngles;  ///< per motor (World order), rotor angle (rad): tracks' treads
  /// Console controls in ConsoleDesc order: a lamp's or readout's value (0 for other kinds).
  std::vector<double> indicators;
  std::vector<char> lightsOn;           ///< per scene light (LoadedScene::lights): switched on
  std::vector<ContactMark> contacts;    ///< only while overlays are shown
  std::vector<JointMark> joints;        ///< only while overlays are shown
  render::BalanceMarks balance;         ///< only while overlays are shown
  std::vector<render::HandMark> hands;  ///< only while overlays are shown
  // Cost of the physics (status bar).
  int iterations = 0;                   ///< velocity iterations of the last step
  int contactCount = 0;                 ///< contact points of the last step
  int sleepingBodies = 0;               ///< bodies asleep (SleepSettings)
  double physicsSecondsPerFrame = 0.0;  ///< wall time of the last frame's steps (s)
  long long lateSteps = 0;  ///< steps dropped because the thread fell behind the wall clock
  bool paused = false;
  double speed = 1.0;
  std::string failure;  ///< why the simulation stopped, empty while it runs
  // Recording.
  bool recording = false;
  double recordedSeconds = 0.0;
  std::string recordingPath;
  std::string recordingError;  ///< the last recorder failure (the recording was closed)
  ExerciseStatus exercise;
};

}  // namespace impetus::app
