#pragma once
// Finding the scheme blocks an overlay reads by their output ports (a walking controller's
// `cp_x cp_y`, a hand's `world_x ... force_z`), whatever the blocks are named.

#include <string>
#include <vector>

#include "impetus/scheme/scheme.h"

namespace impetus::app {

/// For every block with all of `ports` (in signal order), the signal indices of BLOCK.<port>.
std::vector<std::vector<int>> blocksWithPorts(const Scheme& scheme,
                                              const std::vector<std::string>& ports);

}  // namespace impetus::app
