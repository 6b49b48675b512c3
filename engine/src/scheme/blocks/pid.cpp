// pid: u = clamp(kp e + I + D, min, max), e = setpoint - measurement;
//   I += ki e dt, frozen while u is saturated in the direction e pushes (anti-windup);
//   D = -kd d(measurement)/dt (on the measurement: no kick on setpoint steps), through a
//   first-order filter of time constant `filter` (s; 0 = none).
#include <algorithm>
#include <cmath>

#include "blocks.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
class Pid : public Block {
 public:
  Pid(double kp, double ki, double kd, double filter, double lo, double hi)
      : Block({"setpoint", "measurement"}, {"out"}),
        kp_(kp),
        ki_(ki),
        kd_(kd),
        filter_(filter),
        lo_(lo),
        hi_(hi) {}
  void evaluate(const double* in, double* out, const SchemeContext& ctx) override {
    const double e = in[0] - in[1];
    double rate = 0.0;
    if (started_) rate = (in[1] - previous_) / ctx.dt;
    previous_ = in[1];
    started_ = true;
    derivative_ = filter_ > 0.0
                      ? derivative_ + (rate - derivative_) * (1.0 - std::exp(-ctx.dt / filter_))
                      : rate;
    const double unsaturated = kp_ * e + integral_ - kd_ * derivative_;
    const double u = std::clamp(unsaturated, lo_, hi_);
    const bool pushingFurther = (u >= hi_ && e > 0.0) || (u <= lo_ && e < 0.0);
    if (!pushingFurther) integral_ += ki_ * e * ctx.dt;
    out[0] = u;
  }
  void reset() override {
    integral_ = derivative_ = previous_ = 0.0;
    started_ = false;
  }

  void saveState(StateWriter& out) const override {
    out.put(integral_);
    out.put(derivative_);
    out.put(previous_);
    out.put(started_);
  }
  void loadState(StateReader& in) override {
    in.get(integral_);
    in.get(derivative_);
    in.get(previous_);
    in.get(started_);
  }

 private:
  double kp_, ki_, kd_, filter_, lo_, hi_;
  double integral_ = 0.0, derivative_ = 0.0, previous_ = 0.0;
  bool started_ = false;
};
}  // namespace
std::unique_ptr<Block> makePid(const BlockBuild& b) {
  const double lo = b.number("min", -1.0), hi = b.number("max", 1.0);
  if (!(lo < hi)) b.fail("min must be below max");
  const double filter = b.number("filter", 0.0);
  if (filter < 0.0) b.fail("filter must be >= 0 (s)");
  return std::make_unique<Pid>(b.number("kp", 0.0), b.number("ki", 0.0), b.number("kd", 0.0),
                               filter, lo, hi);
}
}  // namespace impetus::blocks
