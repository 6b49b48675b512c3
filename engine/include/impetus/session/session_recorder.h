#pragma once
// Records a Simulation into a session file (session_file.h): call afterStep() after every
// successful step, finish() at the end. Every `keyframeInterval` of simulated time the pending
// step records and poses and a full-state keyframe are committed in one transaction, so a
// process killed at any moment leaves a file that opens with at most that interval lost.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "impetus/session/session_file.h"
#include "impetus/session/simulation.h"

namespace impetus {

namespace session {
class SqliteDb;
enum class ChunkKind : std::int64_t;
}  // namespace session

struct RecordingOptions {
  std::string operatorName;
  double keyframeInterval = 1.0;  ///< (unit: s) also the commit interval
  int compressionLevel = 3;       ///< zstd level
};

class SessionRecorder {
 public:
  /// Creates `path` (replacing an existing file), embeds the scene files and writes the initial
  /// keyframe of `sim` (which may be at any step: a take-over records from there). Throws
  /// SessionError.
  SessionRecorder(const std::string& path, const Simulation& sim, RecordingOptions options = {});
  /// Commits what is pending (endReason "aborted" unless finish() was called).
  ~SessionRecorder();
  SessionRecorder(const SessionRecorder&) = delete;
  SessionRecorder& operator=(const SessionRecorder&) = delete;

  /// Records the step just taken: its input frame, voltages, iterations, the new state's hash,
  /// the poses at frame boundaries, and a keyframe every keyframeInterval.
  void afterStep(const Simulation& sim);
  /// Commits the rest, records why the session ended ("complete", "stopped: ...") and turns the
  /// file into a single self-contained database.
  void finish(const Simulation& sim, const std::string& endReason = "complete");

  /// Stores the exercise's outcome (the last call wins; call it before finish()).
  void setExercise(const SessionExercise& exercise);

  const std::string& path() const { return path_; }

 private:
  /// Writes the pending steps and poses, and a keyframe of `keyframeOf` unless null, in one
  /// transaction.
  void commit(const Simulation* keyframeOf);
  void writeKeyframe(const Simulation& sim);
  void insertChunk(session::ChunkKind kind, std::int64_t firstStep, std::int64_t count,
                   const std::vector<std::uint8_t>& data);
  std::string path_;
  RecordingOptions options_;
  std::unique_ptr<session::SqliteDb> db_;
  int stepsPerKeyframe_ = 100;
  int stepsPerFrame_ = 4;
  size_t poseRowWidth_ = 1;  ///< step index + 7 per body
  std::int64_t firstPendingStep_ = 0;
  std::int64_t committedSteps_ = 0;
  int pendingSteps_ = 0;
  std::vector<double> stepRows_;  ///< pending per-step records, row after row
  std::vector<double> poseRows_;  ///< pending poses: step index, then 7 per body
  /// Pushes scheduled while recording (an instructor's, from the GUI) go into the session's
  /// meta with the next commit, so that a replay applies them too.
  std::vector<ScheduledPush> pushes_;
  bool pushesChanged_ = false;
  bool finished_ = false;
};

}  // namespace impetus
