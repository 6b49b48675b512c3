#pragma once
// A box against one triangle of a mesh or heightfield: each box corner over the face and within
// the speculative margin of its plane is a point, in closed form. Bullet's separating-axis path
// (which gives a resting box its whole face at once) reports nothing while the two are apart,
// so a box approaching a mesh got no speculative point: it met the face only once inside it,
// and a box stopped flush with a face by continuous collision got no point at all. A box with
// no corner over the face (resting on a mesh's edge or vertex) is left to Bullet's algorithm.
// Private to the engine: CollisionWorld registers it with Bullet.

#include <memory>

class btCollisionAlgorithmCreateFunc;

namespace impetus {

/// Bullet's create function for box-triangle pairs (`swapped`: the triangle comes first), which
/// falls back to `fallback` (Bullet's own for the pair, kept alive by the caller); points are
/// reported up to `margin` apart (unit: m).
std::unique_ptr<btCollisionAlgorithmCreateFunc> makeBoxTriangleCreateFunc(
    bool swapped, double margin, btCollisionAlgorithmCreateFunc* fallback);

}  // namespace impetus
