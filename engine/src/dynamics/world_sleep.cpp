// World's sleep bookkeeping (SleepSettings): islands at rest stop costing anything; a
// disturbance wakes the whole island it reaches.
#include <algorithm>

#include "impetus/dynamics/world.h"

namespace impetus {
namespace {

bool movable(const RigidBody& b) {
  return b.isDynamic() && !b.sleeping;
}

}  // namespace

SolverBodyMass World::solverMass(const RigidBody& body) const {
  if (body.sleeping) return {};
  return {body.inverseMass, body.inverseInertiaWorld};
}

bool World::jointIdle(const Joint& joint) const {
  if (!articulated_.empty() && articulated_[static_cast<size_t>(joint.child())]) return true;
  const RigidBody& a = bodies_[static_cast<size_t>(joint.parent())];
  const RigidBody& b = bodies_[static_cast<size_t>(joint.child())];
  return (a.sleeping || b.sleeping) && !movable(a) && !movable(b);
}

void World::buildIslands(std::span<const ContactPoint> contacts) {
  islands_.reset(bodies_.size());
  for (const auto& j : joints_)
    if (body(j->parent()).isDynamic() && body(j->child()).isDynamic())
      islands_.join(j->parent(), j->child());
  for (const ContactPoint& c : contacts)
    if (body(c.bodyA).isDynamic() && body(c.bodyB).isDynamic()) islands_.join(c.bodyA, c.bodyB);
}

bool World::markSleeperMovedBy(BodyId sleeper, BodyId other) {
  if (!body(sleeper).sleeping || !body(other).isActive()) return false;
  wakeMarks_[static_cast<size_t>(sleeper)] = 1;
  return true;
}

void World::wake(BodyId body) {
  if (body < 0 || body >= bodyCount() || !bodies_[static_cast<size_t>(body)].sleeping) return;
  wakeMarks_.assign(bodies_.size(), 0);
  wakeMarks_[static_cast<size_t>(body)] = 1;
  wakeMarkedIslands();
}

void World::wakeDisturbedIslands() {
  if (sleepingCount_ == 0) return;
  wakeMarks_.assign(bodies_.size(), 0);
  bool any = false;
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const RigidBody& b = bodies_[i];
    if (!b.sleeping) continue;
    const bool disturbed = !settings_.sleep.enabled || b.force != Vec3::Zero() ||
                           b.torque != Vec3::Zero() || b.linearVelocity != Vec3::Zero() ||
                           b.angularMomentum != Vec3::Zero();
    if (disturbed) wakeMarks_[i] = 1, any = true;
  }
  for (const auto& j : joints_) {
    any = markSleeperMovedBy(j->parent(), j->child()) || any;
    any = markSleeperMovedBy(j->child(), j->parent()) || any;
  }
  if (any) wakeMarkedIslands();
}

void World::wakeTouchedIslands() {
  if (sleepingCount_ > 0) {
    wakeMarks_.assign(bodies_.size(), 0);
    bool any = false;
    for (const ContactPoint& c : contacts_) {
      any = markSleeperMovedBy(c.bodyA, c.bodyB) || any;
      any = markSleeperMovedBy(c.bodyB, c.bodyA) || any;
    }
    if (any) wakeMarkedIslands();
  }
  // Sleeping contacts to the back, keeping the order within both parts (std::stable_partition
  // may allocate; a forward pass that moves the sleeping ones into scratch does not once warm).
  awakeContactCount_ = contacts_.size();
  if (sleepingCount_ == 0) return;
  contactScratch_.clear();
  size_t kept = 0;
  for (ContactPoint& c : contacts_) {
    if (bodies_[static_cast<size_t>(c.bodyA)].sleeping ||
        bodies_[static_cast<size_t>(c.bodyB)].sleeping)
      contactScratch_.push_back(c);
    else
      contacts_[kept++] = c;
  }
  std::copy(contactScratch_.begin(), contactScratch_.end(), contacts_.begin() + kept);
  awakeContactCount_ = kept;
}

void World::wakeMarkedIslands() {
  buildIslands(contacts_);  // sleeping contacts included: they hold a sleeping island together
  for (size_t i = 0; i < bodies_.size(); ++i)
    if (wakeMarks_[i]) wakeMarks_[static_cast<size_t>(islands_.root(static_cast<BodyId>(i)))] = 1;
  const bool midStep = masses_.size() == bodies_.size();
  for (size_t i = 0; i < bodies_.size(); ++i) {
    RigidBody& b = bodies_[i];
    if (!b.sleeping || !wakeMarks_[static_cast<size_t>(islands_.root(static_cast<BodyId>(i)))])
      continue;
    b.sleeping = false;
    b.restTime = 0.0;
    --sleepingCount_;
    if (midStep) {  // integrateVelocities saw an immovable body: give the solver the real one
      masses_[i] = solverMass(b);
      velocities_[i] = {b.linearVelocity, b.angularVelocity};
      angularBeforeSolve_[i] = b.angularVelocity;
      midpointRotation_[i] = b.rotation;
    }
  }
  std::fill(wakeMarks_.begin(), wakeMarks_.end(), 0);
}

void World::updateSleep(double dt) {
  const SleepSettings& sleep = settings_.sleep;
  if (!sleep.enabled) return;
  const double linear2 = sleep.linearTolerance * sleep.linearTolerance;
  const double angular2 = sleep.angularTolerance * sleep.angularTolerance;
  bool anyRested = false;
  for (RigidBody& b : bodies_) {
    if (!movable(b)) continue;
    if (b.linearVelocity.squaredNorm() > linear2 || b.angularVelocity.squaredNorm() > angular2)
      b.restTime = 0.0;
    else
      b.restTime += dt;
    anyRested = anyRested || b.restTime >= sleep.timeToSleep;
  }
  if (!anyRested) return;  // the common case while things move: no island bookkeeping

  const size_t n = bodies_.size();
  buildIslands(awakeContacts());
  const auto rootOf = [&](BodyId b) { return static_cast<size_t>(islands_.root(b)); };
  islandReady_.assign(n, 1);
  for (size_t i = 0; i < n; ++i)
    if (movable(bodies_[i]) && bodies_[i].restTime < sleep.timeToSleep)
      islandReady_[rootOf(static_cast<BodyId>(i))] = 0;
  // A motor keeps its island awake: its voltage can change at any step.
  for (const auto& j : joints_)
    if (!j->drives().empty())
      islandReady_[rootOf(body(j->child()).isDynamic() ? j->child() : j->parent())] = 0;
  // So do a track's contacts, and a kinematic body moving under one of the island's bodies.
  for (const ContactPoint& c : awakeContacts()) {
    const RigidBody& a = body(c.bodyA);
    const bool keepsAwake = c.trackMotor >= 0 || (!a.isDynamic() && a.isActive()) ||
                            (!body(c.bodyB).isDynamic() && body(c.bodyB).isActive());
    if (keepsAwake) islandReady_[rootOf(a.isDynamic() ? c.bodyA : c.bodyB)] = 0;
  }
  for (size_t i = 0; i < n; ++i) {
    RigidBody& b = bodies_[i];
    if (!movable(b) || !islandReady_[rootOf(static_cast<BodyId>(i))]) continue;
    b.sleeping = true;
    b.linearVelocity.setZero();
    b.angularMomentum.setZero();
    b.angularVelocity.setZero();
    ++sleepingCount_;
  }
}

}  // namespace impetus
