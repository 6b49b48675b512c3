#include "corner_triangle.h"

#include <BulletCollision/BroadphaseCollision/btCollisionAlgorithm.h>
#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionCreateFunc.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <algorithm>

namespace impetus {
namespace {

/// A shape's candidate points in the world, given the face normal `n` pointing to the shape;
/// returns how many (at most 8).
using Candidates = int (*)(const btCollisionShape& shape, const btTransform& at, const btVector3& n,
                           btVector3 (&out)[8]);

int boxCorners(const btCollisionShape& shape, const btTransform& at, const btVector3&,
               btVector3 (&out)[8]) {
  const btVector3 half = static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin();
  for (int i = 0; i < 8; ++i)
    out[i] = at(btVector3(i & 1 ? half.x() : -half.x(), i & 2 ? half.y() : -half.y(),
                          i & 4 ? half.z() : -half.z()));
  return 8;
}

int cylinderRims(const btCollisionShape& shape, const btTransform& at, const btVector3& n,
                 btVector3 (&out)[8]) {
  const auto& cylinder = static_cast<const btCylinderShape&>(shape);
  const int axisIndex = cylinder.getUpAxis();
  const btVector3 half = cylinder.getHalfExtentsWithMargin();
  const btScalar radius = half[(axisIndex + 1) % 3], length = half[axisIndex];
  const btVector3 axis = at.getBasis().getColumn(axisIndex);
  // The rim's deepest direction along -n; any direction when the rims lie flat on the face.
  btVector3 u = -n + n.dot(axis) * axis;
  if (u.length2() < 1e-12) u = at.getBasis().getColumn((axisIndex + 1) % 3);
  u.normalize();
  const btVector3 w = axis.cross(u);
  int count = 0;
  for (const btScalar side : {-length, length})
    for (const btVector3& d : {u, w, -u, -w})
      out[count++] = at.getOrigin() + side * axis + radius * d;
  return count;
}

class CornerTriangleAlgorithm final : public btCollisionAlgorithm {
 public:
  CornerTriangleAlgorithm(const btCollisionAlgorithmConstructionInfo& ci, bool swapped,
                          double margin, Candidates candidates, btCollisionAlgorithm* fallback)
      : btCollisionAlgorithm(ci),
        swapped_(swapped),
        margin_(margin),
        candidates_(candidates),
        fallback_(fallback) {}
  ~CornerTriangleAlgorithm() override {
    if (fallback_) {
      fallback_->~btCollisionAlgorithm();
      m_dispatcher->freeCollisionAlgorithm(fallback_);
    }
  }

  void processCollision(const btCollisionObjectWrapper* body0,
                        const btCollisionObjectWrapper* body1, const btDispatcherInfo& info,
                        btManifoldResult* result) override {
    const btCollisionObjectWrapper* shapeWrap = swapped_ ? body1 : body0;
    const btCollisionObjectWrapper* triangleWrap = swapped_ ? body0 : body1;
    const auto* triangle = static_cast<const btTriangleShape*>(triangleWrap->getCollisionShape());
    const btTransform& ts = shapeWrap->getWorldTransform();
    const btTransform& tt = triangleWrap->getWorldTransform();
    const btVector3 v[3] = {tt(triangle->m_vertices1[0]), tt(triangle->m_vertices1[1]),
                            tt(triangle->m_vertices1[2])};
    const btVector3 winding = (v[1] - v[0]).cross(v[2] - v[0]);
    if (winding.length2() < 1e-24) return;
    btVector3 n = winding.normalized();
    if (n.dot(ts.getOrigin() - v[0]) < 0) n = -n;  // the side the shape's centre is on
    btVector3 candidate[8];
    const int candidates = candidates_(*shapeWrap->getCollisionShape(), ts, n, candidate);
    // The candidates over the face within the margin of its plane, deepest first.
    struct Point {
      btVector3 onShape, onFace;
      btScalar separation;
    };
    Point found[8];
    int count = 0;
    for (int i = 0; i < candidates; ++i) {
      const btVector3& c = candidate[i];
      const btScalar d = n.dot(c - v[0]);
      if (d > margin_) continue;
      const btVector3 p = c - d * n;
      bool inside = true;
      for (int k = 0; k < 3 && inside; ++k)
        inside = (v[(k + 1) % 3] - v[k]).cross(p - v[k]).dot(winding) >= 0;
      if (!inside) continue;
      int k = count++;  // insertion by separation
      for (; k > 0 && found[k - 1].separation > d; --k) found[k] = found[k - 1];
      found[k] = {c, p, d};
    }
    if (count == 0) {  // on an edge or vertex of the face: Bullet's algorithm
      if (fallback_) fallback_->processCollision(body0, body1, info, result);
      return;
    }
    // No manifold of its own: points in the result's body order (see capsule_triangle.cpp).
    result->setPersistentManifold(nullptr);
    const bool shapeFirst =
        result->getBody0Wrap()->getCollisionObject() == shapeWrap->getCollisionObject();
    for (int i = 0; i < std::min(count, 4); ++i) {
      if (shapeFirst)  // body 1 is the face: its normal points to the shape
        result->addContactPoint(n, found[i].onFace, found[i].separation);
      else
        result->addContactPoint(-n, found[i].onShape, found[i].separation);
    }
  }

  btScalar calculateTimeOfImpact(btCollisionObject*, btCollisionObject*, const btDispatcherInfo&,
                                 btManifoldResult*) override {
    return 1;
  }
  void getAllContactManifolds(btManifoldArray& manifolds) override {
    if (fallback_) fallback_->getAllContactManifolds(manifolds);
  }

 private:
  bool swapped_;
  double margin_;
  Candidates candidates_;
  btCollisionAlgorithm* fallback_;
};

struct CornerTriangleCreateFunc final : btCollisionAlgorithmCreateFunc {
  CornerTriangleCreateFunc(double margin, Candidates candidates,
                           btCollisionAlgorithmCreateFunc* fallback)
      : margin(margin), candidates(candidates), fallback(fallback) {}
  btCollisionAlgorithm* CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& ci,
                                                 const btCollisionObjectWrapper* body0,
                                                 const btCollisionObjectWrapper* body1) override {
    btCollisionAlgorithm* inner =
        fallback ? fallback->CreateCollisionAlgorithm(ci, body0, body1) : nullptr;
    void* memory = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(CornerTriangleAlgorithm));
    return new (memory) CornerTriangleAlgorithm(ci, m_swapped, margin, candidates, inner);
  }
  double margin;
  Candidates candidates;
  btCollisionAlgorithmCreateFunc* fallback;
};

std::unique_ptr<btCollisionAlgorithmCreateFunc> makeCreateFunc(
    bool swapped, double margin, Candidates candidates, btCollisionAlgorithmCreateFunc* fallback) {
  auto f = std::make_unique<CornerTriangleCreateFunc>(margin, candidates, fallback);
  f->m_swapped = swapped;
  return f;
}

}  // namespace

std::unique_ptr<btCollisionAlgorithmCreateFunc> makeBoxTriangleCreateFunc(
    bool swapped, double margin, btCollisionAlgorithmCreateFunc* fallback) {
  return makeCreateFunc(swapped, margin, boxCorners, fallback);
}

std::unique_ptr<btCollisionAlgorithmCreateFunc> makeCylinderTriangleCreateFunc(
    bool swapped, double margin, btCollisionAlgorithmCreateFunc* fallback) {
  return makeCreateFunc(swapped, margin, cylinderRims, fallback);
}

}  // namespace impetus
