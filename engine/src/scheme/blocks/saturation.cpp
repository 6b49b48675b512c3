// saturation: out = clamp(in, min, max) (defaults -1, 1: a normalised voltage).
#include <algorithm>

#include "blocks.h"

namespace impetus::blocks {
namespace {
class Saturation : public Block {
 public:
  Saturation(double lo, double hi) : Block({"in"}, {"out"}), lo_(lo), hi_(hi) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    out[0] = std::clamp(in[0], lo_, hi_);
  }

 private:
  double lo_, hi_;
};
}  // namespace
std::unique_ptr<Block> makeSaturation(const BlockBuild& b) {
  const double lo = b.number("min", -1.0), hi = b.number("max", 1.0);
  if (!(lo <= hi)) b.fail("min must not exceed max");
  return std::make_unique<Saturation>(lo, hi);
}
}  // namespace impetus::blocks
