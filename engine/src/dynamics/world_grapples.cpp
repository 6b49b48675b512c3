// The world's grapples (joints/grapple.h): a captured grapple's weld is a FixedJoint kept at the
// end of the joints, in grapple order, so a world restored from a saved state lists its joints -
// and solves their rows - in the order the original did.
#include <stdexcept>

#include "../contact/collision_world.h"
#include "impetus/dynamics/world.h"
#include "impetus/joints/fixed_joint.h"

namespace impetus {

Grapple& World::addGrapple(GrappleDesc desc) {
  if (findGrapple(desc.name))
    throw std::invalid_argument("duplicate grapple name '" + desc.name + "'");
  auto grapple = std::make_unique<Grapple>(std::move(desc), bodies_);
  const GrappleDesc& d = grapple->desc();
  grappleFreeCollides_.push_back(collision_->pairEnabled(d.effector, d.target) ? 1 : 0);
  grapples_.push_back(std::move(grapple));
  return *grapples_.back();
}

Grapple* World::findGrapple(const std::string& name) {
  for (auto& g : grapples_)
    if (g->name() == name) return g.get();
  return nullptr;
}

void World::updateGrapples() {
  bool changed = false;
  for (auto& g : grapples_) {
    if (g->commanded() && !g->captured() && g->inEnvelope(bodies_)) {
      g->setCaptured(true, g->weldFrameOnEffector(bodies_), g->weldFrameOnTarget(bodies_));
      changed = true;
    } else if (!g->commanded() && g->captured()) {
      g->setCaptured(false);
      changed = true;
    }
  }
  if (changed) placeGrappleWelds();
}

void World::placeGrappleWelds() {
  joints_.resize(joints_.size() - grappleWeldCount_);
  grappleWeldCount_ = 0;
  for (size_t k = 0; k < grapples_.size(); ++k) {
    const Grapple& g = *grapples_[k];
    const BodyId e = g.desc().effector, t = g.desc().target;
    wake(e);
    wake(t);
    if (!g.captured()) {
      if (grappleFreeCollides_[k]) collision_->setPairEnabled(e, t, true);
      continue;
    }
    registerJoint(
        std::make_unique<FixedJoint>(g.name(), e, t, g.frameOnEffector(), g.frameOnTarget()));
    ++grappleWeldCount_;
  }
  articulationsDirty_ = true;
}

}  // namespace impetus
