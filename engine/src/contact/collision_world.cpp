#include "collision_world.h"

#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btContinuousConvexCollision.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "capsule_triangle.h"
#include "contact_manifold.h"
#include "corner_triangle.h"
#include "primitive_broadphase.h"
#include "primitive_contacts.h"

namespace impetus {
namespace {

btVector3 bt(const Vec3& v) {
  return {v.x(), v.y(), v.z()};
}
Vec3 toVec3(const btVector3& v) {
  return {v.x(), v.y(), v.z()};
}
btQuaternion bt(const Quat& q) {
  return {q.x(), q.y(), q.z(), q.w()};
}

/// One body's collision object and the shapes it owns.
struct BodyObject {
  BodyId body = 0;
  std::unique_ptr<btCollisionObject> object;
  std::unique_ptr<btCompoundShape> compound;
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<ShapeDesc> descs;
  std::vector<int> childDesc;        ///< compound child -> its ShapeDesc (a mesh has many children)
  std::vector<ShapePose> childPose;  ///< primitive bodies: child -> its pose in the body frame
  std::vector<ShapePose> childWorldPose;  ///< ... and in the world, this step (detect)
  std::uint32_t group = 0, mask = 0;
  bool dynamic = false;
  bool primitive = true;  ///< every shape a plane, sphere, capsule or box (primitive_contacts.h)
  /// The farthest a shape's surface reaches from the body's centre of mass (unit: m): how fast
  /// a spin can move it.
  double boundingRadius = 0.0;
  /// The smallest half-dimension of its shapes (smallestHalfExtent; unit: m): how close two of
  /// its contact points can be.
  double featureSize = std::numeric_limits<double>::infinity();
  /// How far this body's points may move towards another's within the speculative time (unit:
  /// m; detect).
  double reach = 0.0;
  /// Its surface moved slower than kStillSpeed at the end of the last step (markStill).
  bool still = false;
  const ShapeDesc* shape(int childIndex) const {
    if (childIndex < 0 || childIndex >= static_cast<int>(childDesc.size())) return nullptr;
    return &descs[static_cast<size_t>(childDesc[static_cast<size_t>(childIndex)])];
  }
  int material(int childIndex) const {
    const ShapeDesc* s = shape(childIndex);
    return s ? s->material : 0;
  }
};

/// A signed index as an unsigned one of the same order (for packed sort keys).
std::uint64_t ordered(int value) {
  return static_cast<std::uint32_t>(value) ^ 0x80000000u;
}

/// A contact point's manifold - two bodies and a child shape of each (a mesh's triangles are
/// children) - packed in two words that compare as (bodyA, bodyB, shapeA, shapeB), and the
/// point's index: sorting these orders points by manifold, a manifold's points as they came.
struct ManifoldEntry {
  std::uint64_t bodies, shapes;
  int index;
  auto operator<=>(const ManifoldEntry&) const = default;
  bool sameManifold(const ManifoldEntry& o) const {
    return bodies == o.bodies && shapes == o.shapes;
  }
  bool manifoldBefore(const ManifoldEntry& o) const {
    return bodies != o.bodies ? bodies < o.bodies : shapes < o.shapes;
  }
  BodyId bodyA() const { return unordered(bodies >> 32); }
  BodyId bodyB() const { return unordered(bodies & 0xffffffffu); }
  static int unordered(std::uint64_t word) {
    return static_cast<int>(static_cast<std::uint32_t>(word) ^ 0x80000000u);
  }
};

ManifoldEntry manifoldEntry(const ContactPoint& c, int index) {
  return {ordered(c.bodyA) << 32 | ordered(c.bodyB), ordered(c.shapeA) << 32 | ordered(c.shapeB),
          index};
}

/// `points` by manifold, in a canonical order: Bullet's manifold order depends on the history
/// of its pair cache, and a Gauss-Seidel sweep's result on the order of its rows.
void sortByManifold(std::span<const ContactPoint> points, std::vector<ManifoldEntry>& order) {
  order.clear();
  for (size_t i = 0; i < points.size(); ++i)
    order.push_back(manifoldEntry(points[i], static_cast<int>(i)));
  std::sort(order.begin(), order.end());
}

std::uint64_t pairKey(BodyId a, BodyId b) {
  const auto lo = static_cast<std::uint64_t>(std::min(a, b)),
             hi = static_cast<std::uint64_t>(std::max(a, b));
  return (hi << 32) | lo;
}

/// A mesh face (margin 0: the face is the surface) whose bounding box reaches `reach` beyond it.
/// Bullet's compound culls its children by their boxes without the contact breaking threshold;
/// with plain boxes a ball falling onto a mesh got no speculative point, sank 1.5 cm in its
/// impact step and was pushed out by the position pass (a rebound 4 % too high); a plane did not.
class SpeculativeTriangle final : public btTriangleShape {
 public:
  SpeculativeTriangle(const btVector3& a, const btVector3& b, const btVector3& c, btScalar reach)
      : btTriangleShape(a, b, c), reach_(reach) {}
  void getAabb(const btTransform& t, btVector3& aabbMin, btVector3& aabbMax) const override {
    btTriangleShape::getAabb(t, aabbMin, aabbMax);
    aabbMin -= btVector3(reach_, reach_, reach_);
    aabbMax += btVector3(reach_, reach_, reach_);
  }

 private:
  btScalar reach_;
};

}  // namespace

struct CollisionWorld::Impl : btOverlapFilterCallback {
  /// Bullet's dispatcher, knowing whose pairs it dispatches (its near callback is a plain
  /// function).
  struct PairDispatcher final : btCollisionDispatcher {
    using btCollisionDispatcher::btCollisionDispatcher;
    Impl* owner = nullptr;
  };
  btDefaultCollisionConfiguration configuration;
  std::unique_ptr<btCollisionAlgorithmCreateFunc> capsuleTriangle[2], cornerTriangle[2][2];
  PairDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  std::vector<std::unique_ptr<BodyObject>> objects;  // by insertion
  std::vector<BodyObject*> byBody;                   // body id -> object
  std::set<std::uint64_t> disabledPairs;
  std::vector<char> jointed;  ///< by body id: a link of a jointed mechanism (markJointed)
  // timeOfImpact's scratch (no allocation once warm).
  std::vector<int> sweepChildren;
  btNodeStack sweepStack;
  bool isJointed(BodyId id) const {
    return id >= 0 && static_cast<size_t>(id) < jointed.size() && jointed[size_t(id)];
  }
  // Bodies whose shapes are all primitives: paired by our own sweep (primitive_broadphase.h);
  // Bullet only sees the pairs with a mesh, hull or cylinder in them.
  std::vector<BodyObject*> primitiveObjects;
  bool primitiveObjectsStale = true;
  bool anyBulletObject = false;
  PrimitiveBroadphase primitivePairs;
  std::vector<WorldBox> primitiveBoxes;
  // Per-step scratch (no allocation once warm).
  std::vector<ContactPoint> fresh;
  /// Body pairs (ManifoldEntry::bodies) the exact primitive colliders searched this step, sorted.
  std::vector<std::uint64_t> primitiveSearched;
  /// The manifolds (bodies, shapes) with a point found this step, before seam duplicates go.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> foundManifolds;
  std::vector<BodyId>
      firstGround;  ///< by body id: the first fixed body it touches (dropSeamPoints)
  std::vector<BodyId> groundTouchers;  ///< bodies with a firstGround entry to reset
  std::vector<char> seamBody;          ///< by body id: it touches two fixed bodies
  std::vector<char> seamDropped;       ///< by point of dropSeamPoints' `out`
  std::vector<ManifoldEntry> freshOrder, previousOrder;
  // What detect() is working on, for the near callback.
  std::span<const RigidBody> currentBodies;
  const MaterialTable* currentMaterials = nullptr;

