#pragma once
// A loaded scene being simulated: the input frame (console channels) goes through the functional
// scheme into motor voltages, then the world steps. The one stepping loop the CLI, the recorder,
// the replayer, the tests and the operator app share, and the unit of full-state save/restore.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "impetus/scene/scene_loader.h"
#include "impetus/session/push.h"

namespace impetus {

class Simulation {
 public:
  explicit Simulation(LoadedScene scene);

  LoadedScene& scene() { return scene_; }
  const LoadedScene& scene() const { return scene_; }
  World& world() { return *scene_.world; }
  const World& world() const { return *scene_.world; }
  double stepSize() const { return scene_.step; }  ///< (unit: s)
  /// Steps taken since t = 0 (restored with the state).
  std::int64_t stepIndex() const { return stepIndex_; }

  /// The input frame in scene().console.channels() order; the next step reads it.
  std::span<double> channels() { return channels_; }
  std::span<const double> channels() const { return channels_; }
  /// Fixed iteration counts (bit-exact re-simulation) instead of tolerance/time-budget stops.
  void setDeterministic(bool on) { world().settings().solver.deterministic = on; }
  bool deterministic() const { return world().settings().solver.deterministic; }
  /// Holds a motor's voltage at `u` whatever the scheme says (CLI --voltage); throws
  /// std::invalid_argument for an unknown motor.
  void overrideVoltage(const std::string& motor, double u);
  const std::vector<std::pair<std::string, double>>& voltageOverrides() const { return overrides_; }
  /// Schedules an impulse on a body's centre of mass (applied as a force over the step that
  /// starts at push.time); throws std::invalid_argument for an unknown or static body.
  void schedulePush(const ScheduledPush& push);
  const std::vector<ScheduledPush>& pushes() const { return pushes_; }

  /// One physics step: scheme, overrides, World::step.
  StepStatus step();

  /// The full state (world, scheme, input frame, step index): loading it into a Simulation of
  /// the same scene continues bit for bit. loadState throws StateError on a bad state and then
  /// leaves the simulation as it was.
  std::vector<std::uint8_t> saveState() const;
  void loadState(std::span<const std::uint8_t> bytes);

 private:
  void readState(std::span<const std::uint8_t> bytes);
  LoadedScene scene_;
  std::vector<double> channels_;
  std::vector<std::pair<std::string, double>> overrides_;
  std::vector<DcMotor*> overriddenMotors_;
  std::vector<ScheduledPush> pushes_;
  std::vector<std::pair<std::int64_t, BodyId>> pushSteps_;  ///< step index and body, per push
  std::int64_t stepIndex_ = 0;
};

}  // namespace impetus
