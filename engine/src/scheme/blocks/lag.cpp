// lag: first-order lag T y' + y = in, exact for input held over the step:
// y += (in - y) (1 - exp(-dt / T)).
#include <cmath>

#include "blocks.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
class Lag : public Block {
 public:
  explicit Lag(double t) : Block({"in"}, {"out"}), timeConstant_(t) {}
  void evaluate(const double* in, double* out, const SchemeContext& ctx) override {
    y_ += (in[0] - y_) * (1.0 - std::exp(-ctx.dt / timeConstant_));
    out[0] = y_;
  }
  void reset() override { y_ = 0.0; }

  void saveState(StateWriter& out) const override { out.put(y_); }
  void loadState(StateReader& in) override { in.get(y_); }

 private:
  double timeConstant_;
  double y_ = 0.0;
};
}  // namespace
std::unique_ptr<Block> makeLag(const BlockBuild& b) {
  const double t = b.number("time_constant");
  if (!(t > 0.0)) b.fail("time_constant must be positive (s)");
  return std::make_unique<Lag>(t);
}
}  // namespace impetus::blocks
