// World::saveState / loadState: the world's full dynamic state as a byte stream (state_stream.h).
#include "impetus/dynamics/world.h"

#include "../contact/collision_world.h"
#include "impetus/session/state_stream.h"

namespace impetus {
namespace {

void saveContact(StateWriter& out, const ContactPoint& c) {
  out.put(c.bodyA);
  out.put(c.bodyB);
  out.put(c.shapeA);
  out.put(c.shapeB);
  out.put(c.localA);
  out.put(c.localB);
  out.put(c.normal);
  out.put(c.tangent1);
  out.put(c.tangent2);
  out.put(c.separation);
  out.put(c.friction);
  out.put(c.restitution);
  out.put(c.rolling);
  out.put(c.spinning);
  out.put(c.approachSpeed);
  out.put(c.bounceShift);
  out.put(c.normalImpulse);
  out.put(c.tangentImpulse1);
  out.put(c.tangentImpulse2);
  out.put(c.trackMotor);
  out.put(c.trackOnB);
  out.put(c.trackDirection);
  out.put(c.sprocketRadius);
}

ContactPoint loadContact(StateReader& in, int bodyCount, int motorCount) {
  ContactPoint c;
  in.get(c.bodyA);
  in.get(c.bodyB);
  if (c.bodyA < 0 || c.bodyA >= bodyCount || c.bodyB < 0 || c.bodyB >= bodyCount)
    throw StateError("state: contact between unknown bodies");
  in.get(c.shapeA);
  in.get(c.shapeB);
  in.get(c.localA);
  in.get(c.localB);
  in.get(c.normal);
  in.get(c.tangent1);
  in.get(c.tangent2);
  in.get(c.separation);
  in.get(c.friction);
  in.get(c.restitution);
  in.get(c.rolling);
  in.get(c.spinning);
  in.get(c.approachSpeed);
  in.get(c.bounceShift);
  in.get(c.normalImpulse);
  in.get(c.tangentImpulse1);
  in.get(c.tangentImpulse2);
  in.get(c.trackMotor);
  if (c.trackMotor < -1 || c.trackMotor >= motorCount)
    throw StateError("state: contact driven by an unknown track motor");
  in.get(c.trackOnB);
  in.get(c.trackDirection);
  in.get(c.sprocketRadius);
  return c;
}

}  // namespace

void World::saveState(StateWriter& out) const {
  out.tag(stateTag("WRLD"));
  out.put(time_);
  out.put(lastDt_);
  out.put(static_cast<std::uint64_t>(bodies_.size()));
  for (const RigidBody& b : bodies_) {
    out.put(b.position);
    out.put(b.orientation);
    out.put(b.linearVelocity);
    out.put(b.angularMomentum);
    out.put(b.angularVelocity);
    out.put(b.rotation);
    out.put(b.inverseInertiaWorld);
    out.put(b.force);
    out.put(b.torque);
  }
  // Only a world with grapples writes them (before the joints: a capture adds one).
  if (!grapples_.empty()) {
    out.tag(stateTag("GRPL"));
    out.put(static_cast<std::uint64_t>(grapples_.size()));
    for (const auto& g : grapples_) {
      out.put(g->commanded());
      out.put(g->captured());
      out.put(g->frameOnEffector().anchor);
      out.put(g->frameOnEffector().orientation);
      out.put(g->frameOnTarget().anchor);
      out.put(g->frameOnTarget().orientation);
    }
  }
  out.tag(stateTag("JNTS"));
  out.put(static_cast<std::uint64_t>(joints_.size()));
  for (const auto& j : joints_) j->saveState(out);
  out.tag(stateTag("MOTR"));
  out.put(static_cast<std::uint64_t>(motors_.size()));
  for (const MotorEntry& m : motors_) {
    m.motor->saveState(out);
    out.put(m.cachedImpulses[0]);
    out.put(m.cachedImpulses[1]);
  }
  out.put(std::span<const double>(rotorAngles_));
  out.put(std::span<const double>(rotorSpeeds_));
  out.tag(stateTag("CNTC"));
  out.put(static_cast<std::uint64_t>(contacts_.size()));
  for (const ContactPoint& c : contacts_) saveContact(out, c);
  out.tag(stateTag("SENS"));
  out.put(static_cast<std::uint64_t>(sensors_.size()));
  for (const auto& s : sensors_) s->saveState(out);
  out.tag(stateTag("SLEP"));  // after the sections of format 1: older states load as all awake
  for (const RigidBody& b : bodies_) {
    out.put(b.sleeping);
    out.put(b.restTime);
  }
  // Only a world with compliant contacts writes them (a rigid world's state is as it was).
  if (!compliant_.points().empty()) {
    out.tag(stateTag("CMPL"));
    out.put(static_cast<std::uint64_t>(compliant_.points().size()));
    for (const ContactPoint& c : compliant_.points()) {
      saveContact(out, c);
      out.put(c.compliantLaw);
      out.put(c.impactSpeed);
    }
  }
}

void World::loadState(StateReader& in) {
  in.expect(stateTag("WRLD"), "world");
  in.get(time_);
  in.get(lastDt_);
  StateReader::requireSame(in.get<std::uint64_t>(), bodies_.size(), "bodies");
  for (RigidBody& b : bodies_) {
    in.get(b.position);
    in.get(b.orientation);
    in.get(b.linearVelocity);
    in.get(b.angularMomentum);
    in.get(b.angularVelocity);
    in.get(b.rotation);
    in.get(b.inverseInertiaWorld);
    in.get(b.force);
    in.get(b.torque);
  }
  if (!grapples_.empty()) {
    const bool hasGrapples = in.accept(stateTag("GRPL"));
    if (hasGrapples)
      StateReader::requireSame(in.get<std::uint64_t>(), grapples_.size(), "grapples");
    for (auto& g : grapples_) {
      bool commanded = false, captured = false;
      JointFrame onEffector, onTarget;
      if (hasGrapples) {
        in.get(commanded);
        in.get(captured);
        in.get(onEffector.anchor);
        in.get(onEffector.orientation);
        in.get(onTarget.anchor);
        in.get(onTarget.orientation);
      }
      g->command(commanded);
      g->setCaptured(captured, onEffector, onTarget);
    }
    placeGrappleWelds();
  }
  in.expect(stateTag("JNTS"), "joints");
  StateReader::requireSame(in.get<std::uint64_t>(), joints_.size(), "joints");
  for (auto& j : joints_) j->loadState(in);
  in.expect(stateTag("MOTR"), "motors");
  StateReader::requireSame(in.get<std::uint64_t>(), motors_.size(), "motors");
  for (MotorEntry& m : motors_) {
    m.motor->loadState(in);
    in.get(m.cachedImpulses[0]);
    in.get(m.cachedImpulses[1]);
  }
  std::vector<double> angles, speeds;
  in.get(angles, 1 << 16);
  in.get(speeds, 1 << 16);
  StateReader::requireSame(angles.size(), rotorAngles_.size(), "rotor angles");
  StateReader::requireSame(speeds.size(), rotorSpeeds_.size(), "rotor speeds");
  rotorAngles_ = std::move(angles);
  rotorSpeeds_ = std::move(speeds);
  in.expect(stateTag("CNTC"), "contacts");
  const auto contacts = in.get<std::uint64_t>();
  if (contacts > (1u << 20)) throw StateError("state: implausible contact count");
  contacts_.clear();
  for (std::uint64_t i = 0; i < contacts; ++i)
    contacts_.push_back(loadContact(in, bodyCount(), motorCount()));
  // The still pairs keep these points, as they would have in the world the state came from.
  collision_->markStill(bodies_);
  collision_->searchAllPairs(false);
  in.expect(stateTag("SENS"), "sensors");
  StateReader::requireSame(in.get<std::uint64_t>(), sensors_.size(), "sensors");
  for (auto& s : sensors_) s->loadState(in);
  const bool hasSleep = in.accept(stateTag("SLEP"));
  sleepingCount_ = 0;
  for (RigidBody& b : bodies_) {
    b.sleeping = hasSleep ? in.get<bool>() : false;
    b.restTime = hasSleep ? in.get<double>() : 0.0;
    if (b.sleeping && !b.isDynamic())
      throw StateError("state: a sleeping body that is not dynamic");
    sleepingCount_ += b.sleeping ? 1 : 0;
  }
  compliant_.clear();
  if (in.accept(stateTag("CMPL"))) {
    std::vector<ContactPoint> points;
    const auto count = in.get<std::uint64_t>();
    if (count > (1u << 20)) throw StateError("state: implausible compliant contact count");
    for (std::uint64_t i = 0; i < count; ++i) {
      ContactPoint c = loadContact(in, bodyCount(), motorCount());
      in.get(c.compliantLaw);
      in.get(c.impactSpeed);
      if (c.compliantLaw < 0 || c.compliantLaw >= materials_.compliantLawCount())
        throw StateError("state: a compliant contact with an unknown law");
      points.push_back(c);
    }
    compliant_.take(points, 0);
  }
  awakeContactCount_ = 0;  // the next detection sorts the contacts again
  for (const ContactPoint& c : contacts_)
    if (!body(c.bodyA).sleeping && !body(c.bodyB).sleeping) ++awakeContactCount_;
  failed_ = false;
  failure_.clear();
  if (!checkFinite()) throw StateError("state: " + failure_);
}

}  // namespace impetus
