#pragma once
// What both Bullet adapters share: vectors and the scene's collision shapes in Bullet's types.

#include <btBulletDynamicsCommon.h>

#include <memory>

#include "bench_scene.h"

namespace peers {

inline btVector3 bt(const Vec3& v) {
  return btVector3(btScalar(v.x()), btScalar(v.y()), btScalar(v.z()));
}

/// The body's box, sphere or capsule (Bullet's capsule classes name the axis).
inline std::unique_ptr<btCollisionShape> bulletShape(const BenchBody& b) {
  const btScalar r = btScalar(b.radius), length = btScalar(b.length);
  switch (b.shape) {
    case ShapeKind::Box:
      return std::make_unique<btBoxShape>(bt(b.boxSize / 2));
    case ShapeKind::Sphere:
      return std::make_unique<btSphereShape>(r);
    case ShapeKind::Capsule:
      if (b.capsuleAxis == 0) return std::make_unique<btCapsuleShapeX>(r, length);
      if (b.capsuleAxis == 1) return std::make_unique<btCapsuleShape>(r, length);
      return std::make_unique<btCapsuleShapeZ>(r, length);
  }
  return nullptr;
}

}  // namespace peers
