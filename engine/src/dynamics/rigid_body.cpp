#include "impetus/dynamics/rigid_body.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

namespace impetus {

void RigidBody::updateDerived() {
  // Computed in locals and stored once: reading a member back right after storing it made the
  // loads straddle the stores (failed store forwarding: 8 % of chain30's time was this function).
  const Mat3 r = orientation.toRotationMatrix();
  rotation = r;
  if (type == BodyType::Dynamic) {
    const Mat3 inverseInertia = inverseInertiaAt(r);
    inverseInertiaWorld = inverseInertia;
    angularVelocity = inverseInertia * angularMomentum;
  } else {
    inverseInertiaWorld.setZero();
  }
}

void RigidBody::setAngularVelocity(const Vec3& w) {
  if (type == BodyType::Dynamic) {
    const Mat3 r = orientation.toRotationMatrix();
    angularMomentum = r * inertiaBody * r.transpose() * w;
  }
  angularVelocity = w;
}

double RigidBody::kineticEnergy() const {
  if (type != BodyType::Dynamic) return 0.0;
  return 0.5 * mass * linearVelocity.squaredNorm() + 0.5 * angularMomentum.dot(angularVelocity);
}

RigidBody makeRigidBody(const RigidBodyDesc& desc) {
  RigidBody b;
  b.name = desc.name;
  b.type = desc.type;
  b.bullet = desc.bullet;
  const auto fail = [&](const char* what) {
    throw std::invalid_argument("body '" + desc.name + "': " + what);
  };
  if (!desc.position.allFinite() || !desc.linearVelocity.allFinite() ||
      !desc.angularVelocity.allFinite() || !desc.orientation.coeffs().allFinite())
    fail("non-finite pose or velocity");
  if (std::abs(desc.orientation.norm() - 1.0) > 1e-6) fail("orientation quaternion is not unit");
  if (desc.type == BodyType::Dynamic) {
    if (!(desc.mass > 0.0) || !std::isfinite(desc.mass)) fail("mass must be positive and finite");
    const Mat3 sym = 0.5 * (desc.inertia + desc.inertia.transpose());
    if (!sym.allFinite() || (sym - desc.inertia).norm() > 1e-9 * sym.norm())
      fail("inertia tensor must be finite and symmetric");
    const Vec3 principal = Eigen::SelfAdjointEigenSolver<Mat3>(sym).eigenvalues();
    if (!(principal.minCoeff() > 0.0)) fail("inertia tensor must be positive definite");
    const double slack = 1e-9 * principal.sum();  // principal moments obey the triangle inequality
    if (principal(0) + principal(1) < principal(2) - slack)
      fail("inertia violates the triangle inequality");
    b.mass = desc.mass;
    b.inertiaBody = sym;
    b.inverseMass = 1.0 / desc.mass;
    b.inverseInertiaBody = sym.inverse();
    b.principalInertia = sym(0, 1) == 0.0 && sym(0, 2) == 0.0 && sym(1, 2) == 0.0;
    if (b.principalInertia) b.inverseInertiaBody = sym.diagonal().cwiseInverse().asDiagonal();
  }
  b.position = desc.position;
  b.orientation = desc.orientation.normalized();
  b.linearVelocity = desc.type == BodyType::Static ? Vec3::Zero() : desc.linearVelocity;
  b.setAngularVelocity(desc.type == BodyType::Static ? Vec3::Zero() : desc.angularVelocity);
  b.updateDerived();
  return b;
}

}  // namespace impetus
