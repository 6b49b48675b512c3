// and / or: out = 1 if all / any of in1..inN are high (> 0.5); not: out = 1 - high(in).
#include "blocks.h"

namespace impetus::blocks {
namespace {
class AllOrAny : public Block {
 public:
  AllOrAny(std::vector<std::string> inputs, bool all)
      : Block(std::move(inputs), {"out"}), all_(all) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    bool result = all_;
    for (size_t i = 0; i < inputNames().size(); ++i)
      result = all_ ? result && isHigh(in[i]) : result || isHigh(in[i]);
    out[0] = result ? 1.0 : 0.0;
  }

 private:
  bool all_;
};
class Not : public Block {
 public:
  Not() : Block({"in"}, {"out"}) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    out[0] = isHigh(in[0]) ? 0.0 : 1.0;
  }
};
}  // namespace
std::unique_ptr<Block> makeAnd(const BlockBuild& b) {
  return std::make_unique<AllOrAny>(b.numberedInputs(2), true);
}
std::unique_ptr<Block> makeOr(const BlockBuild& b) {
  return std::make_unique<AllOrAny>(b.numberedInputs(2), false);
}
std::unique_ptr<Block> makeNot(const BlockBuild&) {
  return std::make_unique<Not>();
}
}  // namespace impetus::blocks
