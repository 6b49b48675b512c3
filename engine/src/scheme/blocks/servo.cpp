// servo: a joint position servo, as the motor's amplifier closes it (DcMotor::setServo): the
// drive's voltage becomes u = kp (q_ref - q) + kd (qd_ref - qd), saturated at +-1, evaluated at
// the end of each step. q_ref is the `position` input (rad or m, the position the joint should
// reach at the end of the step); qd_ref is the `rate` input when wired, otherwise the setpoint's
// change over the last step. An optional `enable` input, while low, relaxes the drive (u = 0:
// the shorted motor only damps). An optional `squeeze` input, while non-zero, puts the amplifier
// in torque mode instead: the drive's torque is `squeeze` times its stall torque whatever its
// speed - u = squeeze + w_m / w_0 from the rotor's speed at the step's start, saturated at +-1 -
// so a gripper closes fast and presses on what it holds with a set force.
#include <algorithm>
#include <cmath>

#include "blocks.h"
#include "impetus/dynamics/world.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
bool drivesAJoint(const World& world, const DcMotor& motor) {
  for (int j = 0; j < world.jointCount(); ++j)
    for (const DriveCoupling& d : world.joint(j).drives())
      if (d.motor == &motor && d.primary) return true;
  return false;
}

class Servo : public Block {
 public:
  Servo(std::vector<std::string> inputs, DcMotor& motor, double kp, double kd, bool hasRate,
        bool hasEnable, bool hasSqueeze)
      : Block(std::move(inputs), {}),
        motor_(motor),
        kp_(kp),
        kd_(kd),
        hasRate_(hasRate),
        hasEnable_(hasEnable),
        hasSqueeze_(hasSqueeze) {}

  void evaluate(const double* in, double*, const SchemeContext& ctx) override {
    const double position = in[0];
    const int enableInput = hasRate_ ? 2 : 1;
    const bool enabled = !hasEnable_ || isHigh(in[enableInput]);
    if (!enabled || !std::isfinite(position)) {
      motor_.setVoltage(0.0);
      started_ = false;
      return;
    }
    const double squeeze = hasSqueeze_ ? in[enableInput + (hasEnable_ ? 1 : 0)] : 0.0;
    if (std::isfinite(squeeze) && squeeze != 0.0) {
      // Torque mode: the back-EMF the rotor's speed raises is added back to the voltage.
      const double u =
          std::clamp(squeeze, -1.0, 1.0) + motor_.speed() / motor_.params().noLoadSpeed;
      motor_.setVoltage(std::clamp(u, -1.0, 1.0));
      started_ = false;
      return;
    }
    double rate = 0.0;
    if (hasRate_)
      rate = std::isfinite(in[1]) ? in[1] : 0.0;
    else if (started_)
      rate = (position - previous_) / ctx.dt;
    motor_.setServo({position, rate, kp_, kd_});
    previous_ = position;
    started_ = true;
  }
  void update(const double*, const SchemeContext&) override {}
  void reset() override { started_ = false; }
  void saveState(StateWriter& out) const override {
    out.put(previous_);
    out.put(started_);
  }
  void loadState(StateReader& in) override {
    in.get(previous_);
    in.get(started_);
  }

 private:
  DcMotor& motor_;
  double kp_, kd_;
  bool hasRate_, hasEnable_, hasSqueeze_;
  double previous_ = 0.0;
  bool started_ = false;
};
}  // namespace

std::unique_ptr<Block> makeServo(const BlockBuild& b) {
  const std::string name = b.qualifiedText("motor");
  DcMotor* motor = b.world().findMotor(name);
  if (!motor) b.fail("unknown motor '" + name + "'");
  if (!drivesAJoint(b.world(), *motor)) b.fail("motor '" + name + "' drives no joint (a track)");
  if (motor->params().electricalTimeConstant > 0.001)
    b.fail("motor '" + name +
           "': a servo needs electrical_time_constant <= 1 ms (the loop neglects the lag)");
  const double kp = b.number("kp"), kd = b.number("kd", 0.0);
  if (kp < 0.0 || kd < 0.0) b.fail("kp and kd must be >= 0");
  const bool hasRate = b.desc().inputs.count("rate") > 0;
  const bool hasEnable = b.desc().inputs.count("enable") > 0;
  std::vector<std::string> inputs{"position"};
  if (hasRate) inputs.emplace_back("rate");
  if (hasEnable) inputs.emplace_back("enable");
  const bool hasSqueeze = b.desc().inputs.count("squeeze") > 0;
  if (hasSqueeze) inputs.emplace_back("squeeze");
  return std::make_unique<Servo>(std::move(inputs), *motor, kp, kd, hasRate, hasEnable, hasSqueeze);
}
}  // namespace impetus::blocks
