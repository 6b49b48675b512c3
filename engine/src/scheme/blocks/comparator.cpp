// comparator: out = 1 if a > b (op ">", default), a < b ("<"), with hysteresis h: once on, it stays
// on until the comparison fails by more than h (no chatter on noisy sensors).
#include "blocks.h"
#include "impetus/session/state_stream.h"

namespace impetus::blocks {
namespace {
class Comparator : public Block {
 public:
  Comparator(bool greater, double h)
      : Block({"a", "b"}, {"out"}), greater_(greater), hysteresis_(h) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    const double d = greater_ ? in[0] - in[1] : in[1] - in[0];
    on_ = on_ ? d > -hysteresis_ : d > 0.0;
    out[0] = on_ ? 1.0 : 0.0;
  }
  void reset() override { on_ = false; }

  void saveState(StateWriter& out) const override { out.put(on_); }
  void loadState(StateReader& in) override { in.get(on_); }

 private:
  bool greater_;
  double hysteresis_;
  bool on_ = false;
};
}  // namespace
std::unique_ptr<Block> makeComparator(const BlockBuild& b) {
  const std::string op = b.text("op", ">");
  if (op != ">" && op != "<") b.fail("op must be > or <");
  const double h = b.number("hysteresis", 0.0);
  if (h < 0.0) b.fail("hysteresis must be >= 0");
  return std::make_unique<Comparator>(op == ">", h);
}
}  // namespace impetus::blocks
