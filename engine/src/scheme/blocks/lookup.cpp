// lookup: piecewise-linear table y(x) through the points (x_i, y_i); held constant outside.
#include <algorithm>

#include "blocks.h"

namespace impetus::blocks {
namespace {
class Lookup : public Block {
 public:
  Lookup(std::vector<double> x, std::vector<double> y)
      : Block({"in"}, {"out"}), x_(std::move(x)), y_(std::move(y)) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    const double v = in[0];
    if (v <= x_.front()) {
      out[0] = y_.front();
      return;
    }
    if (v >= x_.back()) {
      out[0] = y_.back();
      return;
    }
    const size_t i = static_cast<size_t>(std::upper_bound(x_.begin(), x_.end(), v) - x_.begin());
    const double s = (v - x_[i - 1]) / (x_[i] - x_[i - 1]);
    out[0] = y_[i - 1] + s * (y_[i] - y_[i - 1]);
  }

 private:
  std::vector<double> x_, y_;
};
}  // namespace
std::unique_ptr<Block> makeLookup(const BlockBuild& b) {
  std::vector<double> x = b.numbers("x"), y = b.numbers("y");
  if (x.size() < 2 || x.size() != y.size()) b.fail("x and y need the same number (>= 2) of points");
  for (size_t i = 1; i < x.size(); ++i)
    if (!(x[i] > x[i - 1])) b.fail("x must increase strictly");
  return std::make_unique<Lookup>(std::move(x), std::move(y));
}
}  // namespace impetus::blocks
