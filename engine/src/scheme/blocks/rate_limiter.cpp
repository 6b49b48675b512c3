// rate_limiter: out follows in, changing by at most `rate` per second (soft starts).
#include <algorithm>

#include "blocks.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
class RateLimiter : public Block {
 public:
  explicit RateLimiter(double rate) : Block({"in"}, {"out"}), rate_(rate) {}
  void evaluate(const double* in, double* out, const SchemeContext& ctx) override {
    const double step = rate_ * ctx.dt;
    last_ = std::clamp(in[0], last_ - step, last_ + step);
    out[0] = last_;
  }
  void reset() override { last_ = 0.0; }

  void saveState(StateWriter& out) const override { out.put(last_); }
  void loadState(StateReader& in) override { in.get(last_); }

 private:
  double rate_;
  double last_ = 0.0;
};
}  // namespace
std::unique_ptr<Block> makeRateLimiter(const BlockBuild& b) {
  const double rate = b.number("rate");
  if (!(rate > 0.0)) b.fail("rate must be positive (units per second)");
  return std::make_unique<RateLimiter>(rate);
}
}  // namespace impetus::blocks
