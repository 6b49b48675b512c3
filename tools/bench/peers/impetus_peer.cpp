// Impetus in the side-by-side benchmark: default WorldSettings (the engine as users get it), and
// the same with sleeping off (the solver's own speed, as in the peers that do not sleep).
#include "impetus_scene.h"
#include "peer_factories.h"

#include <sstream>

#include "impetus/dynamics/world.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/joints/spherical_joint.h"

namespace peers {
namespace {

using impetus::World;

class ImpetusPeer final : public PeerEngine {
 public:
  explicit ImpetusPeer(bool sleep) : sleep_(sleep) {}
  std::string label() const override { return sleep_ ? "Impetus" : "Impetus, no sleeping"; }
  std::string settings() const override {
    const impetus::SolverSettings s;
    const impetus::SleepSettings sleep;
    std::ostringstream o;
    if (sleep_)
      o << "sleeping on (default: an island slower than " << sleep.linearTolerance << " m/s and "
        << sleep.angularTolerance << " rad/s for " << sleep.timeToSleep << " s), ";
    else
      o << "sleeping off, ";
    const impetus::WorldSettings defaults;
    o << "defaults: trees of hinges and ball joints up to " << defaults.articulationMaxDepth
      << " DOF deep (the ragdoll) stepped in joint coordinates, their contacts and stops swept "
         "on the Delassus matrix through y = Z^T p, with an exact active-set step (as far as "
         "the bounds allow) of up to 8 rows first and of up to 64 after 4 unconverged sweeps, "
         "their split impulses' too (Articulation); deeper fixed-base trees of hinges that "
         "nothing touches (the chains) stepped with their joints exact: momenta and poses "
         "projected onto the joints in linear time (the poses by Newton to the nearest, "
         "stopping after a step below 0.001 rad or once the next is foreseen below it); other "
         "joints of "
         "a tree, their pushing limits, "
         "resting contacts and sticking friction solved exactly (EqualityTree), "
      << s.velocityIterations << " velocity iterations (stop at " << s.impulseTolerance
      << " N s or " << s.relativeImpulseTolerance
      << " of the largest impulse, or once no swept row's velocity changes by "
      << s.velocityTolerance << " m/s, or once a slow mode below " << s.stallVelocity
      << " m/s would not halve in the iterations left), " << s.positionIterations
      << " position iterations (Newton on a joint tree; on a forest, a step cut short solved "
         "again with 20x dearer turns, and the rest of the pass with them once a step shrank "
         "the error less than fourfold; stop at "
      << s.positionTolerance << " m or rad, joint errors below " << s.deferredJointError
      << " left to the next step's pre-projection), " << s.substeps
      << " substep, primitive bodies paired by sweep and prune and their contacts in closed form, "
         "built for "
#if defined(__AVX2__) && defined(__FMA__)
      << "x86-64-v3";
#else
      << "the compiler's baseline";
#endif
    return o.str();
  }
  void build(const BenchScene& scene) override {
    world_ = std::make_unique<World>();
    world_->settings().sleep.enabled = sleep_;
    dt_ = scene.dt;
    ids_ = addBenchScene(scene, *world_);
  }
  void step() override {
    world_->step(dt_);
  }
  void read(std::vector<BodyState>& states) override {
    states.resize(ids_.size());
    for (size_t i = 0; i < ids_.size(); ++i) {
      const impetus::RigidBody& b = world_->body(ids_[i]);
      states[i] = {b.position, b.orientation, b.linearVelocity, b.angularVelocity};
    }
  }

 private:
  bool sleep_;
  std::unique_ptr<World> world_;
  std::vector<impetus::BodyId> ids_;
  double dt_ = 0.01;
};

}  // namespace

std::vector<impetus::BodyId> addBenchScene(const BenchScene& scene, World& world) {
  world.settings().gravity = impetus::Vec3(0, 0, scene.gravity);
  world.materials()[0].friction = scene.friction;
  if (scene.ground) {
    impetus::ShapeDesc plane;
    plane.type = impetus::ShapeType::Plane;
    world.addShape(World::kGround, plane);
  }
  std::vector<impetus::BodyId> ids;
  for (const BenchBody& b : scene.bodies) {
    impetus::RigidBodyDesc d;
    d.name = b.name;
    d.mass = b.mass;
    d.inertia = b.inertia.asDiagonal();
    d.position = b.position;
    const impetus::BodyId id = world.addBody(d);
    ids.push_back(id);
    if (!scene.collisions) continue;
    impetus::ShapeDesc s;
    switch (b.shape) {
      case ShapeKind::Box:
        s.type = impetus::ShapeType::Box;
        s.size = b.boxSize;
        break;
      case ShapeKind::Sphere:
        s.type = impetus::ShapeType::Sphere;
        s.radius = b.radius;
        break;
      case ShapeKind::Capsule:
        s.type = impetus::ShapeType::Capsule;  // along local z
        s.radius = b.radius;
        s.length = b.length;
        s.orientation = impetus::Quat::FromTwoVectors(impetus::Vec3::UnitZ(),
                                                      impetus::Vec3::Unit(b.capsuleAxis));
        break;
    }
    world.addShape(id, s);
  }
  for (const BenchJoint& j : scene.joints) {
    const impetus::BodyId parent = j.parent >= 0 ? ids[j.parent] : World::kGround;
    const impetus::BodyId child = ids[j.child];
    if (j.kind == JointKind::Ball) {
      world.addJoint<impetus::SphericalJoint>(j.name, parent, child, j.anchor);
    } else {
      auto& hinge = world.addJoint<impetus::RevoluteJoint>(j.name, parent, child, j.anchor, j.axis);
      hinge.limit = {j.limited, j.lower, j.upper};
    }
  }
  return ids;
}

std::unique_ptr<PeerEngine> makeImpetusPeer() {
  return std::make_unique<ImpetusPeer>(true);
}

std::unique_ptr<PeerEngine> makeImpetusNoSleepPeer() {
  return std::make_unique<ImpetusPeer>(false);
}

}  // namespace peers
