#pragma once
// A closed-loop mechanism for benchmarks: n links of a ring in the x-z plane joined by hinges
// about +y, the last link closing the loop onto the first, pinned to the ground at two opposite
// corners (two loops hanging from two pins). Note: a single-pinned 50-link ring, one long floppy
// loop, needs ~200 velocity iterations; at 10 its errors compound (see the performance issue).

#include "impetus/dynamics/world.h"

namespace impetus::scenes {

/// Builds the ring (radius chosen so links of `linkLength` close it); returns the link ids.
std::vector<BodyId> buildHingeRing(World& world, int links = 50, double linkLength = 0.1);

}  // namespace impetus::scenes
