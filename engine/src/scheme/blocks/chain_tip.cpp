#include "chain_tip.h"

#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/joints/joint.h"

namespace impetus::blocks {

ChainTip chainTip(const BlockBuild& b, const tree::WorldTree& wt) {
  ChainTip t;
  t.body = b.text("tip");
  const BodyId tip = b.world().findBody(b.qualified(t.body));
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

ChainJoint chainJoint(const BlockBuild& b, const tree::WorldTree& wt, const ChainTip& tip,
                      const std::string& name) {
  const World& world = b.world();
  ChainJoint j;
  for (int k = 0; k < world.jointCount(); ++k)
    if (world.joint(k).name() == b.qualified(name)) j.index = k;
  if (j.index < 0) b.fail("joint '" + name + "' not found");
  const JointType type = world.joint(j.index).type();
  j.link = wt.linkOfJoint(j.index);
  if ((type != JointType::Revolute && type != JointType::Prismatic) || j.link < 0)
    b.fail("joint '" + name + "' must be a revolute or prismatic joint of the tree");
  if (!wt.tree.reachable(tip.link, j.link))
    b.fail("joint '" + name + "' does not move the tip body '" + tip.body + "'");
  return j;
}

}  // namespace impetus::blocks