  /// What every point of child shape `childA` of `oa` and `childB` of `ob` shares: bodies,
  /// shapes, combined material, track.
  ContactPoint pairContact(const BodyObject& oa, int childA, const BodyObject& ob,
                           int childB) const {
    ContactPoint c;
    c.bodyA = oa.body;
    c.bodyB = ob.body;
    c.shapeA = childA;
    c.shapeB = childB;
    const ContactCoefficients mat =
        currentMaterials->coefficients(oa.material(childA), ob.material(childB));
    const ShapeDesc* sa = oa.shape(childA);
    const ShapeDesc* sb = ob.shape(childB);
    const ShapeDesc* track =
        sb && sb->trackMotor >= 0 ? sb : (sa && sa->trackMotor >= 0 ? sa : nullptr);
    if (track) {
      c.trackMotor = track->trackMotor;
      c.trackOnB = track == sb;
      c.trackDirection = track->trackDirection.normalized();
      c.sprocketRadius = track->sprocketRadius;
    }
    c.friction = mat.friction;
    c.restitution = mat.restitution;
    c.compliantLaw = mat.compliantLaw;
    c.rolling = mat.rolling;
    c.spinning = mat.spinning;
    return c;
  }

  /// Appends a point of the pair `pair` (pairContact) to this step's fresh points.
  void addFresh(const ContactPoint& pair, const Vec3& localA, const Vec3& localB,
                const Vec3& normal, double separation) {
    ContactPoint& c = fresh.emplace_back(pair);
    c.localA = localA;
    c.localB = localB;
    c.normal = normal;
    c.separation = separation;
    orthonormalBasis(c.normal, c.tangent1, c.tangent2);
  }

  /// Whether two bodies' shapes may touch at all: not two bodies that do not move, not a pair
  /// switched off (e.g. jointed), and each in a group the other's mask takes.
  bool mayCollide(const BodyObject& oa, const BodyObject& ob) const {
    if (!oa.dynamic && !ob.dynamic) return false;
    if (disabledPairs.count(pairKey(oa.body, ob.body))) return false;
    return (oa.group & ob.mask) != 0 && (ob.group & oa.mask) != 0;
  }

  /// Collides a pair of primitive-only bodies in closed form.
  void collidePrimitivePair(const BodyObject* oa, const BodyObject* ob) {
    if (oa->body > ob->body) std::swap(oa, ob);  // a canonical order: the manifold's key
    primitiveSearched.push_back(ordered(oa->body) << 32 | ordered(ob->body));
    const RigidBody& ba = currentBodies[static_cast<size_t>(oa->body)];
    const RigidBody& bb = currentBodies[static_cast<size_t>(ob->body)];
    const double margin = pairMargin(*oa, *ob);
    PrimitiveContacts points;
    for (size_t i = 0; i < oa->childDesc.size(); ++i) {
      const ShapePose& pa = oa->childWorldPose[i];
      for (size_t j = 0; j < ob->childDesc.size(); ++j) {
        const ShapePose& pb = ob->childWorldPose[j];
        const int count =
            collidePrimitives(oa->descs[size_t(oa->childDesc[i])], pa,
                              ob->descs[size_t(ob->childDesc[j])], pb, margin, points);
        if (count == 0) continue;
        const ContactPoint pair = pairContact(*oa, static_cast<int>(i), *ob, static_cast<int>(j));
        for (int k = 0; k < count; ++k) {
          const PrimitiveContact& p = points[size_t(k)];
          addFresh(pair, ba.rotation.transpose() * (p.pointA - ba.position),
                   bb.rotation.transpose() * (p.pointB - bb.position), p.normal, p.separation);
        }
      }
    }
  }

  /// A corner on the edge two triangles of a mesh share is found in both triangles' manifolds:
  /// as two points it is one row too many, and the face resting there rocked (a block on a
  /// two-triangle slope tipped over its diagonal). Drops from freshOrder every point of a body
  /// pair that coincides on body A (within kDuplicateDistance) with one of another shape pair
  /// before it.
  void dropPointsFoundTwice() {
    size_t kept = 0, run = 0;  // compacted in place; run: where this body pair's kept ones start
    for (size_t i = 0; i < freshOrder.size(); ++i) {
      const ManifoldEntry e = freshOrder[i];
      if (kept == 0 || e.bodies != freshOrder[kept - 1].bodies) run = kept;  // a new body pair
      const ContactPoint& c = fresh[size_t(e.index)];
      bool twice = false;
      for (size_t k = run; k < kept && !twice; ++k) {
        const ManifoldEntry& other = freshOrder[k];
        twice = other.shapes != e.shapes &&
                (fresh[size_t(other.index)].localA - c.localA).squaredNorm() <
                    kDuplicateDistance * kDuplicateDistance;
      }
      if (!twice) freshOrder[kept++] = e;
    }
    freshOrder.resize(kept);
  }

