// Articulation dynamics: the bias forces by recursive Newton-Euler (RBDA table 5.1), the joint-
// space inertia by the composite-rigid-body algorithm (table 6.2), its L^T D L factor with the
// tree's sparsity and the solve with it (tables 6.3, 6.4).
#include "articulation.h"

#include <cmath>

#include "impetus/joints/joint.h"

namespace impetus {
namespace {

using Subspace = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;

/// X of the parent -> child motion transform: [E 0; -E [r]x E].
Mat6 motionTransform(const Mat3& e, const Vec3& r) {
  Mat6 x;
  x.topLeftCorner<3, 3>() = e;
  x.topRightCorner<3, 3>().setZero();
  x.bottomLeftCorner<3, 3>() = -e * skew(r);
  x.bottomRightCorner<3, 3>() = e;
  return x;
}

/// Spatial inertia at the centre of mass, body frame: diag(I_c, m 1).
Mat6 spatialInertia(double mass, const Mat3& inertia) {
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = inertia;
  m.bottomRightCorner<3, 3>().diagonal().setConstant(mass);
  return m;
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
    inputMomentum_[i] << b.angularMomentum, l.mass * b.linearVelocity;
    force_[i] << l.rotation.transpose() * b.angularMomentum,
        l.mass * (l.rotation.transpose() * b.linearVelocity);
  }
  for (size_t i = n; i-- > 0;) {
    const Link& l = links_[i];
    momentum_.segment(l.dof, l.dofCount) =
        l.motionSubspace.leftCols(l.dofCount).transpose() * force_[i];
    if (l.parent < 0) continue;
    // f_P += X^T f: E^T f, moment E^T n + r x E^T f.
    const Vec3 f = l.parentToChild.transpose() * force_[i].tail<3>();
    Vec6& parent = force_[static_cast<size_t>(l.parent)];
    parent.head<3>() += l.parentToChild.transpose() * force_[i].head<3>() + l.childOrigin.cross(f);
    parent.tail<3>() += f;
  }

  // Composite-rigid-body inertia.
  for (size_t i = 0; i < n; ++i)
    composite_[i] = spatialInertia(links_[i].mass, links_[i].stepInertia);
  for (size_t i = n; i-- > 0;) {
    const Link& l = links_[i];
    if (l.parent < 0) continue;
    const Mat6 x = motionTransform(l.parentToChild, l.childOrigin);
    composite_[static_cast<size_t>(l.parent)].noalias() += x.transpose() * composite_[i] * x;
  }
  for (size_t i = 0; i < n; ++i) {
    const Link& l = links_[i];
    const auto s = l.motionSubspace.leftCols(l.dofCount);
    Subspace f = composite_[i] * s;
    massMatrix_.block(l.dof, l.dof, l.dofCount, l.dofCount) = s.transpose() * f;
    for (int j = static_cast<int>(i); links_[static_cast<size_t>(j)].parent >= 0;) {
      const Link& c = links_[static_cast<size_t>(j)];
      // f = X^T f column by column: force E^T f, moment E^T n + r x E^T f.
      for (int k = 0; k < l.dofCount; ++k) {
        const Vec3 force = c.parentToChild.transpose() * f.col(k).tail<3>();
        f.col(k).head<3>() =
            c.parentToChild.transpose() * f.col(k).head<3>() + c.childOrigin.cross(force);
        f.col(k).tail<3>() = force;
      }
      j = c.parent;
      const Link& p = links_[static_cast<size_t>(j)];
      const auto block = p.motionSubspace.leftCols(p.dofCount).transpose() * f;
      massMatrix_.block(l.dof, p.dof, l.dofCount, p.dofCount) = block.transpose();
      massMatrix_.block(p.dof, l.dof, p.dofCount, l.dofCount) = block;
    }
  }

