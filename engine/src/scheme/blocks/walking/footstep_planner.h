#pragma once
// Footsteps from the operator's velocity command: each step puts the swing foot where the
// robot's centre between the feet should be one step later (x forward, y left, heading),
// within the legs' reach and never across the other foot.

#include "whole_body_model.h"

namespace impetus::walking {

/// A velocity command in the robot's heading frame.
struct WalkCommand {
  double forward = 0.0;  ///< (unit: m/s)
  double lateral = 0.0;  ///< to the left (unit: m/s)
  double turn = 0.0;     ///< counter-clockwise seen from above (unit: rad/s)
  bool isZero() const { return forward == 0.0 && lateral == 0.0 && turn == 0.0; }
};

struct FootstepLimits {
  double halfWidth = 0.10;      ///< nominal distance of each ankle from the centre line (m)
  double maxStride = 0.30;      ///< forward step of the centre (m)
  double maxBackStride = 0.15;  ///< backward step (m)
  double maxSideStep = 0.12;    ///< extra width of a step toward the side of motion (m)
  double maxTurn = 0.30;        ///< heading change per step (rad)
  double minWidth = 0.16;       ///< closest ankle-to-ankle distance across (m)
};

/// Where the swing foot lands for `command` held over a step of `stepTime` seconds, given the
/// stance foot and which foot swings.
FootPlacement nextFootstep(const FootPlacement& stance, Side swing, const WalkCommand& command,
                           double stepTime, const FootstepLimits& limits);

/// The centre between two feet and their mean heading.
FootPlacement midFoot(const FootPlacement& a, const FootPlacement& b);

}  // namespace impetus::walking
