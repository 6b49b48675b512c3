// grapple: commands a latching end effector (<grapple>, joints/grapple.h) - its snare closes
// while `close` is high and catches the fixture once it lies within the capture envelope; open,
// it lets go. Outputs, at the state the step starts from: `captured` (1 while holding), `ready`
// (1 while the fixture is within the envelope: the operator's "capture" light) and `distance`
// (m, the snare's opening to the fixture's pin).
#include "blocks.h"
#include "impetus/dynamics/world.h"

namespace impetus::blocks {
namespace {
class GrappleBlock : public Block {
 public:
  GrappleBlock(Grapple& grapple, const World& world)
      : Block({"close"}, {"captured", "ready", "distance"}), grapple_(grapple), world_(world) {}
  void evaluate(const double* in, double* out, const SchemeContext&) override {
    grapple_.command(isHigh(in[0]));
    out[0] = grapple_.captured() ? 1.0 : 0.0;
    out[1] = grapple_.inEnvelope(world_.bodies()) ? 1.0 : 0.0;
    out[2] = grapple_.distance(world_.bodies());
  }

 private:
  Grapple& grapple_;
  const World& world_;
};
}  // namespace
std::unique_ptr<Block> makeGrappleBlock(const BlockBuild& b) {
  const std::string name = b.qualifiedText("grapple");
  Grapple* g = b.world().findGrapple(name);
  if (!g) b.fail("unknown grapple '" + name + "'");
  return std::make_unique<GrappleBlock>(*g, b.world());
}
}  // namespace impetus::blocks
