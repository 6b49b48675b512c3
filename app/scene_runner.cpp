#include "scene_runner.h"

#include <algorithm>
#include <cmath>

namespace impetus::app {

void SceneRunner::setScene(LoadedScene scene) {
  sim_ = std::make_unique<Simulation>(std::move(scene));
  failure_.clear();
  framesAdvanced_ = 0;
  stepCredit_ = 0.0;
}

void SceneRunner::setSpeed(double factor) {
  speed_ = std::clamp(factor, 0.25, 4.0);
  stepCredit_ = 0.0;
}

bool SceneRunner::stepOnce() {
  const StepStatus status = sim_->step();
  ++lastFrameSteps_;
  if (!status.ok) failure_ = status.message;
  return status.ok;
}

bool SceneRunner::singleStep() {
  lastFrameSteps_ = 0;
  if (!hasScene() || !failure_.empty()) return failure_.empty();
  return stepOnce();
}

bool SceneRunner::advanceFrame() {
  lastFrameSteps_ = 0;
  if (!hasScene() || !failure_.empty()) return failure_.empty();
  if (paused) return true;
  ++framesAdvanced_;
  stepCredit_ += speed_ * scene().frame / scene().step;
  const int steps = static_cast<int>(std::floor(stepCredit_ + 1e-9));
  stepCredit_ -= steps;
  for (int i = 0; i < steps; ++i)
    if (!stepOnce()) return false;
  return true;
}

}  // namespace impetus::app
