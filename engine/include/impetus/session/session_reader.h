#pragma once
// Reads a session file (session_file.h). Every lookup by step goes through the chunks' B-tree
// index: O(log n) whatever the position in the recording. Damaged, truncated, foreign or newer
// files throw SessionError naming the file and the problem.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "impetus/math/types.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/session_file.h"

namespace impetus {

namespace session {
class SqliteDb;
}

/// What one recorded step was: the input frame and motor voltages it ran with, the solver's
/// iterations, and the fingerprint of the state it ended in.
struct StepRecord {
  std::vector<double> channels;  ///< SessionInfo::channels order
  std::vector<double> voltages;  ///< SessionInfo::motors order
  int iterations = 0;
  std::uint64_t stateHash = 0;
};

struct BodyPose {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
};

class SessionReader {
 public:
  explicit SessionReader(const std::string& path);
  ~SessionReader();
  SessionReader(const SessionReader&) = delete;
  SessionReader& operator=(const SessionReader&) = delete;

  const std::string& path() const { return path_; }
  const SessionInfo& info() const { return info_; }
  /// One past the last recorded step (steps are numbered from info().firstStep).
  std::int64_t endStep() const { return info_.firstStep + info_.steps; }

  /// The record of step `step` (firstStep <= step < endStep()).
  const StepRecord& stepRecord(std::int64_t step);
  /// Body poses (World body order) recorded at the frame at or before `step`, and that frame's
  /// step index; nullopt before the first recorded frame.
  std::optional<std::pair<std::int64_t, std::vector<BodyPose>>> posesAt(std::int64_t step);
  /// The latest keyframe at or before `step`: its step index and the Simulation state.
  std::pair<std::int64_t, std::vector<std::uint8_t>> keyframeAtOrBefore(std::int64_t step);
  /// The keyframe after exactly `step` steps, if one was recorded there.
  std::optional<std::vector<std::uint8_t>> keyframeAt(std::int64_t step);

  /// Loads the embedded scene (extracted to a temporary folder); throws SessionError if it is
  /// missing or does not match its recorded hash.
  LoadedScene loadEmbeddedScene();
  /// Loads a scene from disk in place of the embedded one, which it must match byte for byte
  /// (SessionError "scene changed since recording" otherwise).
  LoadedScene loadSceneFromDisk(const std::string& scenePath);

 private:
  std::string path_;
  std::unique_ptr<session::SqliteDb> db_;
  SessionInfo info_;
  // The last decoded chunks (sequential reads decode each chunk once).
  std::int64_t stepChunkFirst_ = -1, stepChunkCount_ = 0;
  std::vector<double> stepChunk_;
  StepRecord record_;
  std::int64_t poseChunkFirst_ = -1;
  std::vector<double> poseChunk_;
};

}  // namespace impetus
