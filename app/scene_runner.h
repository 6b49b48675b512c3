#pragma once
// Runs a loaded scene frame by frame: each 40 ms frame performs frame/step physics steps (10 ms)
// of a Simulation (which evaluates the functional scheme with the console's channel values
// before every step). (On the
// GUI thread for now; the simulation thread of the operator-app issue will take this over.)

#include <span>
#include <string>
#include <vector>

#include <memory>

#include "impetus/session/simulation.h"

namespace impetus::app {

class SceneRunner {
 public:
  void setScene(LoadedScene scene);
  bool hasScene() const { return sim_ != nullptr; }
  LoadedScene& scene() { return sim_->scene(); }
  const LoadedScene& scene() const { return sim_->scene(); }

  /// Channel values in scene().console.channels() order (joysticks, toggles, ...).
  std::span<double> channels() { return sim_->channels(); }
  /// One frame of physics (frame/step steps times `speed`); false (and failure() says why) once
  /// the simulation has stopped.
  bool advanceFrame();
  /// Exactly one physics step, paused or not (the operator's single step).
  bool singleStep();
  /// Sim-time speed factor, 0.25 to 4 (steps per frame scale with it; fractions carry over).
  void setSpeed(double factor);
  double speed() const { return speed_; }
  const std::string& failure() const { return failure_; }
  /// Physics steps taken in the last frame.
  int lastFrameSteps() const { return lastFrameSteps_; }
  /// Frames advanced (not paused) since the scene was set.
  long long framesAdvanced() const { return framesAdvanced_; }
  bool paused = false;

 private:
  std::unique_ptr<Simulation> sim_;
  std::string failure_;
  int lastFrameSteps_ = 0;
  long long framesAdvanced_ = 0;
  double speed_ = 1.0;
  double stepCredit_ = 0.0;  ///< fractional steps owed at speeds that do not divide a frame
  bool stepOnce();
};

}  // namespace impetus::app
