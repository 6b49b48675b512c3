#include "collision_world.h"

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

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
  std::vector<std::unique_ptr<btTriangleIndexVertexArray>> meshes;  // meshes reference these
  std::vector<std::vector<double>> meshVertices;  // backing data for the arrays (double Bullet)
  std::vector<std::vector<int>> meshIndices;
  std::vector<std::vector<double>> heightData;
  std::uint32_t group = 0, mask = 0;
  bool dynamic = false;
  const ShapeDesc* shape(int childIndex) const {
    if (descs.empty()) return nullptr;
    if (childIndex < 0 || childIndex >= static_cast<int>(descs.size())) return &descs[0];
    return &descs[static_cast<size_t>(childIndex)];
  }
  int material(int childIndex) const {
    const ShapeDesc* s = shape(childIndex);
    return s ? s->material : 0;
  }
};

std::uint64_t pairKey(BodyId a, BodyId b) {
  const auto lo = static_cast<std::uint64_t>(std::min(a, b)),
             hi = static_cast<std::uint64_t>(std::max(a, b));
  return (hi << 32) | lo;
}

}  // namespace

struct CollisionWorld::Impl : btOverlapFilterCallback {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &configuration};
  std::vector<std::unique_ptr<BodyObject>> objects;  // by insertion
  std::vector<BodyObject*> byBody;                   // body id -> object
  std::set<std::uint64_t> disabledPairs;

  Impl() {
    world.getPairCache()->setOverlapFilterCallback(this);
    // A face resting on a plane or another convex gets its full contact patch at once (by
    // perturbing the pose), not one point per step: a box needs >= 3 points to stand still.
    configuration.setPlaneConvexMultipointIterations(5, 4);
    configuration.setConvexConvexMultipointIterations(5, 4);
    // Speculative contacts need points before the bodies touch: an absolute margin (Bullet's
    // default scales it with the shape, 2 mm for a 10 cm ball) covering 5 m/s at a 10 ms step.
    dispatcher.setDispatcherFlags(
        dispatcher.getDispatcherFlags() &
        ~btCollisionDispatcher::CD_USE_RELATIVE_CONTACT_BREAKING_THRESHOLD);
    gContactBreakingThreshold = kContactMargin;
  }
  static constexpr double kContactMargin = 0.05;  // m
  ~Impl() override {
    for (auto& o : objects) world.removeCollisionObject(o->object.get());
  }

  // Broadphase filter: non-dynamic pairs never, disabled (e.g. jointed) pairs never, then groups.
  bool needBroadphaseCollision(btBroadphaseProxy* p0, btBroadphaseProxy* p1) const override {
    const auto* a = static_cast<const btCollisionObject*>(p0->m_clientObject);
    const auto* b = static_cast<const btCollisionObject*>(p1->m_clientObject);
    const BodyObject* oa = byBody[static_cast<size_t>(a->getUserIndex())];
    const BodyObject* ob = byBody[static_cast<size_t>(b->getUserIndex())];
    if (!oa->dynamic && !ob->dynamic) return false;
    if (disabledPairs.count(pairKey(oa->body, ob->body))) return false;
    return (oa->group & ob->mask) != 0 && (ob->group & oa->mask) != 0;
  }

  std::unique_ptr<btCollisionShape> makeShape(BodyObject& o, const ShapeDesc& s, bool dynamic) {
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
        return std::make_unique<btBoxShape>(bt(0.5 * s.size));
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
        return std::make_unique<btCylinderShapeZ>(btVector3(s.radius, s.radius, 0.5 * s.length));
      case ShapeType::ConvexHull: {
        if (s.vertices.size() < 4)
          throw std::invalid_argument("a convex hull needs at least 4 vertices");
        auto hull = std::make_unique<btConvexHullShape>();
        for (const Vec3& v : s.vertices) hull->addPoint(bt(v), false);
        hull->recalcLocalAabb();
        hull->setMargin(0.001);
        return hull;
      }
      case ShapeType::Mesh: {
        staticOnly("mesh");
        if (s.vertices.empty() || s.triangles.size() < 3 || s.triangles.size() % 3)
          throw std::invalid_argument("a mesh needs vertices and 3 indices per triangle");
        for (int i : s.triangles)
          if (i < 0 || i >= static_cast<int>(s.vertices.size()))
            throw std::invalid_argument("mesh index out of range");
        auto& v = o.meshVertices.emplace_back();
        for (const Vec3& p : s.vertices) v.insert(v.end(), {p.x(), p.y(), p.z()});
        auto& idx = o.meshIndices.emplace_back(s.triangles);
        btIndexedMesh mesh;
        mesh.m_numTriangles = static_cast<int>(idx.size() / 3);
        mesh.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(idx.data());
        mesh.m_triangleIndexStride = 3 * sizeof(int);
        mesh.m_numVertices = static_cast<int>(s.vertices.size());
        mesh.m_vertexBase = reinterpret_cast<const unsigned char*>(v.data());
        mesh.m_vertexStride = 3 * sizeof(double);
        mesh.m_indexType = PHY_INTEGER;
        mesh.m_vertexType = PHY_DOUBLE;
        auto& array = o.meshes.emplace_back(std::make_unique<btTriangleIndexVertexArray>());
        array->addIndexedMesh(mesh, PHY_INTEGER);
        return std::make_unique<btBvhTriangleMeshShape>(array.get(), true);
      }
      case ShapeType::Heightfield: {
        staticOnly("heightfield");
        if (s.rows < 2 || s.columns < 2 ||
            static_cast<int>(s.heights.size()) != s.rows * s.columns || !(s.cellSize > 0))
          throw std::invalid_argument(
              "heightfield needs rows, columns >= 2, rows*columns heights, cell size > 0");
        auto& h = o.heightData.emplace_back(s.heights);
        const auto [lo, hi] = std::minmax_element(h.begin(), h.end());
        auto field = std::make_unique<btHeightfieldTerrainShape>(s.rows, s.columns, h.data(), 1.0,
                                                                 *lo, *hi, 2, PHY_DOUBLE, false);
        field->setLocalScaling(btVector3(s.cellSize, s.cellSize, 1.0));
        return field;
      }
    }
    throw std::invalid_argument("unknown shape type");
  }
};

