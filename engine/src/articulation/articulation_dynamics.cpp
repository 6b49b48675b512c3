// Articulation dynamics: the bias forces by recursive Newton-Euler (RBDA table 5.1), the joint-
// space inertia by the composite-rigid-body algorithm (table 6.2), its L^T D L factor with the
// tree's sparsity and the solve with it (tables 6.3, 6.4).
#include "articulation.h"

#include <algorithm>
#include <cmath>

#include "impetus/joints/joint.h"

namespace impetus {
namespace {

/// f = X^T f for the parent -> child transform X = [E 0; -E [r]x E]: the force f on the child
/// (its frame) as the same force on the parent (its frame): E^T f, moment E^T n + r x E^T f.
Vec6 forceToParent(const Mat3& e, const Vec3& r, const Vec6& f) {
  const Vec3 force = e.transpose() * f.tail<3>();
  return spatialVector(e.transpose() * f.head<3>() + r.cross(force), force);
}

}  // namespace

void Articulation::projectMomentum(double dt, std::span<const RigidBody> bodies,
                                   std::span<const Mat3> midpointRotations) {
  const size_t n = links_.size();
  // J^T h by the backward recursion: each body's momentum [L; m v] about its centre of mass in
  // its frame, carried to the root like a force.
  for (size_t i = 0; i < n; ++i) {
    Link& l = links_[i];
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Mat3 turn = l.rotation.transpose() * midpointRotations[static_cast<size_t>(l.body)];
    l.stepInertia = turn * l.inertia * turn.transpose();
    // Each DOF's motion in world Pluecker coordinates at the origin: [R s_w; R s_v + p x R s_w]
    // (the velocity of the body point at the origin), the same for every link below it.
    for (int k = 0; k < l.dofCount; ++k) {
      const Vec6& s = l.motionSubspace.col(k);
      Vec6& m = worldMotion_[static_cast<size_t>(l.dof + k)];
      m.head<3>() = l.rotation * s.head<3>();
      m.tail<3>() = l.rotation * s.tail<3>() + l.worldPosition.cross(m.head<3>());
    }
    inputMomentum_[i] = spatialVector(b.angularMomentum, l.mass * b.linearVelocity);
    force_[i] = spatialVector(l.rotation.transpose() * b.angularMomentum,
                              l.mass * (l.rotation.transpose() * b.linearVelocity));
  }
  for (size_t i = n; i-- > 0;) {
    const Link& l = links_[i];
    for (int k = 0; k < l.dofCount; ++k)
      momentum_[l.dof + k] = l.motionSubspace.col(k).dot(force_[i]);
    if (l.parent < 0) continue;
    Vec6& parent = force_[static_cast<size_t>(l.parent)];
    parent += forceToParent(l.parentToChild, l.childOrigin, force_[i]);
  }

  // Composite-rigid-body inertia (RBDA table 6.2), each as its mass, first moment h = m c and
  // rotational inertia about the link's origin (RBDA eq. 2.63): carried to the parent as
  // h' = E^T h + m r, I' = E^T I E - [r]x [E^T h]x - [h']x [r]x; 10 numbers, not a 6x6 product.
  for (size_t i = 0; i < n; ++i) {
    composite_[i].mass = links_[i].mass;
    composite_[i].moment.setZero();
    composite_[i].rotational = links_[i].stepInertia;
  }
  for (size_t i = n; i-- > 0;) {
    const Link& l = links_[i];
    if (l.parent < 0) continue;
    const CompositeInertia& c = composite_[i];
    CompositeInertia& p = composite_[static_cast<size_t>(l.parent)];
    const Mat3& e = l.parentToChild;
    const Vec3& r = l.childOrigin;
    const Vec3 moment = e.transpose() * c.moment;
    const Vec3 shifted = moment + c.mass * r;
    p.mass += c.mass;
    p.moment += shifted;
    p.rotational +=
        e.transpose() * c.rotational * e - skew(r) * skew(moment) - skew(shifted) * skew(r);
  }
  // H_ii = S_i^T I_i S_i; H_ij = S_j^T X^T ... X^T I_i S_i up the path, a column at a time.
  for (size_t i = 0; i < n; ++i) {
    const Link& l = links_[i];
    const CompositeInertia& c = composite_[i];
    for (int k = 0; k < l.dofCount; ++k) {
      // f = I s: [I w + h x v; m v - h x w].
      const Vec6& s = l.motionSubspace.col(k);
      Vec6 f = spatialVector(c.rotational * s.head<3>() + c.moment.cross(s.tail<3>()),
                             c.mass * s.tail<3>() - c.moment.cross(s.head<3>()));
      // Row l.dof + k of H's lower half: by the position of each ancestor DOF in the path.
      double* row = factorRow(l.dof + k);
      for (int q = 0; q < k; ++q) row[l.pathOffset + q] = l.motionSubspace.col(q).dot(f);
      pivot_[l.dof + k] = s.dot(f);
      for (int j = static_cast<int>(i); links_[static_cast<size_t>(j)].parent >= 0;) {
        const Link& child = links_[static_cast<size_t>(j)];
        f = forceToParent(child.parentToChild, child.childOrigin, f);
        j = child.parent;
        const Link& p = links_[static_cast<size_t>(j)];
        for (int q = 0; q < p.dofCount; ++q) row[p.pathOffset + q] = p.motionSubspace.col(q).dot(f);
      }
    }
  }

  // Implicit joint damping: (H + dt d) q' = J^T h.
  for (const Link& l : links_) {
    const double damping = l.source != nullptr ? l.source->damping : 0.0;  // may change any time
    for (int k = 0; k < l.dofCount; ++k) pivot_[l.dof + k] += dt * damping;
  }
  factorise();
  solveMass(momentum_.data());
  qd_ = momentum_;
}

void Articulation::factorise() {
  // H = L^T D L in place (RBDA table 6.3): L_ki on row k's ancestors, D on the pivots. The
  // ancestors i of DOF k, nearest first, each update their own row over their ancestors - the
  // first entries of k's, in the same order: one contiguous stretch - and their pivot.
  for (int k = dof_ - 1; k >= 0; --k) {
    double* rowK = factorRow(k);
    const double inversePivot = 1.0 / pivot_[k];
    const std::span<const int> ancestors = ancestorDofs(k);
    for (size_t a = ancestors.size(); a-- > 0;) {
      const int i = ancestors[a];
      const double factor = rowK[a] * inversePivot;
      double* rowI = factorRow(i);
      for (size_t b = 0; b < a; ++b) rowI[b] -= factor * rowK[b];
      pivot_[i] -= factor * rowK[a];
      rowK[a] = factor;
    }
  }
  pivotInverseRoot_ = pivot_.cwiseSqrt().cwiseInverse();
}

void Articulation::solveMass(double* x) const {
  const int n = dof_;
  // L^-T: each x_i, last first, feeds its ancestors (J^T of a contact is zero off its path).
  for (int i = n - 1; i >= 0; --i) {
    const double xi = x[i];
    if (xi == 0.0) continue;
    const double* row = factorRow(i);
    const std::span<const int> ancestors = ancestorDofs(i);
    for (size_t b = 0; b < ancestors.size(); ++b) x[ancestors[b]] -= row[b] * xi;
  }
  for (int i = 0; i < n; ++i) x[i] /= pivot_[i];  // D^-1
  // L^-1: each x_i, first first, gathers from its ancestors.
  for (int i = 0; i < n; ++i) {
    const double* row = factorRow(i);
    const std::span<const int> ancestors = ancestorDofs(i);
    double sum = 0.0;
    for (size_t b = 0; b < ancestors.size(); ++b) sum += row[b] * x[ancestors[b]];
    x[i] -= sum;
  }
}

void Articulation::linkResponse(int link, double* zeta) const {
  const std::span<const int> path = pathDofs(link);
  const int count = static_cast<int>(path.size());
  for (int k = 0; k < count; ++k)
    Eigen::Map<Vec6>(zeta + 6 * k) = worldMotion(path[static_cast<size_t>(k)]);
  // D^-1/2 L^-T with six right-hand sides, on the path alone: path DOF k's ancestors are the
  // path's first k.
  for (int k = count - 1; k >= 0; --k) {
    const double* rowK = factorRow(path[static_cast<size_t>(k)]);
    const Vec6 xk = Eigen::Map<const Vec6>(zeta + 6 * k);
    for (int a = 0; a < k; ++a) Eigen::Map<Vec6>(zeta + 6 * a) -= rowK[a] * xk;
    Eigen::Map<Vec6>(zeta + 6 * k) *= pivotInverseRoot_[path[static_cast<size_t>(k)]];
  }
}

void Articulation::halfSolve(int link, double* x) const {
  const std::span<const int> path = pathDofs(link);
  for (size_t k = path.size(); k-- > 0;) {
    const double xk = x[path[k]];
    if (xk == 0.0) continue;
    const double* rowK = factorRow(path[k]);
    for (size_t a = 0; a < k; ++a) x[path[a]] -= rowK[a] * xk;
    x[path[k]] = xk * pivotInverseRoot_[path[k]];
  }
}

}  // namespace impetus
