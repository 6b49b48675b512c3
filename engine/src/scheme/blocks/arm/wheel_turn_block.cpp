// wheel_turn: two hands turning a hand-wheel they hold (WheelTurn), the assisted mode of seed
// 002's valve task. Inputs `turn` (in [-1, 1], + opens: counter-clockwise as the robot sees
// it), `grip` (high: both grippers close; falling low lets go and forgets the wheel) and the two
// hands' targets `left_x left_y left_z right_x right_y right_z` (the `hand` blocks' target
// outputs, robot frame; read from the last step, so the block is not feedthrough). Outputs each
// hand's orbit `left_wx left_wy left_wz right_wx right_wy right_wz` (rad/s) about the wheel's
// centre `centre_x centre_y centre_z` (m) - for the hands' orbit inputs -, the grippers'
// commands `left_grip right_grip` (1 close), `holding` (1 while the assist has the wheel),
// `state` (0 idle, 1 holding, 2/3 regrasping with the left/right hand) and `angle` (rad, the turn
// commanded since taking hold). Parameters: see scenes/README.md ("wheel_turn").
#include "../blocks.h"
#include "wheel_turn.h"

namespace impetus::blocks {
namespace {

class WheelTurnBlock : public Block {
 public:
  explicit WheelTurnBlock(const arm::WheelTurnParams& params)
      : Block({"turn", "grip", "left_x", "left_y", "left_z", "right_x", "right_y", "right_z"},
              {"left_wx", "left_wy", "left_wz", "right_wx", "right_wy", "right_wz", "centre_x",
               "centre_y", "centre_z", "left_grip", "right_grip", "holding", "state", "angle"},
              /*feedthrough=*/false),
        turn_(params) {}

  void evaluate(const double* in, double* out, const SchemeContext& ctx) override {
    const arm::WheelTurnCommand& c = turn_.step(in[0], isHigh(in[1]), Vec3(in[2], in[3], in[4]),
                                                Vec3(in[5], in[6], in[7]), ctx.dt);
    for (int i = 0; i < 3; ++i) {
      out[i] = c.orbit[0][i];
      out[3 + i] = c.orbit[1][i];
      out[6 + i] = c.centre[i];
    }
    out[9] = c.grip[0] ? 1.0 : 0.0;
    out[10] = c.grip[1] ? 1.0 : 0.0;
    out[11] = c.phase == arm::WheelTurnPhase::Idle ? 0.0 : 1.0;
    out[12] = static_cast<double>(c.phase);
    out[13] = c.angle;
  }
  void reset() override { turn_.reset(); }
  void saveState(StateWriter& out) const override { turn_.saveState(out); }
  void loadState(StateReader& in) override { turn_.loadState(in); }

 private:
  arm::WheelTurn turn_;
};

}  // namespace

std::unique_ptr<Block> makeWheelTurn(const BlockBuild& b) {
  arm::WheelTurnParams p;
  p.rate = b.number("rate", p.rate);
  p.returnRate = b.number("return_rate", p.returnRate);
  p.span = b.number("span", p.span);
  p.openTime = b.number("open_time", p.openTime);
  p.closeTime = b.number("close_time", p.closeTime);
  if (!(p.rate > 0.0) || !(p.returnRate > 0.0)) b.fail("rate and return_rate must be > 0 (rad/s)");
  if (!(p.span > 0.0 && p.span < 3.1416)) b.fail("span must be in (0, pi) rad");
  if (!(p.openTime >= 0.0) || !(p.closeTime >= 0.0))
    b.fail("open_time and close_time must be >= 0 (s)");
  return std::make_unique<WheelTurnBlock>(p);
}

}  // namespace impetus::blocks
