// The articulated-body algorithm (Featherstone, RBDA table 7.1) in world coordinates about one
// point (motionOrigin_): a subtree's articulated inertia is then a plain sum of its children's,
// no transform from link to link, and a DOF's motion s, fixed in its link, changes as
// s' = V x s with the link's spatial velocity V (RBDA section 2.13 and eq. 7.2's c = V x S q').
#include "articulation.h"
#include "impetus/joints/joint.h"

namespace impetus {
namespace {

/// Motion cross product [w; v] x [a; b] = [w x a; w x b + v x a].
Vec6 crossMotion(const Vec6& m, const Vec6& x) {
  const Vec3 w = m.head<3>(), v = m.tail<3>();
  return spatialVector(w.cross(x.head<3>()), w.cross(x.tail<3>()) + v.cross(x.head<3>()));
}

/// Force cross product [w; v] x* [n; f] = [w x n + v x f; w x f].
Vec6 crossForce(const Vec6& m, const Vec6& f) {
  const Vec3 w = m.head<3>(), v = m.tail<3>();
  return spatialVector(w.cross(f.head<3>()) + v.cross(f.tail<3>()), w.cross(f.tail<3>()));
}

}  // namespace

void Articulation::updateWorldMotions() {
  for (const Link& l : links_) setWorldMotions(l, l.worldPosition - motionOrigin_);
}

bool Articulation::articulatedSolve(const double* rates, std::span<const Vec6> linkForces,
                                    double dt, double* result, std::span<const Mat6> addedInertia) {
  // result = H^-1 (Q - C q'): Q the joints' damping torques -d q' and the DOFs' share J^T f of
  // the links' world forces f (about motionOrigin_), C q' the velocity products (none when
  // rates is null: then result = H^-1 J^T f, the projection of momenta f onto the joints).
  // Fixed-base trees: a root's parent does not move.
  const size_t n = links_.size();
  updateWorldMotions();
  for (size_t i = 0; i < n; ++i) {
    const Link& l = links_[i];
    AbaLink& a = aba_[i];
    // The link's own spatial inertia about the origin: [I_c - m [r]x[r]x, m [r]x; -m [r]x, m].
    const Vec3 r = l.worldPosition - motionOrigin_;
    const Mat3 rx = skew(r);
    a.inertia.topLeftCorner<3, 3>() =
        l.rotation * l.inertia * l.rotation.transpose() - l.mass * rx * rx;
    a.inertia.topRightCorner<3, 3>() = l.mass * rx;
    a.inertia.bottomLeftCorner<3, 3>() = -l.mass * rx;
    a.inertia.bottomRightCorner<3, 3>() = l.mass * Mat3::Identity();
    if (!addedInertia.empty()) a.inertia += addedInertia[i];
    a.bias = -linkForces[i];
    a.velocityProduct.setZero();
    if (rates != nullptr) {
      Vec6 jointMotion = Vec6::Zero();
      for (int k = 0; k < l.dofCount; ++k)
        jointMotion += worldMotion_[static_cast<size_t>(l.dof + k)] * rates[l.dof + k];
      a.velocity = jointMotion;
      if (l.parent >= 0) a.velocity += aba_[static_cast<size_t>(l.parent)].velocity;
      a.velocityProduct = crossMotion(a.velocity, jointMotion);
      a.bias += crossForce(a.velocity, a.inertia * a.velocity);
    }
  }
  // Leaves to root: each link's articulated inertia and bias force, its DOFs eliminated, join
  // its parent's (RBDA table 7.1, second loop). Fixed 6 x 3 shapes, zero past the link's DOFs.
  for (size_t i = n; i-- > 0;) {
    const Link& l = links_[i];
    AbaLink& a = aba_[i];
    const int k = l.dofCount;
    const double damping = l.source != nullptr ? l.source->damping : 0.0;
    a.response.setZero();
    a.torque.setZero();
    a.inverseInertia.setZero();
    for (int c = 0; c < k; ++c) {
      const Vec6& s = worldMotion_[static_cast<size_t>(l.dof + c)];
      a.response.col(c) = a.inertia * s;
      a.torque[c] = -s.dot(a.bias) - (rates != nullptr ? damping * rates[l.dof + c] : 0.0);
    }
    if (k == 1) {
      const double d = worldMotion_[static_cast<size_t>(l.dof)].dot(a.response.col(0));
      // Explicit damping is stable while dt d stays well below the joint's articulated inertia.
      if (damping > 0.0 && dt * damping > 0.5 * d) return false;
      a.inverseInertia(0, 0) = 1.0 / d;
    } else {  // spherical (a free root is not stepped here)
      Mat3 d;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          d(r, c) = worldMotion_[static_cast<size_t>(l.dof + r)].dot(a.response.col(c));
      if (damping > 0.0 && dt * damping > 0.5 * d.diagonal().minCoeff()) return false;
      a.inverseInertia = d.inverse();
    }
    if (l.parent < 0) continue;
    const Mat6 articulated = a.inertia - a.response * a.inverseInertia * a.response.transpose();
    AbaLink& p = aba_[static_cast<size_t>(l.parent)];
    p.inertia += articulated;
    p.bias += a.bias + articulated * a.velocityProduct + a.response * (a.inverseInertia * a.torque);
  }
  // Root to leaves: the joints' accelerations and the links' (third loop).
  for (size_t i = 0; i < n; ++i) {
    const Link& l = links_[i];
    AbaLink& a = aba_[i];
    Vec6 acceleration = a.velocityProduct;
    if (l.parent >= 0) acceleration += aba_[static_cast<size_t>(l.parent)].acceleration;
    const Vec3 qdd = a.inverseInertia * (a.torque - a.response.transpose() * acceleration);
    for (int c = 0; c < l.dofCount; ++c) {
      result[l.dof + c] = qdd[c];
      acceleration += worldMotion_[static_cast<size_t>(l.dof + c)] * qdd[c];
    }
    a.acceleration = acceleration;
  }
  return true;
}

}  // namespace impetus
