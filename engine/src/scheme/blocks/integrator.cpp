// integrator: out = state; state += k * in * dt after the step, clamped to [min, max]. No direct
// feedthrough, so it may close a loop.
#include <algorithm>

#include "blocks.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
class Integrator : public Block {
 public:
  Integrator(double k, double lo, double hi, double initial)
      : Block({"in"}, {"out"}, false),
        k_(k),
        lo_(lo),
        hi_(hi),
        initial_(initial),
        state_(initial) {}
  void evaluate(const double*, double* out, const SchemeContext&) override { out[0] = state_; }
  void update(const double* in, const SchemeContext& ctx) override {
    state_ = std::clamp(state_ + k_ * in[0] * ctx.dt, lo_, hi_);
  }
  void reset() override { state_ = initial_; }

  void saveState(StateWriter& out) const override { out.put(state_); }
  void loadState(StateReader& in) override { in.get(state_); }

 private:
  double k_, lo_, hi_, initial_, state_;
};
}  // namespace
std::unique_ptr<Block> makeIntegrator(const BlockBuild& b) {
  const double lo = b.number("min", -1e300), hi = b.number("max", 1e300);
  if (!(lo <= hi)) b.fail("min must not exceed max");
  const double initial = b.number("initial", 0.0);
  if (initial < lo || initial > hi) b.fail("initial lies outside [min, max]");
  return std::make_unique<Integrator>(b.number("k", 1.0), lo, hi, initial);
}
}  // namespace impetus::blocks
