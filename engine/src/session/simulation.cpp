#include "impetus/session/simulation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "impetus/session/state_stream.h"

namespace impetus {

Simulation::Simulation(LoadedScene scene)
    : scene_(std::move(scene)), channels_(scene_.console.channels().size(), 0.0) {
  if (!scene_.world) throw std::invalid_argument("Simulation: the scene has no world");
}

void Simulation::overrideVoltage(const std::string& motor, double u) {
  DcMotor* m = world().findMotor(motor);
  if (!m) throw std::invalid_argument("no motor named '" + motor + "'");
  if (!std::isfinite(u)) throw std::invalid_argument("voltage of '" + motor + "' is not finite");
  overrides_.emplace_back(motor, std::clamp(u, -1.0, 1.0));
  overriddenMotors_.push_back(m);
}

void Simulation::schedulePush(const ScheduledPush& push) {
  const BodyId id = world().findBody(push.body);
  if (id < 0) throw std::invalid_argument("push: no body named '" + push.body + "'");
  if (!world().body(id).isDynamic())
    throw std::invalid_argument("push: body '" + push.body + "' does not move");
  if (!(push.time >= 0.0) || !push.impulse.allFinite())
    throw std::invalid_argument("push on '" + push.body + "': time and impulse must be finite");
  pushes_.push_back(push);
  pushSteps_.emplace_back(std::llround(push.time / scene_.step), id);
}

StepStatus Simulation::step() {
  if (scene_.scheme) scene_.scheme->step(channels_, scene_.step);
  for (size_t k = 0; k < overrides_.size(); ++k)
    overriddenMotors_[k]->setVoltage(overrides_[k].second);
  for (size_t k = 0; k < pushes_.size(); ++k)  // an impulse p is the force p / dt for one step
    if (pushSteps_[k].first == stepIndex_)
      world().body(pushSteps_[k].second).force += pushes_[k].impulse / scene_.step;
  const StepStatus status = world().step(scene_.step);
  if (status.ok) ++stepIndex_;
  return status;
}

std::vector<std::uint8_t> Simulation::saveState() const {
  StateWriter out;
  out.tag(stateTag("SIMU"));
  out.put(stepIndex_);
  out.put(std::span<const double>(channels_));
  world().saveState(out);
  out.put(scene_.scheme.has_value());
  if (scene_.scheme) scene_.scheme->saveState(out);
  return out.take();
}

void Simulation::loadState(std::span<const std::uint8_t> bytes) {
  // A state that fails half-way must not leave a half-loaded world behind.
  const std::vector<std::uint8_t> backup = saveState();
  try {
    readState(bytes);
  } catch (...) {
    readState(backup);
    throw;
  }
}

void Simulation::readState(std::span<const std::uint8_t> bytes) {
  StateReader in(bytes);
  in.expect(stateTag("SIMU"), "simulation");
  const auto stepIndex = in.get<std::int64_t>();
  if (stepIndex < 0) throw StateError("state: negative step index");
  std::vector<double> channels;
  in.get(channels, 4096);
  StateReader::requireSame(channels.size(), channels_.size(), "input channels");
  world().loadState(in);
  const bool hasScheme = in.get<bool>();
  StateReader::requireSame(hasScheme, scene_.scheme.has_value(), "schemes");
  if (scene_.scheme) scene_.scheme->loadState(in);
  if (!in.atEnd()) throw StateError("state: " + std::to_string(in.remaining()) + " bytes too many");
  stepIndex_ = stepIndex;
  channels_ = std::move(channels);
}

}  // namespace impetus
