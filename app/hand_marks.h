#pragma once
// What the hands overlay shows (render::HandMark): every `hand` block's target and the contact
// force its wrist's cell reads, both in the world (signals BLOCK.world_x/y/z, BLOCK.force_x/y/z).

#include <vector>

#include "impetus/render/debug_overlay.h"
#include "impetus/scheme/scheme.h"

namespace impetus::app {

void measureHands(const Scheme* scheme, std::vector<render::HandMark>& out);

}  // namespace impetus::app
