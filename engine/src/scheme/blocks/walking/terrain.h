#pragma once
// The ground under a planned footstep, as the robot's map or head camera would give it: rays
// down at the sole's corners against the scene's fixed geometry, a plane through their hits.
// The walking controller lands each foot at that height and tilt (a ramp, a step), instead of
// assuming the ground stays as flat and as high as under the stance foot.

#include "whole_body_model.h"

namespace impetus::walking {

struct SoleGeometry {
  double length = 0.24, width = 0.13;  ///< (m)
  double forward = 0.025;              ///< sole centre ahead of the ankle point (m)
};

/// `foot` moved onto the ground under it: `position.z()` the ground plane's height under the
/// ankle point, `tilt` the plane's tilt about world x and y (rad, at most `maxTilt`). Ground is
/// searched from `above` over to `below` metres around foot.position.z() at the sole's heel,
/// middle and toe on both edges; where fewer than three of them find ground, the foot is kept
/// level at the highest hit (or unchanged without one). `unevenness` (optional): how far the
/// ground departs from that plane under the sole (m) - a sole across an edge (a ramp's foot or
/// crest, a step's nose) rests on the edge and rocks.
FootPlacement placeOnGround(const World& world, FootPlacement foot, const SoleGeometry& sole,
                            double* unevenness = nullptr, double above = 0.3, double below = 0.5,
                            double maxTilt = 0.35);

/// placeOnGround, and where the sole would lie across an edge, the nearest placement along
/// `along` (horizontal, unit: the step's direction) within `maxBack` back or `maxAhead` ahead
/// (m) where it lies on one plane: a foothold, as a robot looking at the ground picks one.
FootPlacement chooseFoothold(const World& world, const FootPlacement& foot,
                             const SoleGeometry& sole, const Vec3& along, double maxBack,
                             double maxAhead);

}  // namespace impetus::walking
