#pragma once
// One physics engine behind the side-by-side benchmark: build a BenchScene, step it, report the
// bodies' states. One virtual call per step (the engines' own loops are what is timed).

#include <memory>
#include <string>
#include <vector>

#include "bench_scene.h"
#include "quality_meter.h"

namespace peers {

class PeerEngine {
 public:
  virtual ~PeerEngine() = default;
  /// Engine and variant as the table shows it, e.g. "ODE 0.16 QuickStep".
  virtual std::string label() const = 0;
  /// The settings that matter for comparison (iterations, solver, ERP...).
  virtual std::string settings() const = 0;
  /// False when the engine cannot express the scene (then it is skipped with `why`).
  virtual bool supports(const BenchScene& scene, std::string& why) const {
    (void)scene;
    (void)why;
    return true;
  }
  virtual void build(const BenchScene& scene) = 0;
  virtual void step() = 0;
  /// States of scene.bodies, in order (may run the engine's kinematics; not timed).
  virtual void read(std::vector<BodyState>& states) = 0;
  /// True once the engine itself has reported instability since build() (MuJoCo's warnings; it
  /// then resets the state, which the body states alone would not show as a divergence).
  virtual bool warned() const { return false; }
};

using PeerFactory = std::unique_ptr<PeerEngine> (*)();

}  // namespace peers
