#pragma once
// Runs a loaded scene frame by frame: each 40 ms frame performs frame/step physics steps (10 ms),
// evaluating the functional scheme with the console's channel values before every step. (On the
// GUI thread for now; the simulation thread of the operator-app issue will take this over.)

#include <span>
#include <string>
#include <vector>

#include "impetus/scene/scene_loader.h"

namespace impetus::app {

class SceneRunner {
 public:
  void setScene(LoadedScene scene);
  bool hasScene() const { return scene_.world != nullptr; }
  LoadedScene& scene() { return scene_; }
  const LoadedScene& scene() const { return scene_; }

  /// Channel values in scene().console.channels() order (joysticks, toggles, ...).
  std::vector<double>& channels() { return channels_; }
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
  LoadedScene scene_;
  std::vector<double> channels_;
  std::string failure_;
  int lastFrameSteps_ = 0;
  long long framesAdvanced_ = 0;
  double speed_ = 1.0;
  double stepCredit_ = 0.0;  ///< fractional steps owed at speeds that do not divide a frame
  bool stepOnce();
};

}  // namespace impetus::app
