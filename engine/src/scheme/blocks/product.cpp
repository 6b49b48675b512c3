// product: out = in1 * in2 * ... * inN (N = `inputs`, default 2).
#include "blocks.h"

namespace impetus::blocks {
namespace {
class Product : public Block {
 public:
  explicit Product(std::vector<std::string> inputs) : Block(std::move(inputs), {"out"}) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    double p = 1.0;
    for (size_t i = 0; i < inputNames().size(); ++i) p *= in[i];
    out[0] = p;
  }
};
}  // namespace
std::unique_ptr<Block> makeProduct(const BlockBuild& b) {
  return std::make_unique<Product>(b.numberedInputs(2));
}
}  // namespace impetus::blocks
