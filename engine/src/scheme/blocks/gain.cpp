// gain: out = k * in.
#include "blocks.h"

namespace impetus::blocks {
namespace {
class Gain : public Block {
 public:
  explicit Gain(double k) : Block({"in"}, {"out"}), k_(k) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    out[0] = k_ * in[0];
  }

 private:
  double k_;
};
}  // namespace
std::unique_ptr<Block> makeGain(const BlockBuild& b) {
  return std::make_unique<Gain>(b.number("k"));
}
}  // namespace impetus::blocks
