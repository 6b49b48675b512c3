#include "chain_tip.h"

#include <vector>

#include "impetus/dynamics/world.h"

namespace impetus::blocks {

ChainTip chainTip(const BlockBuild& b, const tree::WorldTree& wt) {
  ChainTip t;
  t.body = b.text("tip");
  const BodyId tip = b.world().findBody(t.body);
  if (tip < 0) b.fail("tip body '" + t.body + "' not found");
  t.link = wt.bodyLink[static_cast<size_t>(tip)];
  if (t.link < 0) b.fail("tip body '" + t.body + "' does not move");
  const std::vector<double> p =
      b.desc().params.count("point") ? b.numbers("point") : std::vector<double>{0, 0, 0};
  if (p.size() != 3) b.fail("point needs three numbers (m, tip body frame)");
  t.point = wt.bodyRotation[static_cast<size_t>(tip)] * Vec3(p[0], p[1], p[2]) +
            wt.bodyOffset[static_cast<size_t>(tip)];
  return t;
}

}  // namespace impetus::blocks
