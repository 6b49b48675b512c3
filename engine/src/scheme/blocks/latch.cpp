// latch: set-reset flip-flop; out = 1 after set goes high, 0 after reset goes high (reset wins).
#include "blocks.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
class Latch : public Block {
 public:
  Latch() : Block({"set", "reset"}, {"out"}) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    if (isHigh(in[0])) state_ = true;
    if (isHigh(in[1])) state_ = false;
    out[0] = state_ ? 1.0 : 0.0;
  }
  void reset() override { state_ = false; }

  void saveState(StateWriter& out) const override { out.put(state_); }
  void loadState(StateReader& in) override { in.get(state_); }

 private:
  bool state_ = false;
};
}  // namespace
std::unique_ptr<Block> makeLatch(const BlockBuild&) {
  return std::make_unique<Latch>();
}
}  // namespace impetus::blocks
