// sum: out = sum of in1..inN with the signs of `signs` (e.g. "+-" : in1 - in2; default all +).
#include "blocks.h"

namespace impetus::blocks {
namespace {
class Sum : public Block {
 public:
  Sum(std::vector<std::string> inputs, std::vector<double> signs)
      : Block(std::move(inputs), {"out"}), signs_(std::move(signs)) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    double s = 0.0;
    for (size_t i = 0; i < signs_.size(); ++i) s += signs_[i] * in[i];
    out[0] = s;
  }

 private:
  std::vector<double> signs_;
};
}  // namespace
std::unique_ptr<Block> makeSum(const BlockBuild& b) {
  const std::string signs = b.text("signs", "++");
  std::vector<double> values;
  for (char c : signs) {
    if (c != '+' && c != '-') b.fail("'signs' may hold only + and -");
    values.push_back(c == '+' ? 1.0 : -1.0);
  }
  if (values.empty()) b.fail("'signs' is empty");
  std::vector<std::string> inputs;
  for (size_t i = 1; i <= values.size(); ++i) inputs.push_back("in" + std::to_string(i));
  return std::make_unique<Sum>(std::move(inputs), std::move(values));
}
}  // namespace impetus::blocks
