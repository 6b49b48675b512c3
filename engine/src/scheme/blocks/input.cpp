// input: out = the console channel `channel` (a joystick axis, toggle, button or slider).
#include <algorithm>

#include "blocks.h"

namespace impetus::blocks {
namespace {
class Input : public Block {
 public:
  explicit Input(size_t index) : Block({}, {"out"}), index_(index) {}
  void evaluate(const double*, double* out, const SchemeContext& ctx) override {
    out[0] = index_ < ctx.channels.size() ? ctx.channels[index_] : 0.0;
  }

 private:
  size_t index_;
};
}  // namespace
std::unique_ptr<Block> makeInput(const BlockBuild& b) {
  const std::string channel = b.qualifiedText("channel");
  const auto& all = b.channels();
  const auto it = std::find(all.begin(), all.end(), channel);
  if (it == all.end())
    b.fail("unknown channel '" + channel + "' (the console has no such control)");
  return std::make_unique<Input>(static_cast<size_t>(it - all.begin()));
}
}  // namespace impetus::blocks
