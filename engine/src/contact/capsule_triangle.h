#pragma once
// A capsule against one triangle of a mesh or heightfield, in closed form, as ODE's capsule-trimesh
// collider does it: the capsule's segment clipped to the triangle's prism gives a point at each
// end of the part over the face (a capsule lying on a face rests on two points), an edge or
// vertex the closest point to the segment. Bullet's generic path (GJK with perturbed re-runs)
// found one point at a time, at one end or the other, and a lying capsule rocked from end to end
// for as long as it lay there. Private to the engine: CollisionWorld registers it with Bullet.

#include <memory>

class btCollisionAlgorithmCreateFunc;

namespace impetus {

/// Bullet's create function for capsule-triangle pairs (`swapped`: the triangle comes first);
/// points are reported up to `margin` apart (unit: m; the speculative distance).
std::unique_ptr<btCollisionAlgorithmCreateFunc> makeCapsuleTriangleCreateFunc(bool swapped,
                                                                              double margin);

}  // namespace impetus