  /// A moving body resting across the seam of two fixed bodies (abutting boxes: a ramp and the
  /// floor at its crest, tiles, steps) gets the seam's points in both pairs' manifolds: two rows
  /// for one point, nearly parallel, on two leaves of the exact joint tree, whose small
  /// disagreement the tree resolves with opposite impulses of hundreds of N s (a humanoid's
  /// stance foot at a ramp's crest was thrown 4 m). Of two points of one moving body with two
  /// fixed bodies that coincide on it (within kSeamDistance), their normals within 25 degrees,
  /// `out` keeps the deeper: at a concave seam (a ramp's foot) a sole's toe sinking into the
  /// slope touches the floor plane under it at no depth, and keeping that one let the toe sink
  /// 1.4 cm into the ramp and the foot pitch over. Points at a floor and a wall's corner
  /// (normals apart) both stay.
  void dropSeamPoints(std::span<const RigidBody> bodies, std::vector<ContactPoint>& out) {
    if (firstGround.size() < bodies.size()) {
      firstGround.resize(bodies.size(), -1);
      seamBody.resize(bodies.size(), 0);
    }
    const auto moving = [&](const ContactPoint& c, BodyId& body, BodyId& ground) {
      const bool aFixed = !bodies[size_t(c.bodyA)].isDynamic();
      const bool bFixed = !bodies[size_t(c.bodyB)].isDynamic();
      if (aFixed == bFixed) return false;
      body = aFixed ? c.bodyB : c.bodyA;
      ground = aFixed ? c.bodyA : c.bodyB;
      return true;
    };
    bool anySeam = false;
    for (const ContactPoint& c : out) {
      BodyId body, ground;
      if (!moving(c, body, ground)) continue;
      BodyId& first = firstGround[size_t(body)];
      if (first < 0) {
        first = ground;
        groundTouchers.push_back(body);
      } else if (first != ground) {
        seamBody[size_t(body)] = 1;
        anySeam = true;
      }
    }
    if (anySeam) {
      seamDropped.assign(out.size(), 0);
      const auto onBody = [&](const ContactPoint& c, BodyId body, Vec3& local, Vec3& normal) {
        const bool onB = c.bodyB == body;
        local = onB ? c.localB : c.localA;
        normal = onB ? c.normal : Vec3(-c.normal);
      };
      for (size_t i = 0; i < out.size(); ++i) {
        const ContactPoint& c = out[i];
        BodyId body, ground;
        if (!moving(c, body, ground) || !seamBody[size_t(body)]) continue;
        Vec3 local, normal;
        onBody(c, body, local, normal);
        for (size_t k = 0; k < i && !seamDropped[i]; ++k) {
          const ContactPoint& d = out[k];
          BodyId otherBody, otherGround;
          if (seamDropped[k] || !moving(d, otherBody, otherGround) || otherBody != body ||
              otherGround == ground)
            continue;
          Vec3 otherLocal, otherNormal;
          onBody(d, body, otherLocal, otherNormal);
          if ((otherLocal - local).squaredNorm() < kSeamDistance * kSeamDistance &&
              otherNormal.dot(normal) > kSeamNormalCosine)
            seamDropped[c.separation < d.separation ? k : i] = 1;
        }
      }
      size_t kept = 0;
      for (size_t i = 0; i < out.size(); ++i)
        if (!seamDropped[i]) out[kept++] = out[i];
      out.resize(kept);
    }
    for (BodyId b : groundTouchers) {
      firstGround[size_t(b)] = -1;
      seamBody[size_t(b)] = 0;
    }
    groundTouchers.clear();
  }

  /// The primitive bodies' pairs whose boxes overlap (each grown by its share of the pair's
  /// margin: half the resting margin and its own reach), collided in closed form.
  void collidePrimitivePairs() {
    if (primitiveObjectsStale) {
      primitiveObjects.clear();
      for (auto& o : objects)
        if (o->primitive) primitiveObjects.push_back(o.get());
      primitivePairs.reset();
      primitiveObjectsStale = false;
    }
    primitiveBoxes.resize(primitiveObjects.size());
    for (size_t k = 0; k < primitiveObjects.size(); ++k) {
      const BodyObject& o = *primitiveObjects[k];
      const double grow = std::min(0.5 * kRestingMargin + o.reach, kContactMargin);
      WorldBox box{Vec3::Constant(std::numeric_limits<double>::infinity()),
                   Vec3::Constant(-std::numeric_limits<double>::infinity())};
      for (size_t i = 0; i < o.childDesc.size(); ++i) {
        const WorldBox child =
            primitiveBox(o.descs[static_cast<size_t>(o.childDesc[i])], o.childWorldPose[i], grow);
        box.min = box.min.cwiseMin(child.min);
        box.max = box.max.cwiseMax(child.max);
      }
      primitiveBoxes[k] = box;
    }
    primitivePairs.setBoxes(primitiveBoxes);
    primitivePairs.forEachOverlap([&](int i, int j) {
      const BodyObject* oa = primitiveObjects[static_cast<size_t>(i)];
      const BodyObject* ob = primitiveObjects[static_cast<size_t>(j)];
      if (!mayCollide(*oa, *ob) || frozen(oa->body, ob->body)) return;
      if (!searchAll && oa->still && ob->still && settled(oa->body, ob->body)) return;
      collidePrimitivePair(oa, ob);
    });
  }

  /// Takes Bullet's narrow-phase points as they are found, into this step's fresh points.
  /// Bullet's own manifold would merge every point within its breaking threshold (our 5 cm
  /// speculative margin) of another, leaving a small box on a mesh, or a cylinder on the floor,
  /// one point to stand on; our manifolds keep each distinct point (contact_manifold.h).
  struct FreshPointCollector final : btManifoldResult {
    FreshPointCollector(Impl& w, const btCollisionObjectWrapper* a,
                        const btCollisionObjectWrapper* b)
        : btManifoldResult(a, b), owner(w) {}
    void addContactPoint(const btVector3& normalOnB, const btVector3& pointOnB,
                         btScalar depth) override {
      if (depth > kContactMargin) return;
      // The narrow phase measures from the manifold's first body (its algorithm's order),
      // which may be this result's second.
      const bool swapped =
          m_manifoldPtr && m_manifoldPtr->getBody0() != m_body0Wrap->getCollisionObject();
      const btCollisionObject* objectA =
          (swapped ? m_body1Wrap : m_body0Wrap)->getCollisionObject();
      const btCollisionObject* objectB =
          (swapped ? m_body0Wrap : m_body1Wrap)->getCollisionObject();
      const BodyObject& oa = *owner.byBody[static_cast<size_t>(objectA->getUserIndex())];
      const BodyObject& ob = *owner.byBody[static_cast<size_t>(objectB->getUserIndex())];
      const int childA = swapped ? m_index1 : m_index0, childB = swapped ? m_index0 : m_index1;
      btVector3 onA = pointOnB + normalOnB * depth, onB = pointOnB;
      btVector3 normal = -normalOnB;  // from A to B
      btScalar separation = depth;
      if (!faceOutside(*objectA, childA, *objectB, childB, onA, onB, normal, separation)) return;
      owner.addFresh(owner.pairContact(oa, childA, ob, childB),
                     toVec3(objectA->getWorldTransform().invXform(onA)),
                     toVec3(objectB->getWorldTransform().invXform(onB)), toVec3(normal),
                     separation);
    }

