#include "replay_session.h"

#include <algorithm>
#include <cmath>

#include "impetus/session/session_replay.h"

namespace impetus::app {

ReplaySession::ReplaySession(const std::string& path)
    : path_(path), reader_(path), scene_(reader_.loadEmbeddedScene()) {
  stepsPerFrame_ = std::max(1, int(std::lround(info().frame / info().step)));
  seek(firstStep());
}

void ReplaySession::setPlaying(bool on) {
  playing_ = on && position_ < endStep();
  stepCredit_ = 0.0;
  lastAdvance_ = std::chrono::steady_clock::now();
}

void ReplaySession::setSpeed(double factor) {
  speed_ = std::clamp(factor, kMinSpeed, kMaxSpeed);
  stepCredit_ = 0.0;
}

void ReplaySession::seek(std::int64_t step) {
  position_ = std::clamp(step, firstStep(), endStep());
  loadPoses();
}

void ReplaySession::stepFrames(int frames) {
  playing_ = false;
  seek(position_ + std::int64_t(frames) * stepsPerFrame_);
}

void ReplaySession::advance() {
  if (!playing_) return;
  const auto now = std::chrono::steady_clock::now();
  const double wallSeconds =
      std::min(0.25, std::chrono::duration<double>(now - lastAdvance_).count());
  lastAdvance_ = now;
  stepCredit_ += speed_ * wallSeconds / info().step;
  const auto steps = std::int64_t(std::floor(stepCredit_ + 1e-9));
  stepCredit_ -= double(steps);
  seek(position_ + steps);
  if (position_ >= endStep()) playing_ = false;
}

void ReplaySession::loadPoses() {
  const auto poses = reader_.posesAt(position_);
  if (!poses) return;  // before the first frame: keep what is shown
  positions_.clear();
  orientations_.clear();
  for (const BodyPose& p : poses->second) {
    positions_.push_back(p.position);
    orientations_.push_back(p.orientation);
  }
}

std::span<const double> ReplaySession::input() {
  // The input frame in force at this moment: that of the step about to run (the last one at
  // the end of the recording).
  const std::int64_t step = std::min(position_, endStep() - 1);
  if (step < firstStep()) return {};
  input_ = reader_.stepRecord(step).channels;
  return input_;
}

std::unique_ptr<Simulation> ReplaySession::takeControl() {
  playing_ = false;
  SessionReplay replay(reader_);
  replay.seek(position_);
  return replay.takeSimulation();
}

}  // namespace impetus::app
