#include "scene_runner.h"

#include <cmath>

namespace impetus::app {

void SceneRunner::setScene(LoadedScene scene) {
  scene_ = std::move(scene);
  channels_.assign(scene_.console.channels().size(), 0.0);
  failure_.clear();
}

bool SceneRunner::advanceFrame() {
  lastFrameSteps_ = 0;
  if (!hasScene() || !failure_.empty()) return failure_.empty();
  if (paused) return true;
  const int steps = std::max(1, static_cast<int>(std::lround(scene_.frame / scene_.step)));
  for (int i = 0; i < steps; ++i) {
    if (scene_.scheme) scene_.scheme->step(channels_, scene_.step);
    const StepStatus status = scene_.world->step(scene_.step);
    ++lastFrameSteps_;
    if (!status.ok) {
      failure_ = status.message;
      return false;
    }
  }
  return true;
}

}  // namespace impetus::app
