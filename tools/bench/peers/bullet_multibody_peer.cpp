// Bullet 3.24 btMultiBody (Featherstone, reduced coordinates) in the side-by-side benchmark: the
// articulated scenes only (chains, ragdoll). btMultiBodyConstraintSolver, 10 iterations; the
// multibody's default damping (0.04) is turned off so that energy is comparable.
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointLimitConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
#include <btBulletDynamicsCommon.h>

#include <cmath>

#include "bullet_shapes.h"
#include "peer_factories.h"

namespace peers {
namespace {

class BulletMultiBodyPeer final : public PeerEngine {
 public:
  ~BulletMultiBodyPeer() override { release(); }
  std::string label() const override { return "Bullet 3.24 btMultiBody"; }
  std::string settings() const override {
    return "float, btMultiBodyConstraintSolver, 10 iterations, damping 0, joint limits as "
           "btMultiBodyJointLimitConstraint, no sleeping";
  }
  bool supports(const BenchScene& scene, std::string& why) const override {
    // One tree: every body but one root has exactly one parent joint.
    int roots = 0;
    std::vector<int> parents(scene.bodies.size(), 0);
    for (const BenchJoint& j : scene.joints) ++parents[j.child];
    for (size_t i = 0; i < parents.size(); ++i) {
      if (parents[i] > 1) {
        why = "not a tree";
        return false;
      }
      if (parents[i] == 0) ++roots;
    }
    if (roots > 1) {
      why = "free bodies, not an articulation (btMultiBody does not apply)";
      return false;
    }
    return true;
  }
  void build(const BenchScene& scene) override {
    release();
    dt_ = scene.dt;
    config_ = std::make_unique<btDefaultCollisionConfiguration>();
    dispatcher_ = std::make_unique<btCollisionDispatcher>(config_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    solver_ = std::make_unique<btMultiBodyConstraintSolver>();
    world_ = std::make_unique<btMultiBodyDynamicsWorld>(dispatcher_.get(), broadphase_.get(),
                                                        solver_.get(), config_.get());
    world_->setGravity(btVector3(0, 0, btScalar(scene.gravity)));
    world_->getSolverInfo().m_numIterations = 10;
    const btScalar friction = btScalar(std::sqrt(scene.friction));
    if (scene.ground) {
      shapes_.push_back(std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), 0));
      btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shapes_.back().get());
      info.m_friction = friction;
      ground_ = std::make_unique<btRigidBody>(info);
      world_->addRigidBody(ground_.get());
    }
    // Base: the world (fixed) when a joint hangs from it, else the one unjointed body (floating).
    std::vector<int> parentJoint(scene.bodies.size(), -1);
    for (size_t k = 0; k < scene.joints.size(); ++k)
      parentJoint[scene.joints[k].child] = static_cast<int>(k);
    int baseBody = -1;
    for (size_t i = 0; i < scene.bodies.size(); ++i)
      if (parentJoint[i] < 0) baseBody = static_cast<int>(i);
    // Links in breadth-first order from the base (parents before children).
    linkOf_.assign(scene.bodies.size(), -2);
    std::vector<int> order;
    std::vector<int> frontier{baseBody};
    if (baseBody >= 0) linkOf_[baseBody] = -1;
    while (!frontier.empty()) {
      std::vector<int> next;
      for (int parent : frontier)
        for (const BenchJoint& j : scene.joints)
          if (j.parent == parent) {
            linkOf_[j.child] = static_cast<int>(order.size());
            order.push_back(j.child);
            next.push_back(j.child);
          }
      frontier = next;
    }
    const bool fixedBase = baseBody < 0;
    const BenchBody* base = fixedBase ? nullptr : &scene.bodies[baseBody];
    multiBody_ = std::make_unique<btMultiBody>(
        static_cast<int>(order.size()), base ? btScalar(base->mass) : btScalar(1),
        base ? bt(base->inertia) : btVector3(1, 1, 1), fixedBase, false);
    multiBody_->setBasePos(base ? bt(base->position) : btVector3(0, 0, 0));
    multiBody_->setWorldToBaseRot(btQuaternion::getIdentity());
    for (size_t link = 0; link < order.size(); ++link) {
      const int body = order[link];
      const BenchJoint& j = scene.joints[parentJoint[body]];
      const BenchBody& b = scene.bodies[body];
      const Vec3 parentPos = j.parent >= 0 ? scene.bodies[j.parent].position : Vec3::Zero();
      const int parentLink = j.parent >= 0 ? linkOf_[j.parent] : -1;
      const btVector3 toPivot = bt(j.anchor - parentPos), toCom = bt(b.position - j.anchor);
      if (j.kind == JointKind::Ball) {
        multiBody_->setupSpherical(static_cast<int>(link), btScalar(b.mass), bt(b.inertia),
                                   parentLink, btQuaternion::getIdentity(), toPivot, toCom, true);
      } else {
        multiBody_->setupRevolute(static_cast<int>(link), btScalar(b.mass), bt(b.inertia),
                                  parentLink, btQuaternion::getIdentity(), bt(j.axis), toPivot,
                                  toCom, true);
      }
    }
    multiBody_->finalizeMultiDof();
    multiBody_->setLinearDamping(0);
    multiBody_->setAngularDamping(0);
    multiBody_->setCanSleep(false);
    world_->addMultiBody(multiBody_.get());
    for (size_t link = 0; link < order.size(); ++link) {
      const BenchJoint& j = scene.joints[parentJoint[order[link]]];
      if (!j.limited) continue;
      const double sign = angleSign(static_cast<int>(link), order[link], j);
      limits_.push_back(std::make_unique<btMultiBodyJointLimitConstraint>(
          multiBody_.get(), static_cast<int>(link), btScalar(sign > 0 ? j.lower : -j.upper),
          btScalar(sign > 0 ? j.upper : -j.lower)));
      world_->addMultiBodyConstraint(limits_.back().get());
    }
    if (scene.collisions) {
      for (size_t i = 0; i < scene.bodies.size(); ++i)
        addCollider(scene.bodies[i], linkOf_[i], friction);
    }
    bodyCount_ = scene.bodies.size();
  }
  void step() override { world_->stepSimulation(btScalar(dt_), 0); }
  void read(std::vector<BodyState>& states) override {
    const int n = multiBody_->getNumLinks();
    worldToLocal_.resize(n + 1);
    localOrigin_.resize(n + 1);
    omega_.resize(n + 1);
    velocity_.resize(n + 1);
    multiBody_->forwardKinematics(worldToLocal_, localOrigin_);
    multiBody_->compTreeLinkVelocities(&omega_[0], &velocity_[0]);
    states.resize(bodyCount_);
    for (size_t i = 0; i < bodyCount_; ++i) {
      const int k = linkOf_[i] + 1;
      const btQuaternion toWorld = worldToLocal_[k].inverse();
      const btVector3 p = localOrigin_[k], w = quatRotate(toWorld, omega_[k]),
                      v = quatRotate(toWorld, velocity_[k]);
      states[i] = {Vec3(p.x(), p.y(), p.z()),
                   Eigen::Quaterniond(toWorld.w(), toWorld.x(), toWorld.y(), toWorld.z()),
                   Vec3(v.x(), v.y(), v.z()), Vec3(w.x(), w.y(), w.z())};
    }
  }