    /// Mesh and heightfield faces are one-sided: a body is pushed out along a face's normal
    /// (its vertices counter-clockwise seen from outside), never through it. Bullet's triangles
    /// are two-sided: a box whose centre was put 1 cm under a heightfield fell through it. A
    /// point that would push a body straddling the face's plane inward is replaced by the face
    /// point under that body's deepest point along the normal (or dropped when that lies off
    /// the face); a body wholly behind the plane gets no point from the face. Returns false to
    /// drop the point.
    static bool faceOutside(const btCollisionObject& a, int childA, const btCollisionObject& b,
                            int childB, btVector3& onA, btVector3& onB, btVector3& normal,
                            btScalar& separation) {
      const auto child = [](const btCollisionObject& o, int i) -> const btCollisionShape* {
        const auto* compound = static_cast<const btCompoundShape*>(o.getCollisionShape());
        return i >= 0 && i < compound->getNumChildShapes() ? compound->getChildShape(i) : nullptr;
      };
      const btCollisionShape* shapeA = child(a, childA);
      const btCollisionShape* shapeB = child(b, childB);
      const bool faceA = shapeA && shapeA->getShapeType() == TRIANGLE_SHAPE_PROXYTYPE;
      const bool faceB = shapeB && shapeB->getShapeType() == TRIANGLE_SHAPE_PROXYTYPE;
      if (faceA == faceB) return true;
      const btCollisionObject& faceObject = faceA ? a : b;
      const btCollisionObject& bodyObject = faceA ? b : a;
      const auto& face = *static_cast<const btTriangleShape*>(faceA ? shapeA : shapeB);
      const btCollisionShape* body = faceA ? shapeB : shapeA;
      const auto transform = [](const btCollisionObject& o, int i) {
        return o.getWorldTransform() *
               static_cast<const btCompoundShape*>(o.getCollisionShape())->getChildTransform(i);
      };
      const btTransform faceAt = transform(faceObject, faceA ? childA : childB);
      const btVector3 v[3] = {faceAt(face.m_vertices1[0]), faceAt(face.m_vertices1[1]),
                              faceAt(face.m_vertices1[2])};
      btVector3 up = (v[1] - v[0]).cross(v[2] - v[0]);
      if (up.length2() < 1e-24) return true;
      up.normalize();
      const btVector3 faceToBody = faceA ? normal : -normal;
      if (faceToBody.dot(up) > 0) return true;  // already pushing outward
      if (!body->isConvex()) return false;
      const auto& convex = *static_cast<const btConvexShape*>(body);
      const btTransform bodyAt = transform(bodyObject, faceA ? childB : childA);
      const auto support = [&](const btVector3& direction) {
        return bodyAt(convex.localGetSupportingVertex(bodyAt.getBasis().transpose() * direction));
      };
      // Wholly behind the face's plane: a back face (of a closed mesh, or of a thin wall seen
      // from its front), no point at all.
      if (up.dot(support(up) - v[0]) < 0) return false;
      const btVector3 deepest = support(-up);
      const btScalar gap = up.dot(deepest - v[0]);
      const btVector3 under = deepest - gap * up;
      for (int i = 0; i < 3; ++i)  // under the face, or no point of this face
        if ((v[(i + 1) % 3] - v[i]).cross(under - v[i]).dot(up) < 0) return false;
      separation = gap;
      normal = faceA ? up : -up;
      onA = faceA ? under : deepest;
      onB = faceA ? deepest : under;
      return true;
    }
    Impl& owner;
  };

  /// Bullet's default near callback with our point collector (and no pair a sleeping island
  /// keeps as it was).
  static void nearCallback(btBroadphasePair& pair, btCollisionDispatcher& dispatcher,
                           const btDispatcherInfo& info) {
    Impl& w = *static_cast<PairDispatcher&>(dispatcher).owner;
    const auto* a = static_cast<const btCollisionObject*>(pair.m_pProxy0->m_clientObject);
    const auto* b = static_cast<const btCollisionObject*>(pair.m_pProxy1->m_clientObject);
    if (!dispatcher.needsCollision(a, b)) return;
    if (w.frozen(a->getUserIndex(), b->getUserIndex())) return;
    const btCollisionObjectWrapper wrapA(nullptr, a->getCollisionShape(), a, a->getWorldTransform(),
                                         -1, -1);
    const btCollisionObjectWrapper wrapB(nullptr, b->getCollisionShape(), b, b->getWorldTransform(),
                                         -1, -1);
    if (!pair.m_algorithm)
      pair.m_algorithm =
          dispatcher.findAlgorithm(&wrapA, &wrapB, nullptr, BT_CONTACT_POINT_ALGORITHMS);
    if (!pair.m_algorithm) return;
    FreshPointCollector points(w, &wrapA, &wrapB);
    pair.m_algorithm->processCollision(&wrapA, &wrapB, info, &points);
  }

  /// The pair had points last step (previousOrder, sorted by body pair), and none has slid
  /// kStillDrift off its place on the other body since it was found.
  bool settled(BodyId a, BodyId b) const {
    bool touched = false;
    for (const std::uint64_t bodies :
         {ordered(a) << 32 | ordered(b), ordered(b) << 32 | ordered(a)}) {
      auto it = std::lower_bound(
          previousOrder.begin(), previousOrder.end(), bodies,
          [](const ManifoldEntry& e, std::uint64_t key) { return e.bodies < key; });
      for (; it != previousOrder.end() && it->bodies == bodies; ++it) {
        const ContactPoint& c = currentPrevious[static_cast<size_t>(it->index)];
        const RigidBody& ba = currentBodies[static_cast<size_t>(c.bodyA)];
        const RigidBody& bb = currentBodies[static_cast<size_t>(c.bodyB)];
        const Vec3 apart = bb.toWorld(c.localB) - ba.toWorld(c.localA);
        if ((apart - apart.dot(c.normal) * c.normal).squaredNorm() > kStillDrift * kStillDrift)
          return false;
        touched = true;
      }
    }
    return touched;
  }

  /// Neither body moves and one sleeps: the pair keeps last step's points as they are.
  bool frozen(BodyId a, BodyId b) const {
    const RigidBody& ba = currentBodies[static_cast<size_t>(a)];
    const RigidBody& bb = currentBodies[static_cast<size_t>(b)];
    return (ba.sleeping || bb.sleeping) && !ba.isActive() && !bb.isActive();
  }

  /// The collision object of body `id`, or null (a body without shapes).
  const BodyObject* object(BodyId id) const {
    return id >= 0 && static_cast<size_t>(id) < byBody.size() ? byBody[static_cast<size_t>(id)]
                                                              : nullptr;
  }

  /// The speculative distance of a pair of primitive bodies: points this far apart are found
  /// (and kept while no farther apart along their normal). What the bodies' speeds can close within
  /// twice the speculative time - the solver's own cut for a speculative row - over a resting
  /// margin, at most kContactMargin. A pair with a mesh, hull or cylinder (Bullet's) has
  /// kContactMargin.
  double pairMargin(const BodyObject& oa, const BodyObject& ob) const {
    if (!oa.primitive || !ob.primitive) return kContactMargin;
    return std::min(kRestingMargin + oa.reach + ob.reach, kContactMargin);
  }

