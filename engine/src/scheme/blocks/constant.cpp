// constant: out = value.
#include "blocks.h"

namespace impetus::blocks {
namespace {
class Constant : public Block {
 public:
  explicit Constant(double v) : Block({}, {"out"}), value_(v) {}
  void evaluate(const double*, double* out, const SchemeContext&) override { out[0] = value_; }

 private:
  double value_;
};
}  // namespace
std::unique_ptr<Block> makeConstant(const BlockBuild& b) {
  return std::make_unique<Constant>(b.number("value"));
}
}  // namespace impetus::blocks
