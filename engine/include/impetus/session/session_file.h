#pragma once
// Session files (`*.session`): what an instructor records and replays. One SQLite database
// (crash-safe: each second is its own committed transaction in write-ahead-log mode; seekable:
// chunks are keyed by (kind, first step) in a B-tree) holding
//   meta    key/value: format, version, created, operator, scene name/file/hash, step, frame,
//           deterministic, channels, motors, bodies, voltage overrides, end reason, and the
//           exercise's outcome when the scene sets one (exercise, exercise_score,
//           exercise_result, exercise_events)
//   files   the scene and every file it includes, embedded (zstd)
//   chunks  kind 1: per-step records (input frame, motor voltages, solver iterations, state
//           hash), kind 2: body poses at frame rate, kind 3: full-state keyframes (every second);
//           each zstd-compressed with a checksum, doubles byte-shuffled.
// Format and sizes: scenes/README.md, "Session files".

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "impetus/exercise/exercise_evaluator.h"
#include "impetus/session/push.h"

namespace impetus {

class World;

/// A session file that cannot be written or read: what() names the file and the problem.
class SessionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr int kSessionFormatVersion = 1;

/// A recorded exercise's outcome as its evaluator stood when the recording ended (a replay
/// re-evaluates the same: impetus-sim report).
struct SessionExercise {
  std::string name;
  double score = 0.0;
  bool finished = false, passed = false;
  std::vector<ExerciseEvent> events;
};

/// The outcome of `exercise` as it stands.
SessionExercise outcomeOf(const ExerciseEvaluator& exercise);

struct SessionInfo {
  int version = 0;
  std::string created;  ///< ISO 8601, UTC
  std::string operatorName;
  std::string sceneName;
  std::string sceneFile;  ///< as given when recording
  std::string sceneHash;  ///< FNV-1a 64 of the embedded files, hex
  double step = 0.01;     ///< (unit: s)
  double frame = 0.04;    ///< (unit: s)
  bool deterministic = false;
  std::vector<std::string> channels, motors, bodies;
  std::vector<std::pair<std::string, double>> voltageOverrides;
  std::vector<ScheduledPush> pushes;  ///< impulses scheduled on bodies (CLI --push)
  std::int64_t firstStep = 0;  ///< step index the recording starts at (> 0 after a take-over)
  std::int64_t steps = 0;      ///< steps recorded (whole chunks on disk)
  std::string endReason;       ///< "complete", "stopped: ...", or empty if the recorder died
  std::optional<SessionExercise> exercise;  ///< none: the scene sets none, or it was not stored
  double duration() const { return static_cast<double>(steps) * step; }  ///< (unit: s)
};

/// A 64-bit digest of the world's dynamic state (poses, velocities, momenta, rotor states): the
/// per-step fingerprint a re-simulation is checked against.
std::uint64_t stateHash(const World& world);

}  // namespace impetus
