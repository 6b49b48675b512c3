#pragma once
// The simulation thread (ARCHITECTURE.md, "One frame, end to end"): steps a Simulation at its
// fixed step, paced against the wall clock at the chosen speed, reading the latest input frame
// before every step and publishing a Snapshot after every batch. The GUI thread never steps
// physics; a stalled GUI neither stalls nor distorts the simulation. A recorder, when running,
// records every step on this thread; a simulation that stops (non-finite numbers) finishes its
// recording with the reason.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "impetus/probes/probe.h"
#include "impetus/session/session_recorder.h"
#include "impetus/session/simulation.h"
#include "sim_snapshot.h"

namespace impetus::app {

/// One step's values of the plotted probes.
struct ProbeSample {
  double time = 0.0;  ///< (s)
  std::vector<double> values;
};

class SimulationThread {
 public:
  static constexpr double kMinSpeed = 0.25, kMaxSpeed = 4.0;

  SimulationThread();
  ~SimulationThread();
  SimulationThread(const SimulationThread&) = delete;
  SimulationThread& operator=(const SimulationThread&) = delete;

  /// Runs `sim` from now on (a running one is stopped first, its recording finished).
  void start(std::unique_ptr<Simulation> sim, bool paused = false);
  /// Stops the thread and hands the simulation back (nullptr if none ran). A recording is
  /// finished ("complete").
  std::unique_ptr<Simulation> stop();
  bool hasSimulation() const { return hasSimulation_; }

  /// The input frame the next step reads (scene console channel order; extra values ignored).
  void setInput(std::span<const double> channels);
  void setPaused(bool paused);
  /// One step while paused (queued; several calls make several steps).
  void requestStep();
  /// Sim time per wall time, clamped to [kMinSpeed, kMaxSpeed].
  void setSpeed(double factor);

  /// The latest published state (a copy).
  Snapshot snapshot() const;

  /// Whether snapshots carry contact points and joint axes (only the debug overlays draw them).
  void setOverlayData(bool on) { overlayData_ = on; }

  /// The probes sampled after every step (throws std::invalid_argument naming an unknown one).
  void setPlotProbes(const std::vector<std::string>& names);
  /// Samples gathered since the last call (at most the last 60 s).
  std::vector<ProbeSample> takeSamples();

  /// Starts recording to `path` from the current step (throws SessionError); the solver runs in
  /// deterministic mode while recording so that the session re-simulates bit for bit.
  void startRecording(const std::string& path, const RecordingOptions& options);
  /// Finishes the recording ("complete"); its path, or empty if none was running.
  std::string stopRecording();

  /// The perturbation tool: from the next step on, `body` is pulled towards `target` (world, m)
  /// by a spring on its centre of mass - stiffness and damping scaled by the mass it is jointed
  /// to (a 1 Hz, critically damped pull), the force capped at twice that mass's weight - each
  /// step's pull given as a push (Simulation::schedulePush), so a recording keeps it. A negative
  /// body releases it.
  void setPerturbation(BodyId body, const Vec3& target);

  /// Runs `f` on the simulation between two steps (the thread waits). Nothing if none runs.
  void withSimulation(const std::function<void(Simulation&)>& f);

 private:
  using Clock = std::chrono::steady_clock;
  void run();
  bool stepOnce();  ///< with stepMutex_ held
  void publish();   ///< with stepMutex_ held
  void resolveIndicators();
  void fillExercise(ExerciseStatus& out) const;
  void finishRecording(const std::string& reason);
  void reanchor();

  std::unique_ptr<Simulation> sim_;
  std::thread thread_;
  std::atomic<bool> quit_{false};
  std::atomic<bool> hasSimulation_{false};
  std::atomic<bool> overlayData_{false};

  // Commands from the GUI (guarded by commandMutex_).
  mutable std::mutex commandMutex_;
  std::condition_variable wake_;
  std::vector<double> input_;
  bool paused_ = false;
  int stepRequests_ = 0;
  BodyId perturbBody_ = -1;
  Vec3 perturbTarget_ = Vec3::Zero();
  double perturbMass_ = 0.0;  ///< the mass jointed to the pulled body (kg)
  double speed_ = 1.0;
  bool reanchorRequested_ = true;

  // Held while stepping and by withSimulation().
  std::mutex stepMutex_;
  std::unique_ptr<SessionRecorder> recorder_;
  /// The scene's exercise, evaluated after every step from the start (none: null).
  std::unique_ptr<ExerciseEvaluator> exercise_;
  std::int64_t recordingFirstStep_ = 0;
  std::string recordingError_;
  std::vector<Probe> plotProbes_;
  std::vector<ProbeSample> samples_;  ///< guarded by samplesMutex_
  std::mutex samplesMutex_;
  std::vector<std::function<double()>> indicators_;     ///< per console control (null: none)
  std::vector<std::function<double()>> lightSwitches_;  ///< per scene light: its signal
  std::vector<double> frameStepSeconds_;                ///< the last frame's step times (ring)
  size_t frameStepCursor_ = 0;
  std::string failure_;
  std::atomic<long long> lateSteps_{0};  ///< written by the thread, published by either

  // Pacing (thread only).
  Clock::time_point anchorWall_;
  std::int64_t anchorStep_ = 0;
  double anchorSpeed_ = 1.0;

  mutable std::mutex snapshotMutex_;
  Snapshot snapshot_;
  std::uint64_t serial_ = 0;
};

}  // namespace impetus::app