  /// A mesh or heightfield becomes one child triangle per face: each triangle then has a
  /// manifold of its own (Bullet's concave shapes share one four-point manifold among all
  /// triangles, and without persistence in Bullet a box resting across two triangles loses a
  /// corner to the other triangle's speculative point).
  void addTriangles(BodyObject& o, const ShapeDesc& s, const btTransform& local) {
    std::vector<Vec3> vertices;
    std::vector<int> triangles;
    if (s.type == ShapeType::Mesh) {
      if (s.vertices.empty() || s.triangles.size() < 3 || s.triangles.size() % 3)
        throw std::invalid_argument("a mesh needs vertices and 3 indices per triangle");
      for (int i : s.triangles)
        if (i < 0 || i >= static_cast<int>(s.vertices.size()))
          throw std::invalid_argument("mesh index out of range");
      vertices = s.vertices;
      triangles = s.triangles;
    } else {
      if (s.rows < 2 || s.columns < 2 || static_cast<int>(s.heights.size()) != s.rows * s.columns ||
          !(s.cellSize > 0))
        throw std::invalid_argument(
            "heightfield needs rows, columns >= 2, rows*columns heights, cell size > 0");
      for (int j = 0; j < s.columns; ++j)
        for (int i = 0; i < s.rows; ++i)
          vertices.emplace_back((i - 0.5 * (s.rows - 1)) * s.cellSize,
                                (j - 0.5 * (s.columns - 1)) * s.cellSize,
                                s.heights[static_cast<size_t>(j * s.rows + i)]);
      for (int j = 0; j + 1 < s.columns; ++j)
        for (int i = 0; i + 1 < s.rows; ++i) {
          const int v = j * s.rows + i;
          triangles.insert(triangles.end(),
                           {v, v + 1, v + s.rows + 1, v, v + s.rows + 1, v + s.rows});
        }
    }
    if (!o.compound->getDynamicAabbTree()) o.compound->createAabbTreeFromChildren();
    const int desc = static_cast<int>(o.descs.size()) - 1;
    for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
      const Vec3 &a = vertices[size_t(triangles[t])], &b = vertices[size_t(triangles[t + 1])],
                 &c = vertices[size_t(triangles[t + 2])];
      if ((b - a).cross(c - a).norm() < 1e-12) continue;  // degenerate: no face to touch
      auto triangle = std::make_unique<SpeculativeTriangle>(bt(a), bt(b), bt(c), kContactMargin);
      triangle->setMargin(0.0);  // as Bullet's own concave shapes: the face is the surface
      o.compound->addChildShape(local, triangle.get());
      o.shapes.push_back(std::move(triangle));
      o.childDesc.push_back(desc);
    }
  }

  Impl() {
    world.getPairCache()->setOverlapFilterCallback(this);
    dispatcher.owner = this;
    dispatcher.setNearCallback(&Impl::nearCallback);
    // Capsules on meshes and heightfields in closed form (capsule_triangle.h).
    capsuleTriangle[0] = makeCapsuleTriangleCreateFunc(false, kContactMargin);
    capsuleTriangle[1] = makeCapsuleTriangleCreateFunc(true, kContactMargin);
    dispatcher.registerCollisionCreateFunc(CAPSULE_SHAPE_PROXYTYPE, TRIANGLE_SHAPE_PROXYTYPE,
                                           capsuleTriangle[0].get());
    dispatcher.registerCollisionCreateFunc(TRIANGLE_SHAPE_PROXYTYPE, CAPSULE_SHAPE_PROXYTYPE,
                                           capsuleTriangle[1].get());
    // Boxes and cylinders on them: speculative corners and rim points in closed form, Bullet's
    // algorithm on edges (corner_triangle.h).
    for (const bool swapped : {false, true})
      for (const int shape : {BOX_SHAPE_PROXYTYPE, CYLINDER_SHAPE_PROXYTYPE}) {
        const int first = swapped ? TRIANGLE_SHAPE_PROXYTYPE : shape;
        const int second = swapped ? shape : TRIANGLE_SHAPE_PROXYTYPE;
        auto& func = cornerTriangle[swapped][shape == CYLINDER_SHAPE_PROXYTYPE];
        btCollisionAlgorithmCreateFunc* bullets =
            configuration.getCollisionAlgorithmCreateFunc(first, second);
        func = shape == BOX_SHAPE_PROXYTYPE
                   ? makeBoxTriangleCreateFunc(swapped, kContactMargin, bullets)
                   : makeCylinderTriangleCreateFunc(swapped, kContactMargin, bullets);
        dispatcher.registerCollisionCreateFunc(first, second, func.get());
      }
    // A face resting on a plane or another convex gets its full contact patch at once (by
    // perturbing the pose), not one point per step: a box needs >= 3 points to stand still.
    configuration.setPlaneConvexMultipointIterations(5, 4);
    configuration.setConvexConvexMultipointIterations(5, 4);
    // Polyhedra (boxes) against triangles: separating-axis test and face clipping, the whole
    // patch exactly (a box across two triangles rests on its true corners).
    world.getDispatchInfo().m_enableSatConvex = true;
    // Speculative contacts need points before the bodies touch: an absolute margin (Bullet's
    // default scales it with the shape, 2 mm for a 10 cm ball) covering 5 m/s at a 10 ms step.
    dispatcher.setDispatcherFlags(
        dispatcher.getDispatcherFlags() &
        ~btCollisionDispatcher::CD_USE_RELATIVE_CONTACT_BREAKING_THRESHOLD);
    gContactBreakingThreshold = kContactMargin;
  }
  static constexpr double kContactMargin = 0.05;  // m
  /// Fresh points of one manifold this close on body A are one point (unit: m): a tenth of the
  /// smallest body the contacts are tested with (1 cm).
  static constexpr double kDuplicateDistance = 0.001;
  static constexpr double kSeamDistance = 0.005;       ///< (m) dropSeamPoints
  static constexpr double kSeamNormalCosine = 0.9063;  ///< cos 25 degrees
  /// Resting bodies' speculative distance (unit: m): room for gravity's pull within a step
  /// (2 g dt^2, 2 mm at 10 ms) and for a resting point to persist (Bullet's breaking threshold
  /// is 2 cm). A lying ragdoll at 5 cm had 44 points, 25 of them apart by more than the 2 mm its
  /// solver would take rows for.
  static constexpr double kRestingMargin = 0.01;  // m
  /// Surface speed (|v| + |w| R) below which a body holds still at the end of a step: a pair of
  /// such bodies that touched keeps its points, re-measured, without a new search - nothing can
  /// have come into reach (1 um in a 10 ms step, against a 1 cm margin). A pair creeping that
  /// slowly is searched again once a point has slid kStillDrift since it was found.
  static constexpr double kStillSpeed = 1e-4;  // m/s
  static constexpr double kStillDrift = 1e-5;  // m
  bool searchAll = true;  ///< the next detect searches every pair (a new world, an edit by hand)
  std::span<const ContactPoint> currentPrevious;  ///< detect's `previous`
  ~Impl() override {
    for (auto& o : objects) world.removeCollisionObject(o->object.get());
  }

  // Bullet's broadphase filter: the pairs with a non-primitive body that mayCollide.
  bool needBroadphaseCollision(btBroadphaseProxy* p0, btBroadphaseProxy* p1) const override {
    const auto* a = static_cast<const btCollisionObject*>(p0->m_clientObject);
    const auto* b = static_cast<const btCollisionObject*>(p1->m_clientObject);
    const BodyObject* oa = byBody[static_cast<size_t>(a->getUserIndex())];
    const BodyObject* ob = byBody[static_cast<size_t>(b->getUserIndex())];
    if (oa->primitive && ob->primitive) return false;  // collidePrimitivePairs has them
    return mayCollide(*oa, *ob);
  }