  // Implicit joint damping: (H + dt d) q' = J^T h.
  for (const Link& l : links_) {
    const double damping = l.source != nullptr ? l.source->damping : 0.0;  // may change any time
    for (int k = 0; k < l.dofCount; ++k) massMatrix_(l.dof + k, l.dof + k) += dt * damping;
  }
  factorise();
  solveMass(momentum_.data());
  qd_ = momentum_;
}

void Articulation::factorise() {
  // H = L^T D L in place (RBDA table 6.3): L_ki below the diagonal, D on it. The ancestors i of
  // DOF k, nearest first, are k's own link's earlier DOFs and then its ancestor links' (last DOF
  // first); each row i is updated over i's own ancestors and itself.
  const int n = dof_;
  double* h = massMatrix_.data();
  for (int k = n - 1; k >= 0; --k) {
    double* rowK = h + static_cast<size_t>(k) * n;
    const auto eliminate = [&](int i) {
      const double a = rowK[i] / rowK[k];
      double* rowI = h + static_cast<size_t>(i) * n;
      rowI[i] -= a * rowK[i];
      forEachAncestorDof(i, [&](int j) { rowI[j] -= a * rowK[j]; });
      rowK[i] = a;
    };
    const int link = dofLink_[static_cast<size_t>(k)];
    for (int i = k - 1; i >= links_[static_cast<size_t>(link)].dof; --i) eliminate(i);
    for (int r = rangeBegin_[static_cast<size_t>(link)];
         r < rangeBegin_[static_cast<size_t>(link) + 1]; ++r) {
      const auto [start, count] = ancestorRanges_[static_cast<size_t>(r)];
      for (int i = start + count - 1; i >= start; --i) eliminate(i);
    }
  }
  for (int i = 0; i < n; ++i)
    pivotInverseRoot_[i] = 1.0 / std::sqrt(h[static_cast<size_t>(i) * n + i]);
}

template <int Width>
void Articulation::substituteTransposed(double* x) const {
  // L^-T: each row x_i (Width wide), last first, feeds its ancestors (J^T of a contact is zero
  // off its path, and so skipped).
  using Row = Eigen::Matrix<double, Width, 1>;
  const double* h = massMatrix_.data();
  for (int i = dof_ - 1; i >= 0; --i) {
    const Eigen::Map<const Row> xi(x + Width * i);
    if (xi.isZero(0.0)) continue;
    const double* row = h + static_cast<size_t>(i) * dof_;
    forEachAncestorDof(i, [&](int j) { Eigen::Map<Row>(x + Width * j) -= row[j] * xi; });
  }
}

void Articulation::solveMass(double* x) const {
  const int n = dof_;
  const double* h = massMatrix_.data();
  substituteTransposed<1>(x);
  for (int i = 0; i < n; ++i) x[i] /= h[static_cast<size_t>(i) * n + i];  // D^-1
  // L^-1: each x_i, first first, gathers from its ancestors.
  for (int i = 0; i < n; ++i) {
    const double* row = h + static_cast<size_t>(i) * n;
    double sum = 0.0;
    forEachAncestorDof(i, [&](int j) { sum += row[j] * x[j]; });
    x[i] -= sum;
  }
}

void Articulation::linkResponse(int link, double* phiT, double* zeta) const {
  using Rows6 = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor>;
  const std::span<const int> path = pathDofs(link);
  const int count = static_cast<int>(path.size());
  Eigen::Map<Rows6> phi(phiT, count, 6), x(zeta, count, 6);
  const Vec3& centre = links_[static_cast<size_t>(link)].worldPosition;
  int row = count;  // the path's links, the link itself (last rows) first
  for (int j = link; j >= 0; j = links_[static_cast<size_t>(j)].parent) {
    const Link& l = links_[static_cast<size_t>(j)];
    // The world force c in link j's frame: [R^T (n + (p_link - p_j) x f); R^T f].
    Mat6 transform;
    transform.topLeftCorner<3, 3>() = l.rotation.transpose();
    transform.topRightCorner<3, 3>() = l.rotation.transpose() * skew(centre - l.worldPosition);
    transform.bottomLeftCorner<3, 3>().setZero();
    transform.bottomRightCorner<3, 3>() = l.rotation.transpose();
    row -= l.dofCount;
    phi.middleRows(row, l.dofCount) = l.motionSubspace.leftCols(l.dofCount).transpose() * transform;
  }
  x = phi;
  // D^-1/2 L^-T with six right-hand sides, on the path alone: path DOF k's ancestors are the
  // path's first k.
  const double* h = massMatrix_.data();
  for (int k = count - 1; k >= 0; --k) {
    const double* rowK = h + static_cast<size_t>(path[static_cast<size_t>(k)]) * dof_;
    const Vec6 xk = x.row(k).transpose();
    for (int a = 0; a < k; ++a) x.row(a) -= rowK[path[static_cast<size_t>(a)]] * xk.transpose();
    x.row(k) *= pivotInverseRoot_[path[static_cast<size_t>(k)]];
  }
}

void Articulation::halfSolve(int link, double* x) const {
  const std::span<const int> path = pathDofs(link);
  const double* h = massMatrix_.data();
  for (size_t k = path.size(); k-- > 0;) {
    const double xk = x[path[k]];
    if (xk == 0.0) continue;
    const double* rowK = h + static_cast<size_t>(path[k]) * dof_;
    for (size_t a = 0; a < k; ++a) x[path[a]] -= rowK[path[a]] * xk;
    x[path[k]] = xk * pivotInverseRoot_[path[k]];
  }
}

}  // namespace impetus
