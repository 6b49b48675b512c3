// selector: out = in<k> with k = round(index) clamped to 1..N (N = `inputs`, default 2).
#include <algorithm>
#include <cmath>

#include "blocks.h"

namespace impetus::blocks {
namespace {
class Selector : public Block {
 public:
  explicit Selector(std::vector<std::string> inputs)
      : Block(withIndex(std::move(inputs)), {"out"}) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    const int n = static_cast<int>(inputNames().size()) - 1;
    const int k = std::clamp(static_cast<int>(std::lround(in[n])), 1, n);
    out[0] = in[k - 1];
  }

 private:
  static std::vector<std::string> withIndex(std::vector<std::string> v) {
    v.push_back("index");
    return v;
  }
};
}  // namespace
std::unique_ptr<Block> makeSelector(const BlockBuild& b) {
  return std::make_unique<Selector>(b.numberedInputs(2));
}
}  // namespace impetus::blocks
