#include "articulation_rows.h"

#include <algorithm>
#include <cmath>

namespace impetus {

namespace {
constexpr int kMaxActiveSet = 8;

// Sums of products over a row's padded DOF (a multiple of 4): four partial sums, so that the
// compiler keeps them in one vector register.
[[gnu::always_inline]] inline double dotPadded(const double* a, const double* b, int n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  for (int i = 0; i < n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  return (s0 + s2) + (s1 + s3);
}
[[gnu::always_inline]] inline void addScaledPadded(double* __restrict y, double scale,
                                                   const double* __restrict x, int n) {
  for (int i = 0; i < n; i += 4) {
    y[i] += scale * x[i];
    y[i + 1] += scale * x[i + 1];
    y[i + 2] += scale * x[i + 2];
    y[i + 3] += scale * x[i + 3];
  }
}
}  // namespace

void ArticulationRows::begin(const Articulation& articulation) {
  dof_ = articulation.dof();
  stride_ = (dof_ + 3) / 4 * 4;
  rows_.clear();
  jacobian_.clear();
  zeta_.clear();
  applied_.clear();
  const size_t block =
      static_cast<size_t>(dof_) * 6 * static_cast<size_t>(articulation.linkCount());
  linkPhi_.resize(block);
  linkZeta_.resize(block);
  linkReady_.assign(static_cast<size_t>(articulation.linkCount()), 0);
}

void ArticulationRows::addLinkForce(int row, int link, const Vec6& force,
                                    const Articulation& articulation) {
  const size_t offset = static_cast<size_t>(link) * static_cast<size_t>(dof_) * 6;
  if (!linkReady_[static_cast<size_t>(link)]) {
    articulation.linkResponse(link, &linkPhi_[offset], &linkZeta_[offset]);
    linkReady_[static_cast<size_t>(link)] = 1;
  }
  const double* phi = &linkPhi_[offset];
  const double* linkZ = &linkZeta_[offset];
  double* j = jacobian(row);
  double* z = zeta(row);
  const double c0 = force[0], c1 = force[1], c2 = force[2], c3 = force[3], c4 = force[4],
               c5 = force[5];
  const std::span<const int> path = articulation.pathDofs(link);
  widen(row, path.back());
  for (const int i : path) {
    j[i] += phi[0] * c0 + phi[1] * c1 + phi[2] * c2 + phi[3] * c3 + phi[4] * c4 + phi[5] * c5;
    z[i] += linkZ[0] * c0 + linkZ[1] * c1 + linkZ[2] * c2 + linkZ[3] * c3 + linkZ[4] * c4 +
            linkZ[5] * c5;
    phi += 6;
    linkZ += 6;
  }
}

int ArticulationRows::add(ArticulationRowKind kind, double impulse, int normalRow,
                          double friction) {
  Row r;
  r.kind = kind;
  r.impulse = impulse;
  r.normalRow = normalRow;
  r.friction = friction;
  rows_.push_back(r);
  jacobian_.resize(jacobian_.size() + static_cast<size_t>(stride_), 0.0);
  zeta_.resize(zeta_.size() + static_cast<size_t>(stride_), 0.0);
  return static_cast<int>(rows_.size()) - 1;
}

double ArticulationRows::velocity(int row, const Articulation& articulation) const {
  return Eigen::Map<const Eigen::VectorXd>(
             &jacobian_[static_cast<size_t>(row) * static_cast<size_t>(stride_)], dof_)
      .dot(articulation.velocity());
}

void ArticulationRows::computeResponse(int row, int link, const Articulation& articulation) {
  double* z = zeta(row);
  std::copy_n(jacobian(row), dof_, z);
  articulation.halfSolve(link, z);
  widen(row, articulation.pathDofs(link).back());
}

void ArticulationRows::prepare(const Articulation& articulation) {
  const int m = size();
  baseVelocity_.resize(static_cast<size_t>(m));
  applied_.resize(static_cast<size_t>(m), 0.0);  // rows added since: none of theirs applied yet
  for (int i = 0; i < m; ++i) {
    Row& r = rows_[static_cast<size_t>(i)];
    r.k = dotPadded(zeta(i), zeta(i), r.extent);
    r.inverseK = r.k > 1e-300 ? 1.0 / r.k : 0.0;
    if (r.inverseK == 0.0) r.impulse = 0.0;
    baseVelocity_[static_cast<size_t>(i)] = velocity(i, articulation);
  }
  // v = J q' (q' holds the impulses applied by earlier solves) + z . Z^T (p - applied).
  impulseResponse_.assign(static_cast<size_t>(stride_), 0.0);
  for (int k = 0; k < m; ++k) {
    const double dp = rows_[static_cast<size_t>(k)].impulse - applied_[static_cast<size_t>(k)];
    if (dp != 0.0) apply(k, dp);
  }
}

[[gnu::always_inline]] inline double ArticulationRows::rowVelocity(int row) const {
  return baseVelocity_[static_cast<size_t>(row)] +
         dotPadded(zeta(row), impulseResponse_.data(), rows_[static_cast<size_t>(row)].extent);
}

[[gnu::always_inline]] inline void ArticulationRows::apply(int row, double dp) {
  addScaledPadded(impulseResponse_.data(), dp, zeta(row), rows_[static_cast<size_t>(row)].extent);
}

void ArticulationRows::applyImpulses(Articulation& articulation) {
  // g = J^T (p - applied), then q' += H^-1 g.
  Eigen::VectorXd& qd = articulation.velocity();
  scratch_.assign(static_cast<size_t>(dof_), 0.0);
  for (int i = 0; i < size(); ++i) {
    const double dp = rows_[static_cast<size_t>(i)].impulse - applied_[static_cast<size_t>(i)];
    applied_[static_cast<size_t>(i)] = rows_[static_cast<size_t>(i)].impulse;
    if (dp == 0.0) continue;
    const double* j = jacobian(i);
    for (int d = 0; d < dof_; ++d) scratch_[static_cast<size_t>(d)] += dp * j[d];
  }
  articulation.solveMass(scratch_.data());
  for (int d = 0; d < dof_; ++d) qd[d] += scratch_[static_cast<size_t>(d)];
}

void ArticulationRows::solveCorrection(const Articulation& articulation, int maxIterations,
                                       double tolerance, double* pseudo) {
  const int m = size();
  std::fill_n(pseudo, dof_, 0.0);
  bool any = false;
  for (const Row& r : rows_) any = any || r.correction > 0.0;
  if (!any) return;
  // Pseudo-impulses from zero, on pseudo-velocities from zero; baseVelocity_, applied_ and
  // impulseResponse_ are reused (the velocity solve is done with them).
  std::fill(baseVelocity_.begin(), baseVelocity_.end(), 0.0);
  std::fill(applied_.begin(), applied_.end(), 0.0);
  std::fill(impulseResponse_.begin(), impulseResponse_.end(), 0.0);
  // All one-sided rows, then the stops alone (as the velocity solve: they get the last word).
  for (const bool stopsOnly : {false, true}) {
    for (int it = 0; it < maxIterations; ++it) {
      double change = 0.0;
      for (int i = 0; i < m; ++i) {
        const Row& r = rows_[static_cast<size_t>(i)];
        if (r.kind == ArticulationRowKind::Friction || r.inverseK == 0.0) continue;
        if (stopsOnly && r.kind != ArticulationRowKind::Stop) continue;
        double& p = applied_[static_cast<size_t>(i)];
        const double next = std::max(p - (rowVelocity(i) - r.correction) * r.inverseK, 0.0);
        const double dp = next - p;
        p = next;
        if (dp != 0.0) apply(i, dp);
        change = std::max(change, std::abs(dp) * r.k);
      }
      if (change <= tolerance) break;
    }
  }
  for (int i = 0; i < m; ++i) {
    const double p = applied_[static_cast<size_t>(i)];
    if (p == 0.0) continue;
    const double* j = jacobian(i);
    for (int d = 0; d < dof_; ++d) pseudo[d] += p * j[d];
  }
  articulation.solveMass(pseudo);
}

bool ArticulationRows::solveActiveSet() {
  active_.clear();
  const int n = size();
  for (int i = 0; i < n; ++i) {
    const Row& r = rows_[static_cast<size_t>(i)];
    if (r.inverseK == 0.0) continue;
    if (r.kind != ArticulationRowKind::Friction) {
      if (r.impulse > 0.0) active_.push_back(i);
      continue;
    }
    const Row& normal = rows_[static_cast<size_t>(r.normalRow)];
    if (!(normal.impulse > 0.0)) continue;
    // Sticking: the pair's impulse inside its disk (the pair is rows i, i + 1).
    double pair = r.impulse * r.impulse;
    if (i + 1 < n && rows_[static_cast<size_t>(i + 1)].normalRow == r.normalRow)
      pair += rows_[static_cast<size_t>(i + 1)].impulse * rows_[static_cast<size_t>(i + 1)].impulse;
    else if (i > 0 && rows_[static_cast<size_t>(i - 1)].normalRow == r.normalRow &&
             rows_[static_cast<size_t>(i - 1)].kind == ArticulationRowKind::Friction)
      pair += rows_[static_cast<size_t>(i - 1)].impulse * rows_[static_cast<size_t>(i - 1)].impulse;
    if (std::sqrt(pair) < r.friction * normal.impulse) active_.push_back(i);
  }
  // Only small sets: the matrix costs m^2 dof, where a sweep costs m dof (a lying ragdoll's 30
  // rows were dearer solved than swept).
  const int m = static_cast<int>(active_.size());
  if (m == 0 || m > kMaxActiveSet) return false;
  delassus_.resize(static_cast<size_t>(m) * m);
  activeStep_.resize(static_cast<size_t>(m));
  double* a = delassus_.data();
  double* x = activeStep_.data();
  for (int p = 0; p < m; ++p) {
    const int i = active_[static_cast<size_t>(p)];
    for (int q = 0; q <= p; ++q)
      a[p * m + q] =
          dotPadded(zeta(i), zeta(active_[static_cast<size_t>(q)]),
                    std::min(rows_[static_cast<size_t>(i)].extent,
                             rows_[static_cast<size_t>(active_[static_cast<size_t>(q)])].extent));
    x[p] = rows_[static_cast<size_t>(i)].target - rowVelocity(i);
  }
  // Cholesky (lower) with a small ridge: a face's corners are redundant rows.
  for (int p = 0; p < m; ++p) {
    double d = a[p * m + p] * (1.0 + 1e-9) + 1e-300;
    for (int k = 0; k < p; ++k) d -= a[p * m + k] * a[p * m + k];
    if (!(d > 0.0)) return false;
    d = std::sqrt(d);
    a[p * m + p] = d;
    for (int q = p + 1; q < m; ++q) {
      double v = a[q * m + p];
      for (int k = 0; k < p; ++k) v -= a[q * m + k] * a[p * m + k];
      a[q * m + p] = v / d;
    }
  }
  for (int p = 0; p < m; ++p) {
    for (int k = 0; k < p; ++k) x[p] -= a[p * m + k] * x[k];
    x[p] /= a[p * m + p];
  }
  for (int p = m - 1; p >= 0; --p) {
    for (int k = p + 1; k < m; ++k) x[p] -= a[k * m + p] * x[k];
    x[p] /= a[p * m + p];
  }
  // Kept only inside the bounds.
  const auto impulseAfter = [&](int row) {
    double p = rows_[static_cast<size_t>(row)].impulse;
    for (int q = 0; q < m; ++q)
      if (active_[static_cast<size_t>(q)] == row) p += x[q];
    return p;
  };
  for (int q = 0; q < m; ++q) {
    const int i = active_[static_cast<size_t>(q)];
    const Row& r = rows_[static_cast<size_t>(i)];
    const double p = r.impulse + x[q];
    if (r.kind != ArticulationRowKind::Friction) {
      if (p < 0.0) return false;
    } else if (std::abs(p) > r.friction * impulseAfter(r.normalRow)) {
      return false;
    }
  }
  for (int q = 0; q < m; ++q) {
    const int i = active_[static_cast<size_t>(q)];
    rows_[static_cast<size_t>(i)].impulse += x[q];
    apply(i, x[q]);
  }
  return true;
}

ArticulationSolveResult ArticulationRows::solve(int maxIterations, double velocityTolerance,
                                                double stallVelocity) {
  // solveBlocks' slow mode: the change shrinking by less than 10 % twice running, below
  // stallVelocity, so slowly that the iterations left would not halve it.
  constexpr double kStallRatio = 0.9, kStallShare = 0.5;
  constexpr int kStallIterations = 2;
  ArticulationSolveResult result;
  const int n = size();
  double lastChange = 0.0;
  int slowIterations = 0;
  solveActiveSet();
  for (int it = 0; it < maxIterations; ++it) {
    double change = 0.0;
    for (int i = 0; i < n; ++i) {
      Row& r = rows_[static_cast<size_t>(i)];
      if (r.inverseK == 0.0) continue;
      if (r.kind == ArticulationRowKind::Friction && i + 1 < n &&
          rows_[static_cast<size_t>(i + 1)].normalRow == r.normalRow &&
          rows_[static_cast<size_t>(i + 1)].kind == ArticulationRowKind::Friction) {
        // A contact's two friction rows together, their impulse held in the disk mu p_n.
        Row& s = rows_[static_cast<size_t>(i + 1)];
        const double p1 = r.impulse - (rowVelocity(i) - r.target) * r.inverseK;
        const double p2 =
            s.inverseK == 0.0 ? 0.0 : s.impulse - (rowVelocity(i + 1) - s.target) * s.inverseK;
        const double radius =
            std::max(r.friction * rows_[static_cast<size_t>(r.normalRow)].impulse, 0.0);
        const double norm = std::sqrt(p1 * p1 + p2 * p2);
        const double scale = norm > radius ? radius / norm : 1.0;
        const double d1 = scale * p1 - r.impulse, d2 = scale * p2 - s.impulse;
        r.impulse += d1;
        s.impulse += d2;
        apply(i, d1);
        if (d2 != 0.0) apply(i + 1, d2);
        change = std::max({change, std::abs(d1) * r.k, std::abs(d2) * s.k});
        ++i;
        continue;
      }
      double p = r.impulse - (rowVelocity(i) - r.target) * r.inverseK;
      if (r.kind == ArticulationRowKind::Friction) {
        const double radius =
            std::max(r.friction * rows_[static_cast<size_t>(r.normalRow)].impulse, 0.0);
        p = std::clamp(p, -radius, radius);
      } else {
        p = std::max(p, 0.0);
      }
      const double dp = p - r.impulse;
      r.impulse = p;
      if (dp != 0.0) apply(i, dp);
      change = std::max(change, std::abs(dp) * r.k);
    }
    result.iterations = it + 1;
    result.largestVelocityChange = change;
    if (change <= velocityTolerance) {
      result.converged = true;
      break;
    }
    const double ratio = lastChange > 0.0 ? change / lastChange : 0.0;
    slowIterations = it > 0 && ratio > kStallRatio && ratio < 1.0 ? slowIterations + 1 : 0;
    lastChange = change;
    if (stallVelocity > 0.0 && slowIterations >= kStallIterations && change < stallVelocity &&
        std::pow(ratio, maxIterations - it - 1) > kStallShare) {
      result.stalled = true;
      break;
    }
  }
  if (!result.converged) {
    // Not converged (a landing): the stops get the last word, swept alone until they hold, so
    // the joints end within their ranges; what the contacts then lack the next step corrects.
    for (int it = 0; it < maxIterations; ++it) {
      double change = 0.0;
      for (int i = 0; i < n; ++i) {
        Row& r = rows_[static_cast<size_t>(i)];
        if (r.kind != ArticulationRowKind::Stop || r.inverseK == 0.0) continue;
        const double p = std::max(r.impulse - (rowVelocity(i) - r.target) * r.inverseK, 0.0);
        const double dp = p - r.impulse;
        r.impulse = p;
        if (dp != 0.0) apply(i, dp);
        change = std::max(change, std::abs(dp) * r.k);
      }
      if (change <= velocityTolerance) break;
    }
  }
  return result;
}

}  // namespace impetus
