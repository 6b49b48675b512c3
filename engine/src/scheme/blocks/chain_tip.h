#pragma once
// The tip of an arm chain as the Cartesian blocks (`ik`, `hand`) name it: parameter `tip` (a
// moving body) and `point` ("x y z" in that body's frame, m; default its centre of mass), and
// the joints they move it with.

#include <string>

#include "impetus/scheme/block.h"
#include "impetus/tree/tree_from_world.h"

namespace impetus::blocks {

struct ChainTip {
  std::string body;
  int link = -1;              ///< the tree link that carries it
  Vec3 point = Vec3::Zero();  ///< in that link's frame (unit: m)
};

/// Reads `tip` and `point`; fails the block naming what is wrong.
ChainTip chainTip(const BlockBuild& b, const tree::WorldTree& wt);

/// A joint the chain moves the tip with: its world index and tree link.
struct ChainJoint {
  int index = -1;
  int link = -1;
};

/// The revolute or prismatic joint `name` on the path root -> tip; fails the block otherwise.
ChainJoint chainJoint(const BlockBuild& b, const tree::WorldTree& wt, const ChainTip& tip,
                      const std::string& name);

}  // namespace impetus::blocks
