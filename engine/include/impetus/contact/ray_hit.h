#pragma once
// Where a ray query (World::castRay) first meets geometry.

#include "impetus/dynamics/rigid_body.h"

namespace impetus {

struct RayHit {
  BodyId body = -1;
  Vec3 point = Vec3::Zero();    ///< world (unit: m)
  Vec3 normal = Vec3::UnitZ();  ///< world, unit, against the ray
  double fraction = 1.0;        ///< along the segment, 0 at its start
};

}  // namespace impetus
