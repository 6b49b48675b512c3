#include "impetus/session/session_replay.h"

#include <algorithm>

#include "impetus/session/state_stream.h"

namespace impetus {

SessionReplay::SessionReplay(SessionReader& reader, const std::string& scenePath)
    : reader_(reader) {
  const SessionInfo& info = reader.info();
  sim_ = std::make_unique<Simulation>(scenePath.empty() ? reader.loadEmbeddedScene()
                                                        : reader.loadSceneFromDisk(scenePath));
  if (sim_->scene().console.channels() != info.channels)
    throw SessionError(reader.path() + ": the scene's control channels differ from the recorded");
  sim_->setDeterministic(info.deterministic);
  try {
    for (const auto& [motor, u] : info.voltageOverrides) sim_->overrideVoltage(motor, u);
    for (const ScheduledPush& p : info.pushes) sim_->schedulePush(p);
  } catch (const std::invalid_argument& e) {
    throw SessionError(reader.path() + ": voltage override: " + e.what());
  }
  seek(info.firstStep);
}

void SessionReplay::seek(std::int64_t step) {
  step = std::clamp(step, reader_.info().firstStep, reader_.endStep());
  auto [at, state] = reader_.keyframeAtOrBefore(step);
  try {
    sim_->loadState(state);
  } catch (const StateError& e) {
    throw SessionError(reader_.path() + ": keyframe at step " + std::to_string(at) + ": " +
                       e.what());
  }
  if (sim_->stepIndex() != at)
    throw SessionError(reader_.path() + ": keyframe at step " + std::to_string(at) +
                       " holds step " + std::to_string(sim_->stepIndex()));
  while (position() < step) advance();
}

bool SessionReplay::advance() {
  if (atEnd()) return false;
  const StepRecord& record = reader_.stepRecord(position());
  std::copy(record.channels.begin(), record.channels.end(), sim_->channels().begin());
  const StepStatus status = sim_->step();
  if (!status.ok)
    throw SessionError(reader_.path() + ": re-simulation stopped at step " +
                       std::to_string(position()) + ": " + status.message);
  return true;
}

bool SessionReplay::matchesRecording() {
  if (position() <= reader_.info().firstStep) return true;  // the first keyframe itself
  return reader_.stepRecord(position() - 1).stateHash == stateHash(sim_->world());
}

std::optional<Divergence> SessionReplay::verify() {
  seek(reader_.info().firstStep);
  while (advance()) {
    if (!matchesRecording())
      return Divergence{position() - 1, "the state after step " + std::to_string(position() - 1) +
                                            " (t = " + std::to_string(sim_->world().time()) +
                                            " s) differs from the recording"};
    // Keyframes: the whole state, byte for byte (warm-start impulses, scheme, ...).
    const auto keyframe = reader_.keyframeAt(position());
    if (keyframe && *keyframe != sim_->saveState())
      return Divergence{position() - 1, "the full state at the keyframe of step " +
                                            std::to_string(position()) +
                                            " differs from the recording"};
  }
  return std::nullopt;
}

}  // namespace impetus
