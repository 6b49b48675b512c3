// ODE 0.16 in the side-by-side benchmark: dWorldQuickStep with 10 iterations, default ERP 0.2 and
// CFM 1e-5, Coulomb friction (dContactApprox1: the pyramid scaled by the normal force); with
// ODE's default no auto-disable, or with auto-disable on at its default thresholds (its sleeping).
#include <ode/ode.h>

#include <cmath>

#include "peer_factories.h"

namespace peers {
namespace {

class OdePeer final : public PeerEngine {
 public:
  explicit OdePeer(bool autoDisable) : autoDisable_(autoDisable) { dInitODE2(0); }
  ~OdePeer() override {
    release();
    dCloseODE();
  }
  std::string label() const override {
    return autoDisable_ ? "ODE 0.16 QuickStep, auto-disable" : "ODE 0.16 QuickStep";
  }
  std::string settings() const override {
    return std::string(
               "dWorldQuickStep, 10 iterations, ERP 0.2, CFM 1e-5, SOR 1.3, contacts "
               "dContactApprox1 (up to 8 per pair), hash space, ") +
           (autoDisable_ ? "auto-disable on (defaults: 0.01 m/s, 0.01 rad/s for 10 steps)"
                         : "no auto-disable (default)");
  }
  void build(const BenchScene& scene) override {
    release();
    scene_ = &scene;
    world_ = dWorldCreate();
    dWorldSetGravity(world_, 0, 0, scene.gravity);
    dWorldSetQuickStepNumIterations(world_, 10);
    dWorldSetAutoDisableFlag(world_, autoDisable_ ? 1 : 0);
    space_ = dHashSpaceCreate(nullptr);
    contacts_ = dJointGroupCreate(0);
    if (scene.ground) dCreatePlane(space_, 0, 0, 1, 0);
    for (const BenchBody& b : scene.bodies) {
      const dBodyID body = dBodyCreate(world_);
      dMass m;
      dMassSetParameters(&m, b.mass, 0, 0, 0, b.inertia.x(), b.inertia.y(), b.inertia.z(), 0, 0, 0);
      dBodySetMass(body, &m);
      dBodySetPosition(body, b.position.x(), b.position.y(), b.position.z());
      bodies_.push_back(body);
      if (!scene.collisions) continue;
      dGeomID g = nullptr;
      switch (b.shape) {
        case ShapeKind::Box:
          g = dCreateBox(space_, b.boxSize.x(), b.boxSize.y(), b.boxSize.z());
          break;
        case ShapeKind::Sphere:
          g = dCreateSphere(space_, b.radius);
          break;
        case ShapeKind::Capsule:
          g = dCreateCapsule(space_, b.radius, b.length);  // along local z
          break;
      }
      dGeomSetBody(g, body);
      if (b.shape == ShapeKind::Capsule && b.capsuleAxis != 2) {
        dMatrix3 r;
        if (b.capsuleAxis == 1)
          dRFromAxisAndAngle(r, 1, 0, 0, -M_PI / 2);  // z -> y
        else
          dRFromAxisAndAngle(r, 0, 1, 0, M_PI / 2);  // z -> x
        dGeomSetOffsetRotation(g, r);
      }
    }
    for (const BenchJoint& j : scene.joints) {
      const dBodyID parent = j.parent >= 0 ? bodies_[j.parent] : nullptr;
      const dBodyID child = bodies_[j.child];
      if (j.kind == JointKind::Ball) {
        const dJointID ball = dJointCreateBall(world_, nullptr);
        dJointAttach(ball, parent, child);
        dJointSetBallAnchor(ball, j.anchor.x(), j.anchor.y(), j.anchor.z());
        continue;
      }
      const dJointID hinge = dJointCreateHinge(world_, nullptr);
      dJointAttach(hinge, parent, child);
      dJointSetHingeAnchor(hinge, j.anchor.x(), j.anchor.y(), j.anchor.z());
      dJointSetHingeAxis(hinge, j.axis.x(), j.axis.y(), j.axis.z());
      if (j.limited) {
        // ODE's angle sign depends on which body is first: find it from the rate of a unit spin
        // of the child about the axis, then give the stops in ODE's sense.
        dBodySetAngularVel(child, j.axis.x(), j.axis.y(), j.axis.z());
        const double sign = dJointGetHingeAngleRate(hinge) > 0 ? 1.0 : -1.0;
        dBodySetAngularVel(child, 0, 0, 0);
        dJointSetHingeParam(hinge, dParamLoStop, sign > 0 ? j.lower : -j.upper);
        dJointSetHingeParam(hinge, dParamHiStop, sign > 0 ? j.upper : -j.lower);
      }
    }
  }
  void step() override {
    if (scene_->collisions) {
      dSpaceCollide(space_, this, &OdePeer::nearCallback);
    }
    dWorldQuickStep(world_, scene_->dt);
    dJointGroupEmpty(contacts_);
  }
  void read(std::vector<BodyState>& states) override {
    states.resize(bodies_.size());
    for (size_t i = 0; i < bodies_.size(); ++i) {
      const dReal* p = dBodyGetPosition(bodies_[i]);
      const dReal* q = dBodyGetQuaternion(bodies_[i]);  // w, x, y, z
      const dReal* v = dBodyGetLinearVel(bodies_[i]);
      const dReal* w = dBodyGetAngularVel(bodies_[i]);
      states[i] = {Vec3(p[0], p[1], p[2]), Eigen::Quaterniond(q[0], q[1], q[2], q[3]),
                   Vec3(v[0], v[1], v[2]), Vec3(w[0], w[1], w[2])};
    }
  }

 private:
  static void nearCallback(void* self, dGeomID a, dGeomID b) {
    auto* peer = static_cast<OdePeer*>(self);
    const dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
    if (ba && bb && dAreConnectedExcluding(ba, bb, dJointTypeContact)) return;  // jointed pairs
    dContact contact[8];
    const int n = dCollide(a, b, 8, &contact[0].geom, sizeof(dContact));
    for (int i = 0; i < n; ++i) {
      contact[i].surface.mode = dContactApprox1;
      contact[i].surface.mu = peer->scene_->friction;
      const dJointID c = dJointCreateContact(peer->world_, peer->contacts_, &contact[i]);
      dJointAttach(c, ba, bb);
    }
  }
  void release() {
    if (contacts_) dJointGroupDestroy(contacts_);
    if (space_) dSpaceDestroy(space_);
    if (world_) dWorldDestroy(world_);
    contacts_ = nullptr;
    space_ = nullptr;
    world_ = nullptr;
    bodies_.clear();
  }

  bool autoDisable_;
  const BenchScene* scene_ = nullptr;
  dWorldID world_ = nullptr;
  dSpaceID space_ = nullptr;
  dJointGroupID contacts_ = nullptr;
  std::vector<dBodyID> bodies_;
};

}  // namespace

std::unique_ptr<PeerEngine> makeOdePeer() {
  return std::make_unique<OdePeer>(false);
}

std::unique_ptr<PeerEngine> makeOdeAutoDisablePeer() {
  return std::make_unique<OdePeer>(true);
}

}  // namespace peers
