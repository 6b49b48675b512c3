#pragma once
// Two hands turning a hand-wheel they hold (seed 002's valve task), the assisted mode an
// operator starts once both grippers have closed on the rim. The wheel is taken as the circle
// through both grasp points: centred between them, its axis the robot's forward direction made
// square to the line between the hands (the wheel faces the robot). Turning orbits both hands'
// targets along that circle; a hand that has gone `span` from where it took hold has run out of
// comfortable reach, and the hands regrasp one at a time - open, go back along the rim open,
// close - while the other holds the wheel. Everything is in the robot (floating base) frame, as
// the hands' targets are.

#include <array>

#include "impetus/math/types.h"

namespace impetus {
class StateWriter;
class StateReader;
}  // namespace impetus

namespace impetus::arm {

struct WheelTurnParams {
  double rate = 0.4;        ///< the wheel's speed at full command (unit: rad/s)
  double returnRate = 0.5;  ///< of an open hand going back along the rim (unit: rad/s)
  double span = 0.7;        ///< a hand's travel each way from where it first took hold (rad)
  double openTime = 0.3;    ///< a gripper's time to let go (unit: s)
  double closeTime = 0.4;   ///< and to take hold, before the wheel is driven (unit: s)
};

enum class WheelTurnPhase { Idle = 0, Holding = 1, RegraspLeft = 2, RegraspRight = 3 };

struct WheelTurnCommand {
  std::array<Vec3, 2> orbit{Vec3::Zero(), Vec3::Zero()};  ///< left, right (rad/s, robot frame)
  Vec3 centre = Vec3::Zero();                             ///< the wheel's (m, robot frame)
  std::array<bool, 2> grip{false, false};                 ///< close the gripper
  WheelTurnPhase phase = WheelTurnPhase::Idle;
  double angle = 0.0;  ///< the turn commanded since taking hold (rad, + opening: CCW as seen
                       ///< by the robot)
};

class WheelTurn {
 public:
  explicit WheelTurn(const WheelTurnParams& params) : params_(params) {}

  /// One step: `turn` in [-1, 1] (+ opens), `grip` the operator's close-both command, `left` and
  /// `right` the hands' targets (m, robot frame).
  const WheelTurnCommand& step(double turn, bool grip, const Vec3& left, const Vec3& right,
                               double dt);

  void reset();
  void saveState(StateWriter& out) const;
  void loadState(StateReader& in);

 private:
  enum class Stage { Open = 0, Return = 1, Close = 2 };
  /// Moves hand h's phase towards `goal` by at most `rate` dt; returns true on arrival.
  bool advance(int hand, double goal, double rate, double dt);

  WheelTurnParams params_;
  WheelTurnCommand command_;
  double gripTime_ = 0.0;          ///< how long the grippers have been told to close (s)
  Vec3 axis_ = Vec3::UnitX();      ///< the wheel's, towards the robot (robot frame)
  std::array<double, 2> phase_{};  ///< each hand's angle along the rim from its first hold
  int regraspHand_ = -1;           ///< the hand regrasping (0 left, 1 right), or -1
  Stage stage_ = Stage::Open;      ///< of the regrasp
  double stageTime_ = 0.0;         ///< in that stage (s)
  double regraspDirection_ = 1.0;  ///< the turn's sign the regrasp makes room for
};

}  // namespace impetus::arm
