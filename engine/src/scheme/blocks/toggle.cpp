// toggle: out flips between 0 and 1 on each rising edge of in (a push button as an on/off switch).
#include "blocks.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
class Toggle : public Block {
 public:
  explicit Toggle(bool initial) : Block({"in"}, {"out"}), initial_(initial), state_(initial) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    const bool high = isHigh(in[0]);
    if (high && !wasHigh_) state_ = !state_;
    wasHigh_ = high;
    out[0] = state_ ? 1.0 : 0.0;
  }
  void reset() override {
    state_ = initial_;
    wasHigh_ = false;
  }

  void saveState(StateWriter& out) const override {
    out.put(state_);
    out.put(wasHigh_);
  }
  void loadState(StateReader& in) override {
    in.get(state_);
    in.get(wasHigh_);
  }

 private:
  bool initial_, state_, wasHigh_ = false;
};
}  // namespace
std::unique_ptr<Block> makeToggle(const BlockBuild& b) {
  return std::make_unique<Toggle>(b.number("initial", 0) > 0.5);
}
}  // namespace impetus::blocks
