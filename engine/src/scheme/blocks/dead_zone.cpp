// deadzone: 0 for |in| <= width, else in shifted toward 0 by width and rescaled so that +-1 maps
// to +-1 (a joystick's centre play removed without a jump).
#include <cmath>

#include "blocks.h"

namespace impetus::blocks {
namespace {
class DeadZone : public Block {
 public:
  explicit DeadZone(double w) : Block({"in"}, {"out"}), width_(w) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    const double x = in[0];
    out[0] = std::abs(x) <= width_ ? 0.0 : (x - std::copysign(width_, x)) / (1.0 - width_);
  }

 private:
  double width_;
};
}  // namespace
std::unique_ptr<Block> makeDeadZone(const BlockBuild& b) {
  const double w = b.number("width");
  if (!(w >= 0.0 && w < 1.0)) b.fail("width must be in [0, 1)");
  return std::make_unique<DeadZone>(w);
}
}  // namespace impetus::blocks