  std::unique_ptr<btCollisionShape> makeShape(const ShapeDesc& s, bool dynamic) {
    const auto staticOnly = [&](const char* what) {
      if (dynamic)
        throw std::invalid_argument(std::string(what) + " shapes are for static bodies only");
    };
    switch (s.type) {
      case ShapeType::Plane:
        staticOnly("plane");
        return std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), 0.0);
      case ShapeType::Box:
        if (!(s.size.minCoeff() > 0.0)) throw std::invalid_argument("box size must be positive");
        {
          auto box = std::make_unique<btBoxShape>(bt(0.5 * s.size));
          // Face data for Bullet's clipping against triangles (a resting face gets its corners in
          // one step, as on a plane, not one GJK point a step).
          box->initializePolyhedralFeatures();
          return box;
        }
      case ShapeType::Sphere:
        if (!(s.radius > 0.0)) throw std::invalid_argument("sphere radius must be positive");
        return std::make_unique<btSphereShape>(s.radius);
      case ShapeType::Capsule:
        if (!(s.radius > 0.0) || !(s.length >= 0.0))
          throw std::invalid_argument("capsule radius/length invalid");
        return std::make_unique<btCapsuleShapeZ>(s.radius, s.length);
      case ShapeType::Cylinder:
        if (!(s.radius > 0.0) || !(s.length > 0.0))
          throw std::invalid_argument("cylinder radius/length invalid");
        {
          // A thin margin, as the hull's: Bullet's default (4 cm, or a tenth of the smallest
          // half-size) rounds the rim, and GJK measured a resting cylinder up to 1 mm off a face.
          auto cylinder =
              std::make_unique<btCylinderShapeZ>(btVector3(s.radius, s.radius, 0.5 * s.length));
          cylinder->setMargin(std::min<btScalar>(0.001, 0.1 * std::min(s.radius, 0.5 * s.length)));
          return cylinder;
        }
      case ShapeType::ConvexHull: {
        if (s.vertices.size() < 4)
          throw std::invalid_argument("a convex hull needs at least 4 vertices");
        auto hull = std::make_unique<btConvexHullShape>();
        for (const Vec3& v : s.vertices) hull->addPoint(bt(v), false);
        hull->recalcLocalAabb();
        hull->setMargin(0.001);
        return hull;
      }
      case ShapeType::Mesh:
      case ShapeType::Heightfield:
        break;  // triangles: see addTriangles
    }
    throw std::invalid_argument("unknown shape type");
  }
};

CollisionWorld::CollisionWorld() : impl_(std::make_unique<Impl>()) {}
CollisionWorld::~CollisionWorld() = default;

void CollisionWorld::searchAllPairs(bool all) {
  impl_->searchAll = all;
}

void CollisionWorld::markStill(std::span<const RigidBody> bodies) {
  for (auto& o : impl_->objects) {
    const RigidBody& b = bodies[static_cast<size_t>(o->body)];
    o->still =
        b.type == BodyType::Static ||
        b.linearVelocity.norm() + b.angularVelocity.norm() * o->boundingRadius < Impl::kStillSpeed;
  }
}

bool CollisionWorld::empty() const {
  return impl_->objects.empty();
}

void CollisionWorld::addShape(BodyId id, const RigidBody& body, const ShapeDesc& shape) {
  Impl& w = *impl_;
  if (static_cast<size_t>(id) >= w.byBody.size())
    w.byBody.resize(static_cast<size_t>(id) + 1, nullptr);
  BodyObject* o = w.byBody[static_cast<size_t>(id)];
  if (!o) {
    w.objects.push_back(std::make_unique<BodyObject>());
    o = w.objects.back().get();
    o->body = id;
    o->dynamic = body.isDynamic();
    o->object = std::make_unique<btCollisionObject>();
    o->object->setUserIndex(id);
    o->compound = std::make_unique<btCompoundShape>(false);
    o->object->setCollisionShape(o->compound.get());
    if (body.type == BodyType::Static)
      o->object->setCollisionFlags(btCollisionObject::CF_STATIC_OBJECT);
    if (body.type == BodyType::Kinematic)
      o->object->setCollisionFlags(btCollisionObject::CF_KINEMATIC_OBJECT);
    w.byBody[static_cast<size_t>(id)] = o;
  } else {
    w.world.removeCollisionObject(o->object.get());
  }
  const btTransform local(bt(shape.orientation.normalized()), bt(shape.position));
  if (shape.type == ShapeType::Mesh || shape.type == ShapeType::Heightfield) {
    if (body.isDynamic())
      throw std::invalid_argument("mesh and heightfield shapes are for static bodies only");
    o->descs.push_back(shape);
    w.addTriangles(*o, shape, local);
    o->primitive = false;  // Bullet collides it: its triangles need no childPose
  } else {
    o->shapes.push_back(w.makeShape(shape, body.isDynamic()));
    o->descs.push_back(shape);
    o->childDesc.push_back(static_cast<int>(o->descs.size()) - 1);
    o->compound->addChildShape(local, o->shapes.back().get());
    o->childPose.push_back({shape.position, shape.orientation.normalized().toRotationMatrix()});
    o->childWorldPose.push_back(o->childPose.back());
    o->primitive = o->primitive && isPrimitiveShape(shape.type);
    o->boundingRadius =
        std::max(o->boundingRadius, shape.position.norm() + primitiveBoundingRadius(shape));
  }
  o->featureSize = std::min(o->featureSize, smallestHalfExtent(shape));
  o->group |= shape.group;
  o->mask |= shape.mask;
  w.primitiveObjectsStale = true;
  w.anyBulletObject = w.anyBulletObject || !o->primitive;
  o->object->setWorldTransform(btTransform(bt(body.orientation), bt(body.position)));
  w.world.addCollisionObject(o->object.get(), btBroadphaseProxy::DefaultFilter,
                             btBroadphaseProxy::AllFilter);
}

bool CollisionWorld::isJointed(BodyId id) const {
  return impl_->isJointed(id);
}

double CollisionWorld::featureSize(BodyId id) const {
  const BodyObject* o = impl_->object(id);
  return o ? o->featureSize : std::numeric_limits<double>::infinity();
}

double CollisionWorld::boundingRadius(BodyId id) const {
  const BodyObject* o = impl_->object(id);
  return o ? o->boundingRadius : 0.0;
}

namespace {

/// Fraction of the motion of `shape` from `from` to `to` at which it first comes within 1 mm of
/// `target` at `at` (a convex shape or a plane); 0 if it starts that close and approaches, 1 if
/// it never does.
double castAgainst(const btConvexShape& shape, const btTransform& from, const btTransform& to,
                   const btCollisionShape& target, const btTransform& at) {
  btConvexCast::CastResult result;
  result.m_allowedPenetration = 0;
  bool hit = false;
  if (target.getShapeType() == STATIC_PLANE_PROXYTYPE) {
    btContinuousConvexCollision cast(&shape, static_cast<const btStaticPlaneShape*>(&target));
    hit = cast.calcTimeOfImpact(from, to, at, at, result);
  } else if (target.isConvex()) {
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver penetration;
    btContinuousConvexCollision cast(&shape, static_cast<const btConvexShape*>(&target), &simplex,
                                     &penetration);
    hit = cast.calcTimeOfImpact(from, to, at, at, result);
  }
  return hit ? std::clamp(double(result.m_fraction), 0.0, 1.0) : 1.0;
}

/// Collects the compound children a tree walk reaches (their indices) into `out`.
struct ChildrenInBox final : btDbvt::ICollide {
  std::vector<int>* out = nullptr;
  void Process(const btDbvtNode* leaf) override { out->push_back(leaf->dataAsInt); }
};

}  // namespace

