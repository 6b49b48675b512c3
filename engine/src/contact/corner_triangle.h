#pragma once
// A box or a cylinder against one triangle of a mesh or heightfield, in closed form: the shape's
// candidate points - a box's eight corners; four points on each rim of a cylinder, starting
// from the rim's deepest point along the face normal (a cylinder's deepest point in any
// direction lies on a rim) - each over the face and within the speculative margin of its plane
// is a point, the deepest four kept. Bullet's separating-axis path (which gives a resting box
// its whole face at once) reports nothing while the two are apart, so a box approaching a mesh
// got no speculative point and met the face only once inside it; its GJK path for a cylinder
// found one point at a time. A shape with no candidate over the face (resting on the mesh's
// edge or vertex) is left to Bullet's algorithm. Private to the engine: CollisionWorld
// registers these with Bullet.

#include <memory>

class btCollisionAlgorithmCreateFunc;

namespace impetus {

/// Bullet's create function for box-triangle pairs (`swapped`: the triangle comes first),
/// falling back to `fallback` (Bullet's own for the pair, kept alive by the caller); points are
/// reported up to `margin` apart (unit: m).
std::unique_ptr<btCollisionAlgorithmCreateFunc> makeBoxTriangleCreateFunc(
    bool swapped, double margin, btCollisionAlgorithmCreateFunc* fallback);

/// The same for cylinder-triangle pairs.
std::unique_ptr<btCollisionAlgorithmCreateFunc> makeCylinderTriangleCreateFunc(
    bool swapped, double margin, btCollisionAlgorithmCreateFunc* fallback);

}  // namespace impetus
