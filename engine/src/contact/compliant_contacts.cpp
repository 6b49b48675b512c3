#include "impetus/contact/compliant_contacts.h"

#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

/// J M^-1 J^T of a unit push along d at the two points: the inverse of the mass seen there.
double inverseEffectiveMass(const RigidBody& a, const RigidBody& b, const Vec3& armA,
                            const Vec3& armB, const Vec3& d) {
  const Vec3 ta = armA.cross(d), tb = armB.cross(d);
  return a.inverseMass + b.inverseMass + ta.dot(a.inverseInertiaWorld * ta) +
         tb.dot(b.inverseInertiaWorld * tb);
}

void pointRow(ConstraintRow& r, const Vec3& d, const Vec3& armA, const Vec3& armB) {
  r.linearA = -d;
  r.angularA = -armA.cross(d);
  r.linearB = d;
  r.angularB = armB.cross(d);
}

}  // namespace

size_t CompliantContacts::take(std::vector<ContactPoint>& contacts, size_t awake) {
  points_.clear();
  size_t kept = 0, takenAwake = 0;
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (contacts[i].compliantLaw >= 0) {
      points_.push_back(contacts[i]);
      if (i < awake) ++takenAwake;
    } else {
      contacts[kept++] = contacts[i];
    }
  }
  contacts.resize(kept);
  return takenAwake;
}

void CompliantContacts::restore(std::vector<ContactPoint>& previous) const {
  previous.insert(previous.end(), points_.begin(), points_.end());
}

void CompliantContacts::prepare(std::span<const RigidBody> bodies, const MaterialTable& materials,
                                double dt) {
  dt_ = dt;
  forces_.assign(points_.size(), CompliantForce{});
  laws_.assign(points_.size(), Linearised{});
  for (size_t first = 0; first < points_.size();) {
    // A pair's points push on the same bodies: their springs add up in the pair's frequency.
    size_t last = first + 1;
    while (last < points_.size() && points_[last].bodyA == points_[first].bodyA &&
           points_[last].bodyB == points_[first].bodyB)
      ++last;
    const double points = static_cast<double>(last - first);
    for (size_t k = first; k < last; ++k) {
      ContactPoint& c = points_[k];
      const double d = -c.separation;
      if (!(d > 0.0)) {  // apart: the next touch is a new impact
        c.impactSpeed = 0.0;
        c.normalImpulse = c.tangentImpulse1 = c.tangentImpulse2 = 0.0;
        continue;
      }
      const RigidBody& a = bodies[static_cast<size_t>(c.bodyA)];
      const RigidBody& b = bodies[static_cast<size_t>(c.bodyB)];
      const Vec3 armA = a.rotation * c.localA, armB = b.rotation * c.localB;
      const Vec3 relative = b.linearVelocity + b.angularVelocity.cross(armB) - a.linearVelocity -
                            a.angularVelocity.cross(armA);
      const double closing = -relative.dot(c.normal);  // d', > 0 while the bodies approach
      if (c.impactSpeed == 0.0) c.impactSpeed = std::max(closing, 0.0);
      const CompliantLaw& law = materials.compliantLaw(c.compliantLaw);
      const CompliantNormal normal = compliantNormal(law, c.restitution, d, c.impactSpeed);
      const double omegaH2 =
          normal.spring * points * inverseEffectiveMass(a, b, armA, armB, c.normal) * dt * dt;
      const double beta = omegaH2 > 2.0 ? 0.5 - 1.0 / omegaH2 : 0.0;
      const double sliding = (relative + closing * c.normal).norm();
      laws_[k] = {normal.elastic, normal.damping + beta * dt * normal.spring,
                  compliantFriction(law, sliding)};
      forces_[k].penetration = d;
      forces_[k].slidingSpeed = sliding;
    }
    first = last;
  }
}

void CompliantContacts::assignIslands(const SolverIslands& islands, size_t bodyCount) {
  islandOfBody_.assign(bodyCount, -1);
  for (size_t k = 0; k < islands.islands().size(); ++k)
    for (const BodyId b : islands.bodies(islands.islands()[k]))
      islandOfBody_[static_cast<size_t>(b)] = static_cast<int>(k);
  island_.resize(points_.size());
  for (size_t k = 0; k < points_.size(); ++k) {
    const int a = islandOfBody_[static_cast<size_t>(points_[k].bodyA)];
    island_[k] = a >= 0 ? a : islandOfBody_[static_cast<size_t>(points_[k].bodyB)];
  }
}

void CompliantContacts::addRows(int island, RowBuffer& rows, std::span<const RigidBody> bodies,
                                bool warmStart) {
  const double h = dt_;
  for (size_t k = 0; k < points_.size(); ++k) {
    ContactPoint& c = points_[k];
    if (island_[k] != island) continue;
    c.normalRow = c.frictionRow = -1;
    const Linearised& law = laws_[k];
    if (!(law.force > 0.0)) continue;
    const Vec3 armA = bodies[static_cast<size_t>(c.bodyA)].rotation * c.localA;
    const Vec3 armB = bodies[static_cast<size_t>(c.bodyB)].rotation * c.localB;
    c.normalRow = rows.addBlock(BlockKind::Bounded, 1, c.bodyA, c.bodyB);
    ConstraintRow& normal = rows.row(c.normalRow);
    pointRow(normal, c.normal, armA, armB);
    // p / h = F + g d'(t + h), d' = -J v: J v + p / (h g) = F / g. With no damping and the spring
    // explicit (g = 0) the impulse is F h exactly.
    if (law.stiffness > 0.0) {
      normal.softness = 1.0 / (h * law.stiffness);
      normal.target = law.force / law.stiffness;
      normal.lower = 0.0;
    } else {
      normal.lower = normal.upper = law.force * h;
    }
    normal.impulse = warmStart ? std::max(c.normalImpulse, normal.lower) : normal.lower;
    if (normal.upper < normal.impulse) normal.impulse = normal.upper;
    if (!(law.friction > 0.0)) continue;
    c.frictionRow = rows.addBlock(BlockKind::NormBall, 2, c.bodyA, c.bodyB);
    pointRow(rows.row(c.frictionRow), c.tangent1, armA, armB);
    pointRow(rows.row(c.frictionRow + 1), c.tangent2, armA, armB);
    rows.row(c.frictionRow).impulse = warmStart ? c.tangentImpulse1 : 0.0;
    rows.row(c.frictionRow + 1).impulse = warmStart ? c.tangentImpulse2 : 0.0;
    rows.lastBlock().boundRow = c.normalRow;
    rows.lastBlock().boundCoefficient = law.friction;
  }
}

void CompliantContacts::storeImpulses(int island, const RowBuffer& rows) {
  const auto impulse = [&](int row) { return rows.rows()[static_cast<size_t>(row)].impulse; };
  for (size_t k = 0; k < points_.size(); ++k) {
    ContactPoint& c = points_[k];
    if (island_[k] != island) continue;
    c.normalImpulse = c.normalRow >= 0 ? impulse(c.normalRow) : 0.0;
    c.tangentImpulse1 = c.frictionRow >= 0 ? impulse(c.frictionRow) : 0.0;
    c.tangentImpulse2 = c.frictionRow >= 0 ? impulse(c.frictionRow + 1) : 0.0;
    forces_[k].normal = c.normalImpulse / dt_;
    forces_[k].tangential = (c.tangentImpulse1 * c.tangent1 + c.tangentImpulse2 * c.tangent2) / dt_;
  }
}

}  // namespace impetus