 private:
  /// +1 when a positive joint coordinate turns the child about +axis relative to its parent.
  double angleSign(int link, int body, const BenchJoint& j) {
    (void)body;
    multiBody_->setJointPos(link, btScalar(0.1));
    btAlignedObjectArray<btQuaternion> q;
    btAlignedObjectArray<btVector3> o;
    multiBody_->forwardKinematics(q, o);
    const int parent = multiBody_->getParent(link);
    const btQuaternion parentToWorld = q[parent + 1].inverse(),
                       childToWorld = q[link + 1].inverse();
    const btQuaternion rel = parentToWorld.inverse() * childToWorld;
    multiBody_->setJointPos(link, 0);
    multiBody_->forwardKinematics(q, o);
    const btVector3 axis = bt(j.axis);
    return (rel.x() * axis.x() + rel.y() * axis.y() + rel.z() * axis.z()) * rel.w() > 0 ? 1.0
                                                                                        : -1.0;
  }
  void addCollider(const BenchBody& b, int link, btScalar friction) {
    shapes_.push_back(bulletShape(b));
    auto collider = std::make_unique<btMultiBodyLinkCollider>(multiBody_.get(), link);
    collider->setCollisionShape(shapes_.back().get());
    btTransform t;
    t.setIdentity();
    t.setOrigin(bt(b.position));
    collider->setWorldTransform(t);
    collider->setFriction(friction);
    world_->addCollisionObject(collider.get(), btBroadphaseProxy::DefaultFilter,
                               btBroadphaseProxy::AllFilter);
    if (link < 0)
      multiBody_->setBaseCollider(collider.get());
    else
      multiBody_->getLink(link).m_collider = collider.get();
    colliders_.push_back(std::move(collider));
  }
  void release() {
    if (world_) {
      for (auto& l : limits_) world_->removeMultiBodyConstraint(l.get());
      for (auto& c : colliders_) world_->removeCollisionObject(c.get());
      if (multiBody_) world_->removeMultiBody(multiBody_.get());
      if (ground_) world_->removeRigidBody(ground_.get());
    }
    limits_.clear();
    colliders_.clear();
    multiBody_.reset();
    ground_.reset();
    shapes_.clear();
    world_.reset();
    solver_.reset();
    broadphase_.reset();
    dispatcher_.reset();
    config_.reset();
  }

  double dt_ = 0.01;
  size_t bodyCount_ = 0;
  std::vector<int> linkOf_;  ///< body -> link index (-1: the base)
  std::unique_ptr<btDefaultCollisionConfiguration> config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::unique_ptr<btMultiBodyConstraintSolver> solver_;
  std::unique_ptr<btMultiBodyDynamicsWorld> world_;
  std::unique_ptr<btMultiBody> multiBody_;
  std::unique_ptr<btRigidBody> ground_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btMultiBodyLinkCollider>> colliders_;
  std::vector<std::unique_ptr<btMultiBodyJointLimitConstraint>> limits_;
  btAlignedObjectArray<btQuaternion> worldToLocal_;
  btAlignedObjectArray<btVector3> localOrigin_;
  std::vector<btVector3> omega_, velocity_;
};

}  // namespace

std::unique_ptr<PeerEngine> makeBulletMultiBodyPeer() {
  return std::make_unique<BulletMultiBodyPeer>();
}

}  // namespace peers