CollisionWorld::CollisionWorld() : impl_(std::make_unique<Impl>()) {}
CollisionWorld::~CollisionWorld() = default;

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
  o->shapes.push_back(w.makeShape(*o, shape, body.isDynamic()));
  o->descs.push_back(shape);
  o->group |= shape.group;
  o->mask |= shape.mask;
  btTransform local(bt(shape.orientation.normalized()), bt(shape.position));
  o->compound->addChildShape(local, o->shapes.back().get());
  o->object->setWorldTransform(btTransform(bt(body.orientation), bt(body.position)));
  w.world.addCollisionObject(o->object.get(), btBroadphaseProxy::DefaultFilter,
                             btBroadphaseProxy::AllFilter);
}

void CollisionWorld::setPairEnabled(BodyId a, BodyId b, bool enabled) {
  Impl& w = *impl_;
  if (enabled)
    w.disabledPairs.erase(pairKey(a, b));
  else
    w.disabledPairs.insert(pairKey(a, b));
  // The broadphase may already hold the pair (or have skipped it): bring it in line now.
  const auto object = [&](BodyId id) -> btCollisionObject* {
    if (id < 0 || static_cast<size_t>(id) >= w.byBody.size() || !w.byBody[static_cast<size_t>(id)])
      return nullptr;
    return w.byBody[static_cast<size_t>(id)]->object.get();
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
                            std::vector<ContactPoint>& out) {
  out.clear();
  Impl& w = *impl_;
  for (auto& o : w.objects) {
    if (o->dynamic || bodies[static_cast<size_t>(o->body)].type == BodyType::Kinematic) {
      const RigidBody& b = bodies[static_cast<size_t>(o->body)];
      o->object->setWorldTransform(btTransform(bt(b.orientation), bt(b.position)));
    }
  }
  w.world.performDiscreteCollisionDetection();
  const int manifolds = w.dispatcher.getNumManifolds();
  for (int m = 0; m < manifolds; ++m) {
    btPersistentManifold* manifold = w.dispatcher.getManifoldByIndexInternal(m);
    const int n = manifold->getNumContacts();
    if (n == 0) continue;
    const BodyObject* oa = w.byBody[static_cast<size_t>(manifold->getBody0()->getUserIndex())];
    const BodyObject* ob = w.byBody[static_cast<size_t>(manifold->getBody1()->getUserIndex())];
    for (int k = 0; k < n; ++k) {
      btManifoldPoint& p = manifold->getContactPoint(k);
      ContactPoint c;
      c.bodyA = oa->body;
      c.bodyB = ob->body;
      c.localA = toVec3(p.m_localPointA);
      c.localB = toVec3(p.m_localPointB);
      c.normal = -toVec3(p.m_normalWorldOnB);  // Bullet's normal points from B to A
      c.separation = p.getDistance();
      orthonormalBasis(c.normal, c.tangent1, c.tangent2);
      const Material mat = materials.combine(oa->material(p.m_index0), ob->material(p.m_index1));
      const ShapeDesc* sa = oa->shape(p.m_index0);
      const ShapeDesc* sb = ob->shape(p.m_index1);
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
      c.rolling = mat.rolling;
      c.spinning = mat.spinning;
      // Warm start: the friction impulse carried as a world vector into this step's tangents.
      c.normalImpulse = p.m_appliedImpulse;
      const Vec3 friction = p.m_appliedImpulseLateral1 * toVec3(p.m_lateralFrictionDir1) +
                            p.m_appliedImpulseLateral2 * toVec3(p.m_lateralFrictionDir2);
      c.tangentImpulse1 = friction.dot(c.tangent1);
      c.tangentImpulse2 = friction.dot(c.tangent2);
      c.handle = &p;
      out.push_back(c);
    }
  }
}

void CollisionWorld::storeImpulses(std::span<const ContactPoint> points) {
  for (const ContactPoint& c : points) {
    auto* p = static_cast<btManifoldPoint*>(c.handle);
    p->m_appliedImpulse = c.normalImpulse;
    p->m_appliedImpulseLateral1 = c.tangentImpulse1;
    p->m_appliedImpulseLateral2 = c.tangentImpulse2;
    p->m_lateralFrictionDir1 = bt(c.tangent1);
    p->m_lateralFrictionDir2 = bt(c.tangent2);
  }
}

}  // namespace impetus
