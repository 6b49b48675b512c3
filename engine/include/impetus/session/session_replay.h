#pragma once
// Re-simulation of a recorded session: the embedded scene, restored from a keyframe, driven by
// the recorded input frames. In deterministic mode the states match the recording bit for bit,
// which verify() checks step by step; seek() jumps through the nearest keyframe; at any point
// simulation() can be taken over and driven live ("take control here").

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "impetus/session/session_reader.h"
#include "impetus/session/simulation.h"

namespace impetus {

struct Divergence {
  std::int64_t step = 0;  ///< the first step whose end state differs from the recording
  std::string what;
};

class SessionReplay {
 public:
  /// Loads the embedded scene (or `scenePath`, which must match it) at the first keyframe.
  explicit SessionReplay(SessionReader& reader, const std::string& scenePath = "");

  Simulation& simulation() { return *sim_; }
  /// Hands the simulation over to be driven live ("take control here"); the replay is spent.
  std::unique_ptr<Simulation> takeSimulation() { return std::move(sim_); }
  /// Steps taken (the state is that after this many steps).
  std::int64_t position() const { return sim_->stepIndex(); }
  bool atEnd() const { return position() >= reader_.endStep(); }

  /// Restores the nearest keyframe at or before `step` and re-simulates up to `step`.
  void seek(std::int64_t step);
  /// Re-simulates the next recorded step; false at the end of the recording. Throws
  /// SessionError if the simulation stops (non-finite numbers).
  bool advance();
  /// Whether the state now is the recorded one (its fingerprint).
  bool matchesRecording();

  /// Re-simulates from the start to the end, comparing every step's state fingerprint and each
  /// keyframe byte for byte; the first divergence, or nullopt when all match.
  std::optional<Divergence> verify();

 private:
  SessionReader& reader_;
  std::unique_ptr<Simulation> sim_;
};

}  // namespace impetus
