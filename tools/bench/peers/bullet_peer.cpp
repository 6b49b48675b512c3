// Bullet 3.24 (float, as Debian's default build) in the side-by-side benchmark: rigid bodies with
// btHingeConstraint / btPoint2PointConstraint and the sequential-impulse solver, 10 iterations.
// Sleeping off, or Bullet's default deactivation (its sleeping: 2 s below 0.8 m/s and 1 rad/s)
// for the table's sleeping rows; friction sqrt(mu) per body so that Bullet's product rule gives
// mu per pair.
#include <btBulletDynamicsCommon.h>

#include <cmath>

#include "bullet_shapes.h"
#include "peer_factories.h"

namespace peers {
namespace {

class BulletPeer final : public PeerEngine {
 public:
  explicit BulletPeer(bool sleep) : sleep_(sleep) {}
  ~BulletPeer() override { release(); }
  std::string label() const override {
    return sleep_ ? "Bullet 3.24 SI, deactivation" : "Bullet 3.24 SI";
  }
  std::string settings() const override {
    return std::string(
               "float, btSequentialImpulseConstraintSolver, 10 iterations, ERP 0.2, split "
               "impulse (default), ") +
           (sleep_ ? "default deactivation" : "no sleeping") + ", dbvt broadphase";
  }
  void build(const BenchScene& scene) override {
    release();
    dt_ = scene.dt;
    config_ = std::make_unique<btDefaultCollisionConfiguration>();
    dispatcher_ = std::make_unique<btCollisionDispatcher>(config_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    solver_ = std::make_unique<btSequentialImpulseConstraintSolver>();
    world_ = std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(),
                                                       solver_.get(), config_.get());
    world_->setGravity(btVector3(0, 0, btScalar(scene.gravity)));
    world_->getSolverInfo().m_numIterations = 10;
    const btScalar friction = btScalar(std::sqrt(scene.friction));
    if (scene.ground) {
      shapes_.push_back(std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), 0));
      btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shapes_.back().get());
      info.m_friction = friction;
      bodies_.push_back(std::make_unique<btRigidBody>(info));
      world_->addRigidBody(bodies_.back().get());
    }
    const size_t first = bodies_.size();
    for (const BenchBody& b : scene.bodies) {
      shapes_.push_back(bulletShape(b));
      btRigidBody::btRigidBodyConstructionInfo info(btScalar(b.mass), nullptr, shapes_.back().get(),
                                                    bt(b.inertia));
      info.m_startWorldTransform.setOrigin(bt(b.position));
      info.m_friction = friction;
      bodies_.push_back(std::make_unique<btRigidBody>(info));
      btRigidBody* body = bodies_.back().get();
      if (!sleep_) body->setActivationState(DISABLE_DEACTIVATION);
      if (scene.collisions)
        world_->addRigidBody(body);
      else
        world_->addRigidBody(body, 1, 0);  // no contacts at all
    }
    sceneBodies_.clear();
    for (size_t i = first; i < bodies_.size(); ++i) sceneBodies_.push_back(bodies_[i].get());
    for (const BenchJoint& j : scene.joints) {
      btRigidBody* child = sceneBodies_[j.child];
      const btVector3 inChild = bt(j.anchor - scene.bodies[j.child].position);
      if (j.kind == JointKind::Ball) {
        if (j.parent < 0) {
          constraints_.push_back(std::make_unique<btPoint2PointConstraint>(*child, inChild));
        } else {
          constraints_.push_back(std::make_unique<btPoint2PointConstraint>(
              *sceneBodies_[j.parent], *child, bt(j.anchor - scene.bodies[j.parent].position),
              inChild));
        }
        world_->addConstraint(constraints_.back().get(), true);
        continue;
      }
      std::unique_ptr<btHingeConstraint> hinge;
      if (j.parent < 0) {
        hinge = std::make_unique<btHingeConstraint>(*child, inChild, bt(j.axis));
      } else {
        hinge = std::make_unique<btHingeConstraint>(*sceneBodies_[j.parent], *child,
                                                    bt(j.anchor - scene.bodies[j.parent].position),
                                                    inChild, bt(j.axis), bt(j.axis));
      }
      if (j.limited) {
        // Bullet's angle sign depends on the body order: turn the child a little about the axis
        // and read the sign, then give the limits in Bullet's sense.
        const btTransform saved = child->getWorldTransform();
        btTransform turned = saved;
        turned.setRotation(btQuaternion(bt(j.axis), btScalar(0.1)) * saved.getRotation());
        child->setWorldTransform(turned);
        const double sign = hinge->getHingeAngle() > 0 ? 1.0 : -1.0;
        child->setWorldTransform(saved);
        hinge->setLimit(btScalar(sign > 0 ? j.lower : -j.upper),
                        btScalar(sign > 0 ? j.upper : -j.lower));
      }
      constraints_.push_back(std::move(hinge));
      world_->addConstraint(constraints_.back().get(), true);
    }
  }
  void step() override { world_->stepSimulation(btScalar(dt_), 0); }
  void read(std::vector<BodyState>& states) override {
    states.resize(sceneBodies_.size());
    for (size_t i = 0; i < sceneBodies_.size(); ++i) {
      const btRigidBody* b = sceneBodies_[i];
      const btVector3 p = b->getCenterOfMassPosition(), v = b->getLinearVelocity(),
                      w = b->getAngularVelocity();
      const btQuaternion q = b->getOrientation();
      states[i] = {Vec3(p.x(), p.y(), p.z()), Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z()),
                   Vec3(v.x(), v.y(), v.z()), Vec3(w.x(), w.y(), w.z())};
    }
  }

 private:
  void release() {
    if (world_) {
      for (auto& c : constraints_) world_->removeConstraint(c.get());
      for (auto& b : bodies_) world_->removeRigidBody(b.get());
    }
    constraints_.clear();
    bodies_.clear();
    shapes_.clear();
    sceneBodies_.clear();
    world_.reset();
    solver_.reset();
    broadphase_.reset();
    dispatcher_.reset();
    config_.reset();
  }

  double dt_ = 0.01;
  std::unique_ptr<btDefaultCollisionConfiguration> config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btBroadphaseInterface> broadphase_;
  std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
  std::unique_ptr<btDiscreteDynamicsWorld> world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<std::unique_ptr<btTypedConstraint>> constraints_;
  std::vector<btRigidBody*> sceneBodies_;
  bool sleep_;
};

}  // namespace

std::unique_ptr<PeerEngine> makeBulletPeer() {
  return std::make_unique<BulletPeer>(false);
}

std::unique_ptr<PeerEngine> makeBulletDeactivationPeer() {
  return std::make_unique<BulletPeer>(true);
}

}  // namespace peers
