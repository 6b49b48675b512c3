#include "box_triangle.h"

#include <BulletCollision/BroadphaseCollision/btCollisionAlgorithm.h>
#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionCreateFunc.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <algorithm>

namespace impetus {
namespace {

class BoxTriangleAlgorithm final : public btCollisionAlgorithm {
 public:
  BoxTriangleAlgorithm(const btCollisionAlgorithmConstructionInfo& ci, bool swapped, double margin,
                       btCollisionAlgorithm* fallback)
      : btCollisionAlgorithm(ci), swapped_(swapped), margin_(margin), fallback_(fallback) {}
  ~BoxTriangleAlgorithm() override {
    if (fallback_) {
      fallback_->~btCollisionAlgorithm();
      m_dispatcher->freeCollisionAlgorithm(fallback_);
    }
  }

  void processCollision(const btCollisionObjectWrapper* body0,
                        const btCollisionObjectWrapper* body1, const btDispatcherInfo& info,
                        btManifoldResult* result) override {
    const btCollisionObjectWrapper* boxWrap = swapped_ ? body1 : body0;
    const btCollisionObjectWrapper* triangleWrap = swapped_ ? body0 : body1;
    const auto* box = static_cast<const btBoxShape*>(boxWrap->getCollisionShape());
    const auto* triangle = static_cast<const btTriangleShape*>(triangleWrap->getCollisionShape());
    const btTransform& tb = boxWrap->getWorldTransform();
    const btTransform& tt = triangleWrap->getWorldTransform();
    const btVector3 v[3] = {tt(triangle->m_vertices1[0]), tt(triangle->m_vertices1[1]),
                            tt(triangle->m_vertices1[2])};
    const btVector3 winding = (v[1] - v[0]).cross(v[2] - v[0]);
    if (winding.length2() < 1e-24) return;
    btVector3 n = winding.normalized();
    if (n.dot(tb.getOrigin() - v[0]) < 0) n = -n;  // the side the box's centre is on
    const btVector3 half = box->getHalfExtentsWithMargin();
    // The corners over the face within the margin of its plane, the deepest four kept.
    struct Corner {
      btVector3 onBox, onFace;
      btScalar separation;
    };
    Corner found[8];
    int count = 0;
    for (int i = 0; i < 8; ++i) {
      const btVector3 c = tb(btVector3(i & 1 ? half.x() : -half.x(), i & 2 ? half.y() : -half.y(),
                                       i & 4 ? half.z() : -half.z()));
      const btScalar d = n.dot(c - v[0]);
      if (d > margin_) continue;
      const btVector3 p = c - d * n;
      bool inside = true;
      for (int k = 0; k < 3 && inside; ++k)
        inside = (v[(k + 1) % 3] - v[k]).cross(p - v[k]).dot(winding) >= 0;
      if (!inside) continue;
      int k = count++;  // insertion by separation, the deepest first
      for (; k > 0 && found[k - 1].separation > d; --k) found[k] = found[k - 1];
      found[k] = {c, p, d};
    }
    if (count == 0) {  // on an edge or vertex of the face: Bullet's algorithm
      if (fallback_) fallback_->processCollision(body0, body1, info, result);
      return;
    }
    // No manifold of its own: points in the result's body order (see capsule_triangle.cpp).
    result->setPersistentManifold(nullptr);
    const bool boxFirst =
        result->getBody0Wrap()->getCollisionObject() == boxWrap->getCollisionObject();
    for (int i = 0; i < std::min(count, 4); ++i) {
      if (boxFirst)  // body 1 is the face: its normal points to the box
        result->addContactPoint(n, found[i].onFace, found[i].separation);
      else
        result->addContactPoint(-n, found[i].onBox, found[i].separation);
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
  btCollisionAlgorithm* fallback_;
};

struct BoxTriangleCreateFunc final : btCollisionAlgorithmCreateFunc {
  BoxTriangleCreateFunc(double margin, btCollisionAlgorithmCreateFunc* fallback)
      : margin(margin), fallback(fallback) {}
  btCollisionAlgorithm* CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& ci,
                                                 const btCollisionObjectWrapper* body0,
                                                 const btCollisionObjectWrapper* body1) override {
    btCollisionAlgorithm* inner =
        fallback ? fallback->CreateCollisionAlgorithm(ci, body0, body1) : nullptr;
    void* memory = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(BoxTriangleAlgorithm));
    return new (memory) BoxTriangleAlgorithm(ci, m_swapped, margin, inner);
  }
  double margin;
  btCollisionAlgorithmCreateFunc* fallback;
};

}  // namespace

std::unique_ptr<btCollisionAlgorithmCreateFunc> makeBoxTriangleCreateFunc(
    bool swapped, double margin, btCollisionAlgorithmCreateFunc* fallback) {
  auto f = std::make_unique<BoxTriangleCreateFunc>(margin, fallback);
  f->m_swapped = swapped;
  return f;
}

}  // namespace impetus
