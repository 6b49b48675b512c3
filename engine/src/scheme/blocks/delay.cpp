// delay: unit delay, out = in of the previous step (`initial` at the first). No direct
// feedthrough: it breaks algebraic loops.
#include "blocks.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
class Delay : public Block {
 public:
  explicit Delay(double initial)
      : Block({"in"}, {"out"}, false), initial_(initial), state_(initial) {}
  void evaluate(const double*, double* out, const SchemeContext&) override { out[0] = state_; }
  void update(const double* in, const SchemeContext&) override { state_ = in[0]; }
  void reset() override { state_ = initial_; }

  void saveState(StateWriter& out) const override { out.put(state_); }
  void loadState(StateReader& in) override { in.get(state_); }

 private:
  double initial_, state_;
};
}  // namespace
std::unique_ptr<Block> makeDelay(const BlockBuild& b) {
  return std::make_unique<Delay>(b.number("initial", 0.0));
}
}  // namespace impetus::blocks