double CollisionWorld::timeOfImpact(std::span<const RigidBody> bodies, BodyId id,
                                    const Vec3& startPosition, const Quat& startOrientation) {
  Impl& w = *impl_;
  const BodyObject* o = w.object(id);
  if (!o || !std::isfinite(o->featureSize)) return 1.0;
  const RigidBody& body = bodies[static_cast<size_t>(id)];
  const btTransform from(bt(startOrientation.normalized()), bt(startPosition));
  const btTransform to(bt(body.orientation), bt(body.position));
  const btSphereShape core(0.5 * o->featureSize);
  const btTransform coreFrom(btQuaternion::getIdentity(), bt(startPosition));
  const btTransform coreTo(btQuaternion::getIdentity(), bt(body.position));
  double first = 1.0;
  for (int i = 0; i < o->compound->getNumChildShapes(); ++i) {
    const btCollisionShape* child = o->compound->getChildShape(i);
    if (!child->isConvex()) continue;
    const auto& shape = *static_cast<const btConvexShape*>(child);
    const btTransform& local = o->compound->getChildTransform(i);
    const btTransform shapeFrom = from * local, shapeTo = to * local;
    // The swept shape's box: its bounding sphere along the path of its centre.
    btVector3 centre;
    btScalar radius;
    shape.getBoundingSphere(centre, radius);
    const btVector3 c0 = shapeFrom(centre), c1 = shapeTo(centre), r(radius, radius, radius);
    btVector3 sweptMin = c0, sweptMax = c0;
    sweptMin.setMin(c1);
    sweptMax.setMax(c1);
    sweptMin -= r;
    sweptMax += r;
    for (const auto& other : w.objects) {
      const RigidBody& target = bodies[static_cast<size_t>(other->body)];
      if (other.get() == o || (target.isDynamic() && !body.bullet) || !w.mayCollide(*o, *other))
        continue;
      // A moving target where it ends the step (a bullet's targets are swept as if still there).
      const btTransform at = target.type != BodyType::Static
                                 ? btTransform(bt(target.orientation), bt(target.position))
                                 : other->object->getWorldTransform();
      btVector3 lo, hi;
      other->compound->getAabb(at, lo, hi);
      if (!TestAabbAgainstAabb2(sweptMin, sweptMax, lo, hi)) continue;
      // Its children near the path: through its tree (a mesh's faces, in its own frame) or all.
      w.sweepChildren.clear();
      if (const btDbvt* tree = other->compound->getDynamicAabbTree()) {
        btVector3 localMin, localMax;
        btTransformAabb(sweptMin, sweptMax, 0, at.inverse(), localMin, localMax);
        ChildrenInBox visit;
        visit.out = &w.sweepChildren;
        tree->collideTVNoStackAlloc(tree->m_root, btDbvtVolume::FromMM(localMin, localMax),
                                    w.sweepStack, visit);
      } else {
        for (int k = 0; k < other->compound->getNumChildShapes(); ++k) w.sweepChildren.push_back(k);
      }
      for (const int k : w.sweepChildren) {
        const btCollisionShape& face = *other->compound->getChildShape(k);
        const btTransform faceAt = at * other->compound->getChildTransform(k);
        double t = castAgainst(shape, shapeFrom, shapeTo, face, faceAt);
        if (t <= 0.0) {  // touching at the start: the core must not pass through either
          t = castAgainst(core, coreFrom, coreTo, face, faceAt);
          if (t <= 0.0) t = 1.0;  // the core too: too deep to tell the near side
        }
        first = std::min(first, t);
      }
    }
  }
  return first;
}

std::optional<RayHit> CollisionWorld::castRayStatic(const Vec3& from, const Vec3& to) const {
  // (Bullet calls every collision object static until told otherwise: ask our bodies.)
  struct StaticOnly final : btCollisionWorld::ClosestRayResultCallback {
    StaticOnly(const Vec3& from, const Vec3& to, const Impl& w)
        : ClosestRayResultCallback(bt(from), bt(to)), world(w) {}
    bool needsCollision(btBroadphaseProxy* proxy) const override {
      const auto* o = static_cast<const btCollisionObject*>(proxy->m_clientObject);
      return !world.byBody[static_cast<size_t>(o->getUserIndex())]->dynamic &&
             !o->isKinematicObject();
    }
    const Impl& world;
  };
  StaticOnly result(from, to, *impl_);
  impl_->world.rayTest(bt(from), bt(to), result);
  if (!result.hasHit()) return std::nullopt;
  RayHit hit;
  hit.body = result.m_collisionObject->getUserIndex();
  hit.point = toVec3(result.m_hitPointWorld);
  hit.normal = toVec3(result.m_hitNormalWorld).normalized();
  hit.fraction = result.m_closestHitFraction;
  return hit;
}

void CollisionWorld::markJointed(BodyId id) {
  if (id < 0) return;
  if (static_cast<size_t>(id) >= impl_->jointed.size())
    impl_->jointed.resize(static_cast<size_t>(id) + 1, 0);
  impl_->jointed[static_cast<size_t>(id)] = 1;
}

bool CollisionWorld::pairEnabled(BodyId a, BodyId b) const {
  return !impl_->disabledPairs.count(pairKey(a, b));
}

void CollisionWorld::setPairEnabled(BodyId a, BodyId b, bool enabled) {
  Impl& w = *impl_;
  if (enabled)
    w.disabledPairs.erase(pairKey(a, b));
  else
    w.disabledPairs.insert(pairKey(a, b));
  // The broadphase may already hold the pair (or have skipped it): bring it in line now.
  const auto object = [&](BodyId id) -> btCollisionObject* {
    const BodyObject* o = w.object(id);
    return o ? o->object.get() : nullptr;
  };
  btCollisionObject* oa = object(a);
  btCollisionObject* ob = object(b);
  if (!oa || !ob || !oa->getBroadphaseHandle() || !ob->getBroadphaseHandle()) return;
  btOverlappingPairCache* cache = w.world.getPairCache();
  if (enabled)
    cache->addOverlappingPair(oa->getBroadphaseHandle(), ob->getBroadphaseHandle());
  else
    cache->removeOverlappingPair(oa->getBroadphaseHandle(), ob->getBroadphaseHandle(),
                                 &w.dispatcher);
}

