// mixer: skid-steer (differential) drive. left = forward + turn, right = forward - turn, both
// scaled down together when either would leave [-1, 1], so the turn ratio is kept and a full turn
// with no forward gives opposite tracks.
#include <algorithm>
#include <cmath>

#include "blocks.h"

namespace impetus::blocks {
namespace {
class Mixer : public Block {
 public:
  Mixer() : Block({"forward", "turn"}, {"left", "right"}) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    double left = in[0] + in[1], right = in[0] - in[1];
    const double largest = std::max({std::abs(left), std::abs(right), 1.0});
    out[0] = left / largest;
    out[1] = right / largest;
  }
};
}  // namespace
std::unique_ptr<Block> makeMixer(const BlockBuild&) {
  return std::make_unique<Mixer>();
}
}  // namespace impetus::blocks
