#pragma once
// The zero-moment point (ZMP) of the contact forces on a walking machine's feet: the point of the
// ground plane about which the contact forces have no moment parallel to the plane. With the
// foot forces summed to F and their moment M_0 about a point p_0 of the plane (normal n, tangents
// t1, t2), the ZMP is p_0 + s t1 + u t2 with u = t1 . M_0 / (F . n), s = -t2 . M_0 / (F . n).

#include <optional>
#include <span>
#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/math/types.h"

namespace impetus::tree {

struct PointForce {
  Vec3 point = Vec3::Zero();  ///< where it acts, world (unit: m)
  Vec3 force = Vec3::Zero();  ///< world (unit: N)
};

/// The ZMP on the plane through `planePoint` with unit `planeNormal`; empty when the forces press
/// less than `minimumNormalForce` (N) into the plane (a foot in the air has no ZMP).
std::optional<Vec3> zeroMomentPoint(std::span<const PointForce> forces, const Vec3& planePoint,
                                    const Vec3& planeNormal, double minimumNormalForce = 1e-9);

/// The contact forces of the world's last step acting ON the given bodies, at their contact points.
std::vector<PointForce> contactForcesOn(const World& world, std::span<const BodyId> bodies);

}  // namespace impetus::tree
