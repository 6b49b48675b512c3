#include "wheel_turn.h"

#include <algorithm>
#include <cmath>

#include "impetus/session/state_stream.h"

namespace impetus::arm {

namespace {
constexpr double kAngleTolerance = 1e-9;  // rad: a phase "at" its bound
}  // namespace

void WheelTurn::reset() {
  command_ = WheelTurnCommand{};
  gripTime_ = 0.0;
  phase_ = {0.0, 0.0};
  regraspHand_ = -1;
  stage_ = Stage::Open;
  stageTime_ = 0.0;
}

bool WheelTurn::advance(int hand, double goal, double rate, double dt) {
  double& phase = phase_[static_cast<size_t>(hand)];
  const double room = goal - phase;
  const double step = std::clamp(room, -rate * dt, rate * dt);
  phase += step;
  command_.orbit[static_cast<size_t>(hand)] = axis_ * (step / dt);
  return std::abs(goal - phase) <= kAngleTolerance;
}

const WheelTurnCommand& WheelTurn::step(double turn, bool grip, const Vec3& left, const Vec3& right,
                                        double dt) {
  command_.orbit = {Vec3::Zero(), Vec3::Zero()};
  if (!grip) {  // "release": both let go, the assist forgets the wheel
    reset();
    return command_;
  }
  turn = std::isfinite(turn) ? std::clamp(turn, -1.0, 1.0) : 0.0;
  command_.grip = {true, true};
  gripTime_ += dt;

  if (command_.phase == WheelTurnPhase::Idle) {
    if (turn == 0.0 || gripTime_ < params_.closeTime) return command_;
    const Vec3 across = left - right;
    if (!(across.norm() > 0.05)) return command_;  // not two hands on one rim
    const Vec3 d = across.normalized();
    const Vec3 forward = Vec3::UnitX() - d * d.x();
    if (!(forward.norm() > 0.1)) return command_;  // the hands in line with the robot's gaze
    axis_ = -forward.normalized();
    command_.centre = 0.5 * (left + right);
    command_.angle = 0.0;
    phase_ = {0.0, 0.0};
    command_.phase = WheelTurnPhase::Holding;
  }

  if (command_.phase == WheelTurnPhase::Holding) {
    if (turn == 0.0) return command_;
    const double sign = turn > 0.0 ? 1.0 : -1.0;
    const double room = params_.span - std::max(sign * phase_[0], sign * phase_[1]);
    if (room <= kAngleTolerance) {
      // A hand at the end of its reach: regrasp, the left hand first.
      regraspHand_ = 0;
      regraspDirection_ = sign;
      stage_ = Stage::Open;
      stageTime_ = 0.0;
      command_.phase = WheelTurnPhase::RegraspLeft;
    } else {
      const double step = sign * std::min(std::abs(params_.rate * turn) * dt, room);
      for (double& phase : phase_) phase += step;
      command_.angle += step;
      command_.orbit = {axis_ * (step / dt), axis_ * (step / dt)};
      return command_;
    }
  }

  // Regrasping: one hand opens, goes back along the rim to the far end of its span, closes.
  const int hand = regraspHand_;
  const auto h = static_cast<size_t>(hand);
  stageTime_ += dt;
  switch (stage_) {
    case Stage::Open:
      command_.grip[h] = false;
      if (stageTime_ >= params_.openTime) {
        stage_ = Stage::Return;
        stageTime_ = 0.0;
      }
      break;
    case Stage::Return:
      command_.grip[h] = false;
      if (advance(hand, -regraspDirection_ * params_.span, params_.returnRate, dt)) {
        stage_ = Stage::Close;
        stageTime_ = 0.0;
      }
      break;
    case Stage::Close:
      if (stageTime_ >= params_.closeTime) {
        stage_ = Stage::Open;
        stageTime_ = 0.0;
        if (hand == 0) {
          regraspHand_ = 1;
          command_.phase = WheelTurnPhase::RegraspRight;
        } else {
          regraspHand_ = -1;
          command_.phase = WheelTurnPhase::Holding;
        }
      }
      break;
  }
  return command_;
}

void WheelTurn::saveState(StateWriter& out) const {
  out.put(command_.centre);
  out.put(command_.grip[0]);
  out.put(command_.grip[1]);
  out.put(static_cast<int>(command_.phase));
  out.put(command_.angle);
  out.put(gripTime_);
  out.put(axis_);
  out.put(phase_[0]);
  out.put(phase_[1]);
  out.put(regraspHand_);
  out.put(static_cast<int>(stage_));
  out.put(stageTime_);
  out.put(regraspDirection_);
}

void WheelTurn::loadState(StateReader& in) {
  int phase = 0, stage = 0;
  in.get(command_.centre);
  in.get(command_.grip[0]);
  in.get(command_.grip[1]);
  in.get(phase);
  in.get(command_.angle);
  in.get(gripTime_);
  in.get(axis_);
  in.get(phase_[0]);
  in.get(phase_[1]);
  in.get(regraspHand_);
  in.get(stage);
  in.get(stageTime_);
  in.get(regraspDirection_);
  if (phase < 0 || phase > 3 || stage < 0 || stage > 2 || regraspHand_ < -1 || regraspHand_ > 1)
    throw StateError("wheel_turn: corrupt state");
  command_.phase = static_cast<WheelTurnPhase>(phase);
  stage_ = static_cast<Stage>(stage);
}

}  // namespace impetus::arm
