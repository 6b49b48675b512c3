#pragma once
// What the balance overlay shows of a walking robot (render::BalanceMarks): the support polygon
// and the measured ZMP from the world's ground contacts, the centre of mass of everything that
// moves, and - when the scene's scheme has a walking controller - its capture point and next
// footstep (signals BLOCK.cp_x/cp_y and BLOCK.step_x/step_y).

#include "impetus/dynamics/world.h"
#include "impetus/render/debug_overlay.h"
#include "impetus/scheme/scheme.h"

namespace impetus::app {

render::BalanceMarks measureBalance(const World& world, const Scheme* scheme);

}  // namespace impetus::app
