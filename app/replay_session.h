#pragma once
// A recorded session being replayed in the window: kinematic playback of the recorded poses
// (the exact picture of what happened) at x0.25 to x8, with seeks and frame steps, the recorded
// input frame at each moment (the console shows what the operator did), and "take control here":
// the state at the current moment re-simulated from the nearest keyframe, handed over live.

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "impetus/session/session_reader.h"
#include "impetus/session/simulation.h"

namespace impetus::app {

class ReplaySession {
 public:
  static constexpr double kMinSpeed = 0.25, kMaxSpeed = 8.0;

  /// Opens the file (throws SessionError) and loads its embedded scene.
  explicit ReplaySession(const std::string& path);

  const SessionInfo& info() const { return reader_.info(); }
  const std::string& path() const { return path_; }  ///< the session file
  /// The embedded scene as recorded (its world is at the recording's start: geoms, console).
  const LoadedScene& scene() const { return scene_; }
  std::int64_t firstStep() const { return info().firstStep; }
  std::int64_t endStep() const { return reader_.endStep(); }
  std::int64_t position() const { return position_; }
  double time() const { return double(position_) * info().step; }  ///< (s)
  int stepsPerFrame() const { return stepsPerFrame_; }

  bool playing() const { return playing_; }
  void setPlaying(bool on);
  double speed() const { return speed_; }
  void setSpeed(double factor);
  /// Jumps to a step (clamped to the recording); O(log n).
  void seek(std::int64_t step);
  /// One frame forward or back (paused).
  void stepFrames(int frames);
  /// Advances by the wall time since play started or the last advance, at the playback speed
  /// (paced by the clock, not by frames, so slow frames do not slow the replay; a stall longer
  /// than a quarter second does not jump ahead); stops at the end.
  void advance();

  /// Recorded body poses at the current position (World body order).
  std::span<const Vec3> positions() const { return positions_; }
  std::span<const Quat> orientations() const { return orientations_; }
  /// The input frame the operator gave at the current position (console channel order).
  std::span<const double> input();

  /// The simulation at the current position, re-simulated from the keyframe at or before it with
  /// the recorded inputs; to be driven live. Throws SessionError.
  std::unique_ptr<Simulation> takeControl();

 private:
  void loadPoses();
  std::string path_;
  SessionReader reader_;
  LoadedScene scene_;
  std::int64_t position_ = 0;
  int stepsPerFrame_ = 4;
  bool playing_ = false;
  double speed_ = 1.0;
  double stepCredit_ = 0.0;
  std::chrono::steady_clock::time_point lastAdvance_;
  std::vector<Vec3> positions_;
  std::vector<Quat> orientations_;
  std::vector<double> input_;
};

}  // namespace impetus::app
