// motor: sets motor `motor`'s normalised voltage to in (clamped to [-1, 1]; NaN becomes 0 and
// the motor stops rather than the simulation). brake: engages motor `motor`'s brake while in is
// high.
#include <cmath>

#include "blocks.h"
#include "impetus/dynamics/world.h"

namespace impetus::blocks {
namespace {
DcMotor& findMotor(const BlockBuild& b) {
  const std::string name = b.qualifiedText("motor");
  DcMotor* m = b.world().findMotor(name);
  if (!m) b.fail("unknown motor '" + name + "'");
  return *m;
}
class MotorOutput : public Block {
 public:
  explicit MotorOutput(DcMotor& m) : Block({"in"}, {}), motor_(m) {}
  void evaluate(const double* in, double*, const SchemeContext&) override {
    motor_.setVoltage(std::isnan(in[0]) ? 0.0 : in[0]);
  }

 private:
  DcMotor& motor_;
};
class BrakeOutput : public Block {
 public:
  explicit BrakeOutput(DcMotor& m) : Block({"in"}, {}), motor_(m) {}
  void evaluate(const double* in, double*, const SchemeContext&) override {
    motor_.setBrake(isHigh(in[0]));
  }

 private:
  DcMotor& motor_;
};
}  // namespace
std::unique_ptr<Block> makeMotorOutput(const BlockBuild& b) {
  return std::make_unique<MotorOutput>(findMotor(b));
}
std::unique_ptr<Block> makeBrakeOutput(const BlockBuild& b) {
  DcMotor& m = findMotor(b);
  if (m.params().brakeTorque <= 0.0) b.fail("motor '" + m.name() + "' has no brake (brake_torque)");
  return std::make_unique<BrakeOutput>(m);
}
}  // namespace impetus::blocks