void CollisionWorld::detect(std::span<const RigidBody> bodies, const MaterialTable& materials,
                            std::span<const ContactPoint> previous, std::vector<ContactPoint>& out,
                            double speculativeTime) {
  out.clear();
  Impl& w = *impl_;
  for (auto& o : w.objects) {
    const RigidBody& b = bodies[static_cast<size_t>(o->body)];
    // Twice what a surface point can move in the speculative time: |v + w x r| <= |v| + |w| R.
    o->reach = 2.0 * speculativeTime *
               (b.linearVelocity.norm() + b.angularVelocity.norm() * o->boundingRadius);
    if (w.anyBulletObject && (o->dynamic || b.type == BodyType::Kinematic))
      o->object->setWorldTransform(btTransform(bt(b.orientation), bt(b.position)));
    // Primitive shapes in the world once a step, not once for each pair they are in.
    if (o->primitive)
      for (size_t i = 0; i < o->childPose.size(); ++i)
        o->childWorldPose[i] = {b.toWorld(o->childPose[i].position),
                                b.rotation * o->childPose[i].rotation};
  }
  // Bullet finds this step's points from the poses alone (FreshPointCollector; its manifolds
  // stay empty); the points persist from step to step through our manifolds below
  // (contact_manifold.h).
  w.fresh.clear();
  w.currentBodies = bodies;
  w.currentMaterials = &materials;
  sortByManifold(previous, w.previousOrder);  // which pairs touched: for the still pairs
  w.currentPrevious = previous;
  w.primitiveSearched.clear();
  w.collidePrimitivePairs();
  std::sort(w.primitiveSearched.begin(), w.primitiveSearched.end());
  w.searchAll = false;
  // Pairs with a mesh, hull or cylinder: Bullet's broadphase and narrowphase.
  if (w.anyBulletObject) w.world.performDiscreteCollisionDetection();

  sortByManifold(w.fresh, w.freshOrder);
  w.foundManifolds.clear();
  for (const ManifoldEntry& e : w.freshOrder)
    if (w.foundManifolds.empty() || w.foundManifolds.back() != std::pair(e.bodies, e.shapes))
      w.foundManifolds.emplace_back(e.bodies, e.shapes);
  w.dropPointsFoundTwice();

  // Each manifold's points are written straight into `out`: last step's that are still valid,
  // then this step's (contact_manifold.h's rules, Bullet's).
  size_t i = 0, j = 0;
  const size_t freshCount = w.freshOrder.size(), previousCount = w.previousOrder.size();
  while (i < freshCount || j < previousCount) {
    const ManifoldEntry key =
        i == freshCount || (j < previousCount && w.previousOrder[j].manifoldBefore(w.freshOrder[i]))
            ? w.previousOrder[j]
            : w.freshOrder[i];
    const BodyId bodyA = key.bodyA(), bodyB = key.bodyB();
    const BodyObject* oa = w.object(bodyA);
    const BodyObject* ob = w.object(bodyB);
    const double margin = oa && ob ? w.pairMargin(*oa, *ob) : Impl::kContactMargin;
    // A pair with a link of a jointed mechanism keeps Bullet's rule: a point within the 5 cm
    // breaking distance of another (kept or found this step) is that point. Thin faces of robot
    // links (the MF-4's jaws and wrist plates) then push on two points rather than four: with
    // four, the exact joint tree and the contacts swept around it converged so slowly that a
    // step cut at 20 iterations threw seed 000's door at 1.6 rad/s (at 25: 15 rad/s; settled
    // from 30 on). Any other pair matches within its own size (pointMatchDistance).
    const bool mechanism = oa && ob && (w.isJointed(bodyA) || w.isJointed(bodyB));
    const double match = mechanism || !oa || !ob
                             ? Impl::kContactMargin
                             : pointMatchDistance(oa->featureSize, ob->featureSize,
                                                  Impl::kDuplicateDistance, Impl::kContactMargin);
    const size_t start = out.size();
    int count = 0;
    // Last step's points that are still valid at the new poses keep their impulses; a pair that
    // was switched off since loses its points.
    const bool enabled = !w.disabledPairs.count(pairKey(bodyA, bodyB));
    const bool frozen = w.frozen(bodyA, bodyB);
    // A shape pair the exact colliders searched this step and found apart keeps nothing:
    // refreshed along its old normal, a kept point still touched where the surfaces had slid
    // apart sideways (the MF-4's wrist plate past a door's edge pushed the door for 2 s). Points
    // dropped at a seam as another pair's count as found. Pairs the broadphase culls keep
    // theirs until they break (docs/engine.md, "Known gaps").
    const bool foundApart =
        std::binary_search(w.primitiveSearched.begin(), w.primitiveSearched.end(), key.bodies) &&
        !std::binary_search(w.foundManifolds.begin(), w.foundManifolds.end(),
                            std::pair(key.bodies, key.shapes));
    for (; j < previousCount && w.previousOrder[j].sameManifold(key); ++j) {
      if (!enabled || foundApart || count == kManifoldCapacity) continue;
      out.push_back(previous[size_t(w.previousOrder[j].index)]);
      ContactPoint& c = out.back();
      if (frozen ||
          refreshContactPoint(c, bodies[size_t(c.bodyA)], bodies[size_t(c.bodyB)], margin, match))
        ++count;
      else
        out.pop_back();
    }
    // New points replace the kept point they coincide with (taking over its impulses: the warm
    // start; each kept point once), fill free slots, or replace the slot that keeps the largest
    // contact area.
    const int keptCount = count;
    unsigned taken = 0, fresh = 0;  // slots: kept points matched; holding this step's points
    for (; i < freshCount && w.freshOrder[i].sameManifold(key); ++i) {
      const ContactPoint& c = w.fresh[size_t(w.freshOrder[i].index)];
      ContactPoint* group = out.data() + start;
      int slot = -1;
      if (mechanism) {
        slot = matchingSlot(std::span(group, size_t(count)), c, match);
        // Of two points found this step that merge, the deeper stands: a short tube's far end
        // took the place of the end a gripper's jaw pressed on, and the jaw closed through it.
        if (slot >= 0 && (fresh >> slot & 1u) && c.separation >= group[size_t(slot)].separation)
          continue;
      } else {
        // The narrow phase may find a point twice (its perturbed re-runs): the deeper stays.
        const int twin =
            matchingSlot(std::span(group, size_t(count)), c, Impl::kDuplicateDistance, ~fresh);
        if (twin >= 0) {
          ContactPoint& t = group[size_t(twin)];
          if (c.separation < t.separation) {
            const double normalImpulse = t.normalImpulse, impactSpeed = t.impactSpeed;
            const double tangentImpulse1 = t.tangentImpulse1, tangentImpulse2 = t.tangentImpulse2;
            t = c;
            t.normalImpulse = normalImpulse;
            t.impactSpeed = impactSpeed;
            t.tangentImpulse1 = tangentImpulse1;
            t.tangentImpulse2 = tangentImpulse2;
          }
          continue;
        }
        slot = matchingSlot(std::span(group, size_t(keptCount)), c, match, taken);
      }
      if (slot >= 0) {
        taken |= 1u << slot;
        fresh |= 1u << slot;
        ContactPoint& kept = group[size_t(slot)];
        const double normalImpulse = kept.normalImpulse, impactSpeed = kept.impactSpeed;
        const Vec3 friction =
            kept.tangentImpulse1 * kept.tangent1 + kept.tangentImpulse2 * kept.tangent2;
        kept = c;
        kept.normalImpulse = normalImpulse;
        kept.impactSpeed = impactSpeed;
        kept.tangentImpulse1 = friction.dot(c.tangent1);
        kept.tangentImpulse2 = friction.dot(c.tangent2);
      } else if (count < kManifoldCapacity) {
        out.push_back(c);
        fresh |= 1u << count;
        ++count;
      } else {
        const int replaced = slotToReplace(
            std::span<const ContactPoint, kManifoldCapacity>(group, kManifoldCapacity), c);
        group[size_t(replaced)] = c;
        fresh |= 1u << replaced;
      }
    }
  }
  w.dropSeamPoints(bodies, out);
}

}  // namespace impetus
