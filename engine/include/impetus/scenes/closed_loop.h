#pragma once
// A closed-loop mechanism for benchmarks: n links of a ring in the x-z plane joined by hinges
// about +y, the last link closing the loop onto the first, one link pinned to the ground.

#include "impetus/dynamics/world.h"

namespace impetus::scenes {

/// Builds the ring (radius chosen so links of `linkLength` close it); returns the link ids.
std::vector<BodyId> buildHingeRing(World& world, int links = 50, double linkLength = 0.1);

}  // namespace impetus::scenes
