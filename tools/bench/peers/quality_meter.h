#pragma once
// Engine-independent quality of a benchmark run, measured from the body states every engine
// reports after each step: joint anchor separation, hinge-axis misalignment, limit overshoot,
// energy against its start, the stack's top drift, divergence.

#include <Eigen/Geometry>
#include <vector>

#include "bench_scene.h"

namespace peers {

struct BodyState {
  Vec3 position = Vec3::Zero();  ///< centre of mass, world (m)
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  Vec3 linearVelocity = Vec3::Zero();   ///< (m/s)
  Vec3 angularVelocity = Vec3::Zero();  ///< world (rad/s)
};

struct Quality {
  double peakAnchorGap = 0.0;       ///< largest anchor separation at any step end (m)
  double peakAxisError = 0.0;       ///< largest hinge-axis misalignment (rad)
  double peakLimitOvershoot = 0.0;  ///< largest hinge angle beyond its limits (rad)
  double finalEnergyRatio = 0.0;    ///< E(end) / E(0)
  double peakEnergyRatio = 0.0;     ///< max E(t) / E(0)
  double topDrift = 0.0;            ///< stack: horizontal displacement of the top body (m)
  bool diverged = false;
  double divergedAt = 0.0;        ///< (s)
  double engineWarningAt = -1.0;  ///< first step the engine reported instability (s), or -1
};

/// The worse of two runs' qualities, figure by figure (the larger peaks, final energy and drift;
/// the earlier divergence and engine warning).
Quality worstOf(const Quality& a, const Quality& b);

class QualityMeter {
 public:
  explicit QualityMeter(const BenchScene& scene);
  /// Records the states after step `step` (1-based; call with step 0 for the initial state).
  void record(int step, const std::vector<BodyState>& states);
  const Quality& quality() const { return quality_; }
  double energy(const std::vector<BodyState>& states) const;

 private:
  const BenchScene& scene_;
  std::vector<Vec3> anchorInParent_, anchorInChild_, axisInParent_, axisInChild_;
  double initialEnergy_ = 0.0;
  Quality quality_;
};

}  // namespace peers
