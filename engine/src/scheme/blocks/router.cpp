// router: out<k> = in for k = round(index), every other output 0 (N = `outputs`, default 2): a mode
// switch that routes one joystick to the joint it selects, the others getting u = 0.
#include <cmath>

#include "blocks.h"

namespace impetus::blocks {
namespace {
class Router : public Block {
 public:
  explicit Router(std::vector<std::string> outputs) : Block({"in", "index"}, std::move(outputs)) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    const long k = std::lround(in[1]);
    for (size_t i = 0; i < outputNames().size(); ++i)
      out[i] = static_cast<long>(i + 1) == k ? in[0] : 0.0;
  }
};
}  // namespace
std::unique_ptr<Block> makeRouter(const BlockBuild& b) {
  const double n = b.number("outputs", 2);
  if (n < 1 || n > 64 || n != std::floor(n))
    b.fail("'outputs' must be a whole number from 1 to 64");
  std::vector<std::string> outputs;
  for (int i = 1; i <= static_cast<int>(n); ++i) outputs.push_back("out" + std::to_string(i));
  return std::make_unique<Router>(std::move(outputs));
}
}  // namespace impetus::blocks
