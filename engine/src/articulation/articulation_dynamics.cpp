// Articulation dynamics: the bias forces by recursive Newton-Euler (RBDA table 5.1), the joint-
// space inertia by the composite-rigid-body algorithm (table 6.2), its L^T D L factor with the
// tree's sparsity and the solve with it (tables 6.3, 6.4).
#include "articulation.h"

#include <algorithm>
#include <cmath>

#include "double4.h"
#include "impetus/joints/joint.h"

namespace impetus {
void Articulation::projectMomentum(double dt, std::span<const RigidBody> bodies,
                                   std::span<const Mat3> midpointRotations) {
  const size_t n = links_.size();
  // Everything in world coordinates about one point near the tree (its root at the step's
  // start; the world origin would cost digits far from it): a subtree's inertia and momentum
  // are then plain sums of its bodies', no transform from link to link (RBDA section 2.13).
  motionOrigin_ = links_[0].worldPosition;
  for (size_t i = 0; i < n; ++i) {
    Link& l = links_[i];
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Mat3& midpoint = midpointRotations[static_cast<size_t>(l.body)];
    const Mat3 turn = l.rotation.transpose() * midpoint;
    l.stepInertia = turn * l.inertia * turn.transpose();
    const Vec3 r = l.worldPosition - motionOrigin_;
    setWorldMotions(l, r);
    inputMomentum_[i] = spatialVector(b.angularMomentum, l.mass * b.linearVelocity);
    // The body's momentum about the motion origin, and its inertia there: mass, first moment
    // h = m r and rotational inertia I_c - m [r]x [r]x (RBDA eq. 2.63), I_c at the midpoint.
    const Vec3 linear = l.mass * b.linearVelocity;
    momentumAbout_[i] = spatialVector(b.angularMomentum + r.cross(linear), linear);
    CompositeInertia& c = composite_[i];
    c.mass = l.mass;
    c.moment = l.mass * r;
    c.rotational = midpoint * l.inertia * midpoint.transpose() - l.mass * skew(r) * skew(r);
  }
  // Subtree sums, children (listed after their parents) first.
  for (size_t i = n; i-- > 0;) {
    const int parent = links_[i].parent;
    if (parent < 0) continue;
    const auto p = static_cast<size_t>(parent);
    momentumAbout_[p] += momentumAbout_[i];
    composite_[p].mass += composite_[i].mass;
    composite_[p].moment += composite_[i].moment;
    composite_[p].rotational += composite_[i].rotational;
  }
  // J^T h: each DOF's motion against its subtree's momentum. H (RBDA table 6.2): H_kj = s_j .
  // I_c s_k for j an ancestor of k (or k itself), I_c the composite inertia of k's link.
  for (size_t i = 0; i < n; ++i) {
    const Link& l = links_[i];
    const CompositeInertia& c = composite_[i];
    for (int k = 0; k < l.dofCount; ++k) {
      const int dof = l.dof + k;
      const Vec6& s = worldMotion_[static_cast<size_t>(dof)];
      momentum_[dof] = s.dot(momentumAbout_[i]);
      // f = I_c s: [I w + h x v; m v - h x w].
      const Vec3 w = s.head<3>(), v = s.tail<3>();
      const Vec6 f =
          spatialVector(c.rotational * w + c.moment.cross(v), c.mass * v - c.moment.cross(w));
      pivot_[dof] = s.dot(f);
      double* row = factorRow(dof);
      const std::span<const int> ancestors = ancestorDofs(dof);
      size_t a = 0;
      for (; a < ancestors.size(); ++a)
        row[a] = worldMotion_[static_cast<size_t>(ancestors[a])].dot(f);
      for (; a % 4 != 0; ++a) row[a] = 0.0;  // the padding factorise's vectors run over
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
      // Row i holds a entries (its ancestors: the first a of k's) and padding to a multiple of
      // 4, which the whole vectors may fill with what they like: no product reads it.
      addScaledPadded(factorRow(i), -factor, rowK, static_cast<int>(a + 3) / 4 * 4);
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
