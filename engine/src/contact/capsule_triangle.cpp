#include "capsule_triangle.h"

#include <BulletCollision/BroadphaseCollision/btCollisionAlgorithm.h>
#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionCreateFunc.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

/// The parameters t in [0, 1] of the closest points of segments p0 + s (p1 - p0) and
/// q0 + t (q1 - q0) (Ericson, Real-Time Collision Detection, 5.1.9).
void closestOnSegments(const btVector3& p0, const btVector3& p1, const btVector3& q0,
                       const btVector3& q1, btScalar& s, btScalar& t) {
  const btVector3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const btScalar a = d1.dot(d1), e = d2.dot(d2), f = d2.dot(r);
  const btScalar c = d1.dot(r), b = d1.dot(d2), denom = a * e - b * b;
  s = denom > 1e-12 * a * e ? std::clamp((b * f - c * e) / denom, btScalar(0), btScalar(1)) : 0;
  t = e > 0 ? (b * s + f) / e : 0;
  if (t < 0) {
    t = 0;
    s = a > 0 ? std::clamp(-c / a, btScalar(0), btScalar(1)) : 0;
  } else if (t > 1) {
    t = 1;
    s = a > 0 ? std::clamp((b - c) / a, btScalar(0), btScalar(1)) : 0;
  }
}

class CapsuleTriangleAlgorithm final : public btCollisionAlgorithm {
 public:
  CapsuleTriangleAlgorithm(const btCollisionAlgorithmConstructionInfo& ci, bool swapped,
                           double margin)
      : btCollisionAlgorithm(ci), swapped_(swapped), margin_(margin) {}

  void processCollision(const btCollisionObjectWrapper* body0,
                        const btCollisionObjectWrapper* body1, const btDispatcherInfo&,
                        btManifoldResult* result) override {
    const btCollisionObjectWrapper* capsuleWrap = swapped_ ? body1 : body0;
    const btCollisionObjectWrapper* triangleWrap = swapped_ ? body0 : body1;
    // No manifold of its own: points are reported in the result's body order, which a compound
    // pair may have swapped for this call (a manifold left in the result by another pair's
    // algorithm would claim an order of its own).
    result->setPersistentManifold(nullptr);
    const bool capsuleFirst =
        result->getBody0Wrap()->getCollisionObject() == capsuleWrap->getCollisionObject();
    const auto* capsule = static_cast<const btCapsuleShape*>(capsuleWrap->getCollisionShape());
    const auto* triangle = static_cast<const btTriangleShape*>(triangleWrap->getCollisionShape());
    const btTransform& tc = capsuleWrap->getWorldTransform();
    const btTransform& tt = triangleWrap->getWorldTransform();
    const btScalar radius = capsule->getRadius();
    btVector3 axis(0, 0, 0);
    axis[capsule->getUpAxis()] = capsule->getHalfHeight();
    const btVector3 p0 = tc(-axis), p1 = tc(axis);
    const btVector3 v[3] = {tt(triangle->m_vertices1[0]), tt(triangle->m_vertices1[1]),
                            tt(triangle->m_vertices1[2])};
    btVector3 n = (v[1] - v[0]).cross(v[2] - v[0]);
    if (n.length2() < 1e-24) return;
    n.normalize();
    btScalar d0 = n.dot(p0 - v[0]), d1 = n.dot(p1 - v[0]);
    if (d0 + d1 < 0) {  // two-sided, as Bullet's triangles: the face the capsule's centre is over
      n = -n;
      d0 = -d0;
      d1 = -d1;
    }
    if (std::min(d0, d1) - radius > margin_) return;

    // The part of the segment over the face: clipped by the prism's three side planes.
    btScalar lo = 0, hi = 1;
    for (int i = 0; i < 3 && lo <= hi; ++i) {
      const btVector3& a = v[i];
      const btVector3& b = v[(i + 1) % 3];
      btVector3 inward = n.cross(b - a);
      if (inward.dot(v[(i + 2) % 3] - a) < 0) inward = -inward;
      const btScalar s0 = inward.dot(p0 - a), s1 = inward.dot(p1 - a);
      if (s0 < 0 && s1 < 0) {
        lo = 1;
        hi = 0;
      } else if (s0 < 0) {
        lo = std::max(lo, s0 / (s0 - s1));
      } else if (s1 < 0) {
        hi = std::min(hi, s0 / (s0 - s1));
      }
    }
    int found = 0;
    if (lo <= hi) {
      const btScalar ends[2] = {lo, hi};
      const int count = hi - lo > 1e-9 ? 2 : 1;
      for (int k = 0; k < count; ++k) {
        const btVector3 q = p0.lerp(p1, ends[k]);
        const btScalar dq = n.dot(q - v[0]);
        if (dq - radius > margin_ || dq < -radius) continue;
        report(result, capsuleFirst, n, q - dq * n, q - radius * n, dq - radius);
        ++found;
      }
    }
    if (found) return;
    // Off the face: the nearest edge (or vertex) to the segment.
    btScalar best = margin_ + radius;
    btVector3 onSegment(0, 0, 0), onEdge(0, 0, 0);
    for (int i = 0; i < 3; ++i) {
      btScalar s = 0, t = 0;
      closestOnSegments(p0, p1, v[i], v[(i + 1) % 3], s, t);
      const btVector3 a = p0.lerp(p1, s), b = v[i].lerp(v[(i + 1) % 3], t);
      const btScalar d = (a - b).length();
      if (d < best) {
        best = d;
        onSegment = a;
        onEdge = b;
      }
    }
    if (best >= margin_ + radius || best < 1e-9) return;
    const btVector3 out = (onSegment - onEdge) / best;
    report(result, capsuleFirst, out, onEdge, onSegment - radius * out, best - radius);
  }

  btScalar calculateTimeOfImpact(btCollisionObject*, btCollisionObject*, const btDispatcherInfo&,
                                 btManifoldResult*) override {
    return 1;
  }
  void getAllContactManifolds(btManifoldArray&) override {}

 private:
  /// A point: `normal` from the triangle to the capsule, on the triangle and on the capsule,
  /// `separation` (< 0 penetrating). Bullet's result takes the normal on its body 1 (pointing to
  /// its body 0) and the point on body 1.
  static void report(btManifoldResult* result, bool capsuleFirst, const btVector3& normal,
                     const btVector3& onTriangle, const btVector3& onCapsule, btScalar separation) {
    if (capsuleFirst)
      result->addContactPoint(normal, onTriangle, separation);
    else
      result->addContactPoint(-normal, onCapsule, separation);
  }

  bool swapped_;
  double margin_;
};

struct CapsuleTriangleCreateFunc final : btCollisionAlgorithmCreateFunc {
  explicit CapsuleTriangleCreateFunc(double margin) : margin(margin) {}
  btCollisionAlgorithm* CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& ci,
                                                 const btCollisionObjectWrapper*,
                                                 const btCollisionObjectWrapper*) override {
    void* memory = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(CapsuleTriangleAlgorithm));
    return new (memory) CapsuleTriangleAlgorithm(ci, m_swapped, margin);
  }
  double margin;
};

}  // namespace

std::unique_ptr<btCollisionAlgorithmCreateFunc> makeCapsuleTriangleCreateFunc(bool swapped,
                                                                              double margin) {
  auto f = std::make_unique<CapsuleTriangleCreateFunc>(margin);
  f->m_swapped = swapped;
  return f;
}

}  // namespace impetus
