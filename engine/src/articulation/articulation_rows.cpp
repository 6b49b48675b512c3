#include "articulation_rows.h"

#include <algorithm>
#include <cmath>

#include "dense_cholesky.h"
#include "double4.h"

namespace impetus {

namespace {
// Exact active-set solves: at the start for small sets (a few rows cost less solved than swept);
// after a few sweeps that did not converge for sets as large as a lying ragdoll's (PGS on its
// rank-deficient Delassus matrix - four corners a box, 32 DOF under 60 rows - can drift for
// hundreds of steps, the body rocking; one exact solve puts it at rest and warm-starts the next).
constexpr int kSmallActiveSet = 8;
constexpr int kLargeActiveSet = 64;
constexpr int kSweepsBeforeLargeActiveSet = 4;
constexpr double kCorrectionPrecision = 0.01;
/// A friction pair whose contact slips faster than this (m/s) at the sweeps' current impulses
/// is sliding, not sticking, whatever its impulse: the active-set step would otherwise try to
/// stop a sliding pair whose impulse a grown normal left inside its disk. Without it, a pulled
/// pair of boxes slid 2.6 % fast in one rounding (the ASan build): steps towards sticking
/// unsettled its sliding solution, and 14 steps in 100 ran out of iterations. 1 cm/s keeps
/// 3/4 of what the step saves over undoing it (1 mm/s a tenth; instructions over 16 heights).
constexpr double kSlidingSpeed = 0.01;
/// Bisections of a friction pair's share of a step (2^-30 of it: far below the tolerances).
constexpr int kDiskBisections = 30;

}  // namespace

void ArticulationRows::begin(const Articulation& articulation) {
  dof_ = articulation.dof();
  stride_ = (dof_ + 3) / 4 * 4;
  rows_.clear();
  applied_.clear();
  const auto links = static_cast<size_t>(articulation.linkCount());
  linkZeta_.resize(static_cast<size_t>(stride_) * 6 * links);
  compactZeta_.resize(static_cast<size_t>(dof_) * 6);
  linkReady_.assign(static_cast<size_t>(articulation.linkCount()), 0);
  linkVelocity_.resize(static_cast<size_t>(articulation.linkCount()));
  linkImpulse_.resize(static_cast<size_t>(articulation.linkCount()));
}

void ArticulationRows::addLinkForces(int firstRow, int count, int link, const Vec6* forces,
                                     const Articulation& articulation) {
  const std::span<const int> path = articulation.pathDofs(link);
  const auto l = static_cast<size_t>(link);
  const size_t columns = l * 6 * static_cast<size_t>(stride_);
  const int extent = (path.back() + 4) / 4 * 4;
  if (!linkReady_[l]) {
    // Z by path DOF, then its six columns spread over the DOF (zero off the path).
    articulation.linkResponse(link, compactZeta_.data());
    zeroPadded(&linkZeta_[columns], 6 * stride_);
    for (size_t k = 0; k < path.size(); ++k)
      for (size_t j = 0; j < 6; ++j)
        linkZeta_[columns + j * static_cast<size_t>(stride_) + static_cast<size_t>(path[k])] =
            compactZeta_[6 * k + j];
    linkVelocity_[l] = phiTimes(link, articulation.velocity().data(), articulation);
    linkReady_[l] = 1;
  }
  for (int k = 0; k < count; ++k) {
    Row& r = rows_[static_cast<size_t>(firstRow + k)];
    const int term = r.link[0] < 0 ? 0 : 1;  // a contact has at most two links
    r.link[term] = link;
    r.force[term] = forces[k];
    widen(firstRow + k, path.back());
  }
  // z_k += Z c_k for the rows together: Z's columns loaded once a chunk of four DOF.
  const double* z0 = &linkZeta_[columns];
  const auto stride = static_cast<size_t>(stride_);
  for (int i = 0; i < extent; i += 4) {
    Double4 col[6];  // loaded one by one: a loop over them kept col in memory
    load4(col[0], z0 + i);
    load4(col[1], z0 + stride + i);
    load4(col[2], z0 + 2 * stride + i);
    load4(col[3], z0 + 3 * stride + i);
    load4(col[4], z0 + 4 * stride + i);
    load4(col[5], z0 + 5 * stride + i);
    for (int k = 0; k < count; ++k) {
      const Vec6& c = forces[k];
      double* z = zeta(firstRow + k) + i;
      Double4 zi;
      load4(zi, z);
      store4(z, zi + c[0] * col[0] + c[1] * col[1] + c[2] * col[2] + c[3] * col[3] + c[4] * col[4] +
                    c[5] * col[5]);
    }
  }
}

void ArticulationRows::setStop(int row, int link, double side, const Articulation& articulation) {
  Row& r = rows_[static_cast<size_t>(row)];
  r.stopDof = articulation.dofIndex(link);
  r.stopSide = side;
  double* z = zeta(row);
  z[r.stopDof] = side;
  articulation.halfSolve(link, z);
  widen(row, articulation.pathDofs(link).back());
}

Vec6 ArticulationRows::phiTimes(int link, const double* x, const Articulation& articulation) const {
  Vec6 out = Vec6::Zero();
  for (const int i : articulation.pathDofs(link)) out += x[i] * articulation.worldMotion(i);
  return out;
}

int ArticulationRows::add(ArticulationRowKind kind, double impulse, int normalRow,
                          double friction) {
  Row r;
  r.kind = kind;
  r.impulse = impulse;
  r.normalRow = normalRow;
  r.friction = friction;
  rows_.push_back(r);
  // z's row zeroed in place (zeta_ only grows): a std::vector resize a row would call memset,
  // whose dispatch cost more than the eight stores.
  const size_t end = rows_.size() * static_cast<size_t>(stride_);
  if (zeta_.size() < end) zeta_.resize(std::max(end, 2 * zeta_.size()));
  zeroPadded(zeta(static_cast<int>(rows_.size()) - 1), stride_);
  return static_cast<int>(rows_.size()) - 1;
}

double ArticulationRows::velocity(int row, const Articulation& articulation) const {
  const Row& r = rows_[static_cast<size_t>(row)];
  if (r.stopDof >= 0) return r.stopSide * articulation.velocity()[r.stopDof];
  double v = 0.0;
  for (int term = 0; term < 2 && r.link[term] >= 0; ++term)
    v += r.force[term].dot(linkVelocity_[static_cast<size_t>(r.link[term])]);
  return v;
}

void ArticulationRows::addTransposed(const double* impulses, const Articulation& articulation,
                                     double* out) {
  // J^T p = sum over links of Phi_l^T (their rows' forces times impulses), plus the stops'.
  const int links = articulation.linkCount();
  for (int l = 0; l < links; ++l)
    if (linkReady_[static_cast<size_t>(l)]) linkImpulse_[static_cast<size_t>(l)].setZero();
  for (int i = 0; i < size(); ++i) {
    const double p = impulses[i];
    if (p == 0.0) continue;
    const Row& r = rows_[static_cast<size_t>(i)];
    if (r.stopDof >= 0) out[r.stopDof] += r.stopSide * p;
    for (int term = 0; term < 2 && r.link[term] >= 0; ++term)
      linkImpulse_[static_cast<size_t>(r.link[term])] += p * r.force[term];
  }
  for (int l = 0; l < links; ++l) {
    if (!linkReady_[static_cast<size_t>(l)]) continue;
    const Vec6& f = linkImpulse_[static_cast<size_t>(l)];
    for (const int i : articulation.pathDofs(l)) out[i] += articulation.worldMotion(i).dot(f);
  }
}

void ArticulationRows::prepare(const Articulation& articulation) {
  const int m = size();
  for (int l = 0; l < articulation.linkCount(); ++l)
    if (linkReady_[static_cast<size_t>(l)])
      linkVelocity_[static_cast<size_t>(l)] =
          phiTimes(l, articulation.velocity().data(), articulation);
  baseVelocity_.resize(static_cast<size_t>(m));
  applied_.resize(static_cast<size_t>(m), 0.0);  // rows added since: none of theirs applied yet
  for (int i = 0; i < m; ++i) {
    Row& r = rows_[static_cast<size_t>(i)];
    r.k = dotPadded(zeta(i), zeta(i), r.extent);
    r.inverseK = r.k > 1e-300 ? 1.0 / r.k : 0.0;
    if (r.inverseK == 0.0) r.impulse = 0.0;
    baseVelocity_[static_cast<size_t>(i)] = velocity(i, articulation);
  }
  // A contact block's friction rows see its normal row's change through z_t . z_n.
  for (int i = 0; i < m; ++i) {
    rows_[static_cast<size_t>(i)].blockStart = contactBlock(i);
    if (!rows_[static_cast<size_t>(i)].blockStart) continue;
    for (const int t : {i + 1, i + 2})
      rows_[static_cast<size_t>(t)].normalCoupling =
          dotPadded(zeta(t), zeta(i), rows_[static_cast<size_t>(i)].extent);
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
  scratch_.resize(rows_.size());
  for (size_t i = 0; i < rows_.size(); ++i) {
    scratch_[i] = rows_[i].impulse - applied_[i];
    applied_[i] = rows_[i].impulse;
  }
  generalized_.assign(static_cast<size_t>(dof_), 0.0);
  addTransposed(scratch_.data(), articulation, generalized_.data());
  articulation.solveMass(generalized_.data());
  for (int d = 0; d < dof_; ++d) qd[d] += generalized_[static_cast<size_t>(d)];
}

void ArticulationRows::solveCorrection(const Articulation& articulation, int maxIterations,
                                       double tolerance, double* pseudo) {
  const int m = size();
  std::fill_n(pseudo, dof_, 0.0);
  double largest = 0.0;
  for (const Row& r : rows_) largest = std::max(largest, r.correction);
  if (!(largest > 0.0)) return;
  // A position correction needs no more precision than a share of itself: what is left is
  // corrected next step like the rest.
  tolerance = std::max(tolerance, kCorrectionPrecision * largest);
  // Pseudo-impulses from zero, on pseudo-velocities from zero; baseVelocity_, applied_ and
  // impulseResponse_ are reused (the velocity solve is done with them).
  std::fill(baseVelocity_.begin(), baseVelocity_.end(), 0.0);
  std::fill(applied_.begin(), applied_.end(), 0.0);
  std::fill(impulseResponse_.begin(), impulseResponse_.end(), 0.0);
  // All one-sided rows, then the stops alone (as the velocity solve: they get the last word).
  sweepRows_.clear();
  for (int i = 0; i < m; ++i) {
    const Row& r = rows_[static_cast<size_t>(i)];
    if (r.kind != ArticulationRowKind::Friction && r.inverseK != 0.0) sweepRows_.push_back(i);
  }
  for (const bool stopsOnly : {false, true}) {
    for (int it = 0; it < maxIterations; ++it) {
      double change = 0.0;
      for (const int i : sweepRows_) {
        const Row& r = rows_[static_cast<size_t>(i)];
        if (stopsOnly && r.kind != ArticulationRowKind::Stop) continue;
        double& p = applied_[static_cast<size_t>(i)];
        const double next = std::max(p - (rowVelocity(i) - r.correction) * r.inverseK, 0.0);
        const double dp = next - p;
        p = next;
        if (dp != 0.0) apply(i, dp);
        change = std::max(change, std::abs(dp) * r.k);
      }
      if (change <= tolerance) break;
      if (!stopsOnly && it + 1 == kSweepsBeforeLargeActiveSet) activeCorrectionStep();
    }
  }
  addTransposed(applied_.data(), articulation, pseudo);
  articulation.solveMass(pseudo);
}

bool ArticulationRows::solveActiveByRows(int m) {
  // A = Z_a Z_a^T (m^2 dof, its factor m^3 / 3, where a sweep costs m dof) by its upper
  // triangle, four entries of a row at a time, each row padded to a multiple of 4 (zero rows
  // past m: zero columns).
  const int stride = (m + 3) / 4 * 4;
  delassus_.resize(static_cast<size_t>(stride) * static_cast<size_t>(stride));
  activeStep_.assign(static_cast<size_t>(stride), 0.0);
  zeroZeta_.assign(static_cast<size_t>(stride_), 0.0);
  double* a = delassus_.data();
  double* x = activeStep_.data();
  for (int p = 0; p < m; ++p) {
    const Row& rowP = rows_[static_cast<size_t>(active_[static_cast<size_t>(p)])];
    const double* zp = zeta(active_[static_cast<size_t>(p)]);
    for (int q0 = p / 4 * 4; q0 < stride; q0 += 4) {
      const double* zq[4];
      int reach = 0;
      for (int j = 0; j < 4; ++j) {
        if (q0 + j < m) {
          const int i = active_[static_cast<size_t>(q0 + j)];
          zq[j] = zeta(i);
          reach = std::max(reach, rows_[static_cast<size_t>(i)].extent);
        } else {
          zq[j] = zeroZeta_.data();
        }
      }
      Double4 entries;
      dotPadded4(zp, zq[0], zq[1], zq[2], zq[3], std::min(rowP.extent, reach), entries);
      store4(a + static_cast<size_t>(p) * static_cast<size_t>(stride) + static_cast<size_t>(q0),
             entries);
    }
    x[p] = rowP.target - rowVelocity(active_[static_cast<size_t>(p)]);
  }
  return solvePaddedSymmetric(a, m, stride, x);
}

bool ArticulationRows::solveActiveByGram(int m) {
  // More active rows than DOF (a lying ragdoll: 33-36 on 32 DOF): A is singular, and its own
  // factor blew up on every such set the sweeps handed it; its pseudo-inverse by the Gram
  // matrix (solveMinimumNormPadded) costs half as much there.
  activeZeta_.resize(static_cast<size_t>(m));
  activeExtent_.resize(static_cast<size_t>(m));
  activeRhs_.resize(static_cast<size_t>(m));
  activeStep_.resize(static_cast<size_t>(m));
  for (int q = 0; q < m; ++q) {
    const int i = active_[static_cast<size_t>(q)];
    activeZeta_[static_cast<size_t>(q)] = zeta(i);
    activeExtent_[static_cast<size_t>(q)] = rows_[static_cast<size_t>(i)].extent;
    activeRhs_[static_cast<size_t>(q)] = rows_[static_cast<size_t>(i)].target - rowVelocity(i);
  }
  gram_.resize(static_cast<size_t>(stride_) * static_cast<size_t>(stride_));
  gramWork_.resize(static_cast<size_t>(stride_));
  return solveMinimumNormPadded(activeZeta_.data(), activeExtent_.data(), m, dof_, stride_,
                                activeRhs_.data(), activeStep_.data(), gram_.data(),
                                gramWork_.data());
}

bool ArticulationRows::sticking(int row) const {
  const Row& r = rows_[static_cast<size_t>(row)];
  const Row& normal = rows_[static_cast<size_t>(r.normalRow)];
  if (!(normal.impulse > 0.0)) return false;
  const int partner = frictionPartner(row);
  double pair = r.impulse * r.impulse;
  if (partner >= 0)
    pair +=
        rows_[static_cast<size_t>(partner)].impulse * rows_[static_cast<size_t>(partner)].impulse;
  if (!(std::sqrt(pair) < r.friction * normal.impulse)) return false;
  // Inside the disk by a rounding or a normal that has grown since, a sliding pair is still
  // sliding: its slip decides.
  const double slip1 = rowVelocity(row) - r.target;
  const double slip2 =
      partner >= 0 ? rowVelocity(partner) - rows_[static_cast<size_t>(partner)].target : 0.0;
  return slip1 * slip1 + slip2 * slip2 <= kSlidingSpeed * kSlidingSpeed;
}

int ArticulationRows::frictionPartner(int row) const {
  const int n = size();
  const int normalRow = rows_[static_cast<size_t>(row)].normalRow;
  for (const int other : {row + 1, row - 1})
    if (other >= 0 && other < n && other != normalRow &&
        rows_[static_cast<size_t>(other)].normalRow == normalRow &&
        rows_[static_cast<size_t>(other)].kind == ArticulationRowKind::Friction)
      return other;
  return -1;
}

double ArticulationRows::feasibleShare(int m, int& blocking) const {
  // Rows outside the set do not move (rowStep_ is zero there). The sweeps leave every row in
  // its bounds, so the share is found from a feasible start: a normal's or a stop's impulse
  // stays >= 0, a friction pair's in its disk mu p_n (a quadratic in the share: bisected).
  double share = 1.0;
  blocking = -1;
  for (int q = 0; q < m; ++q) {
    const int i = active_[static_cast<size_t>(q)];
    const Row& r = rows_[static_cast<size_t>(i)];
    const double x = rowStep_[static_cast<size_t>(i)];
    if (r.kind != ArticulationRowKind::Friction) {
      if (r.impulse + share * x < 0.0) {
        share = std::max(r.impulse, 0.0) / -x;
        blocking = i;
      }
      continue;
    }
    const int partner = frictionPartner(i);
    if (partner >= 0 && partner < i) continue;  // the pair once, from its first row
    const auto slack = [&](double a) {
      const auto at = [&](int row) {
        return rows_[static_cast<size_t>(row)].impulse + a * rowStep_[static_cast<size_t>(row)];
      };
      const double radius = r.friction * at(r.normalRow);
      const double other = partner >= 0 ? at(partner) : 0.0;
      return radius * radius - at(i) * at(i) - other * other;
    };
    if (slack(share) >= 0.0) continue;
    double feasible = 0.0, infeasible = share;
    for (int it = 0; it < kDiskBisections; ++it) {
      const double mid = 0.5 * (feasible + infeasible);
      (slack(mid) >= 0.0 ? feasible : infeasible) = mid;
    }
    share = feasible;
    blocking = i;
  }
  return share;
}

bool ArticulationRows::solveActiveSet(int maxRows, bool withFriction) {
  // A primal active-set step: the set solved as equalities, and the step towards its solution
  // taken as far as the bounds allow - short of the whole step, the contact problem's energy
  // (normals and stops: a convex quadratic) still falls all along it. Undoing a blocked step,
  // as this did before, left the 12 drop heights of the bench ragdoll 5 % slower (more
  // sweeps); dropping the blocking row and solving again (a pivot, a new factor) cost more
  // than the sweeps it saved.
  const int n = size();
  active_.clear();
  for (int i = 0; i < n; ++i) {
    const Row& r = rows_[static_cast<size_t>(i)];
    if (r.inverseK == 0.0) continue;
    if (r.kind != ArticulationRowKind::Friction ? r.impulse > 0.0 : withFriction && sticking(i))
      active_.push_back(i);
  }
  const int m = static_cast<int>(active_.size());
  if (m == 0 || m > maxRows) return false;
  if (!(m > dof_ ? solveActiveByGram(m) : solveActiveByRows(m))) return false;
  rowStep_.assign(static_cast<size_t>(n), 0.0);
  for (int q = 0; q < m; ++q)
    rowStep_[static_cast<size_t>(active_[static_cast<size_t>(q)])] =
        activeStep_[static_cast<size_t>(q)];
  int blocking = -1;
  const double share = feasibleShare(m, blocking);
  for (const int i : active_) {
    Row& r = rows_[static_cast<size_t>(i)];
    double next = r.impulse + share * rowStep_[static_cast<size_t>(i)];
    // The blocking normal (and any that reach zero with it) stops at exactly zero.
    if (r.kind != ArticulationRowKind::Friction) next = i == blocking ? 0.0 : std::max(next, 0.0);
    const double dp = next - r.impulse;
    r.impulse = next;
    if (dp != 0.0) apply(i, dp);
  }
  return blocking < 0;
}

void ArticulationRows::activeCorrectionStep() {
  // The velocity solve's exact step on the split impulses: their rows (normals and stops) with
  // the pseudo-impulses as impulses and the corrections as targets, friction left out. The
  // sweeps alone ran all 20 iterations in a third of a lying ragdoll's corrections.
  const auto swapProblem = [this] {
    for (size_t i = 0; i < rows_.size(); ++i) {
      std::swap(rows_[i].impulse, applied_[i]);
      std::swap(rows_[i].target, rows_[i].correction);
    }
  };
  swapProblem();
  solveActiveSet(kLargeActiveSet, false);
  swapProblem();
}

bool ArticulationRows::contactBlock(int row) const {
  const auto i = static_cast<size_t>(row);
  return rows_[i].kind == ArticulationRowKind::Normal && i + 2 < rows_.size() &&
         rows_[i + 1].normalRow == row && rows_[i + 2].normalRow == row &&
         rows_[i].inverseK != 0.0 && rows_[i + 1].inverseK != 0.0 && rows_[i + 2].inverseK != 0.0;
}

double ArticulationRows::solveContactBlock(int row) {
  // The sweep's order - the normal row, then its friction pair in the disk of the normal's new
  // impulse - with the three rows' velocities from one pass and y updated in one.
  Row& normal = rows_[static_cast<size_t>(row)];
  Row& t1 = rows_[static_cast<size_t>(row) + 1];
  Row& t2 = rows_[static_cast<size_t>(row) + 2];
  double vn = 0.0, v1 = 0.0, v2 = 0.0;
  dotPadded3(zeta(row), zeta(row + 1), zeta(row + 2), impulseResponse_.data(), normal.extent, vn,
             v1, v2);
  vn += baseVelocity_[static_cast<size_t>(row)];
  const double pn = std::max(normal.impulse - (vn - normal.target) * normal.inverseK, 0.0);
  const double dn = pn - normal.impulse;
  normal.impulse = pn;
  v1 += baseVelocity_[static_cast<size_t>(row) + 1] + t1.normalCoupling * dn;
  v2 += baseVelocity_[static_cast<size_t>(row) + 2] + t2.normalCoupling * dn;
  const double p1 = t1.impulse - (v1 - t1.target) * t1.inverseK;
  const double p2 = t2.impulse - (v2 - t2.target) * t2.inverseK;
  const double radius = std::max(t1.friction * pn, 0.0);
  const double norm = std::sqrt(p1 * p1 + p2 * p2);
  const double scale = norm > radius ? radius / norm : 1.0;
  const double d1 = scale * p1 - t1.impulse, d2 = scale * p2 - t2.impulse;
  t1.impulse += d1;
  t2.impulse += d2;
  addScaledPadded3(impulseResponse_.data(), dn, zeta(row), d1, zeta(row + 1), d2, zeta(row + 2),
                   normal.extent);
  return std::max({std::abs(dn) * normal.k, std::abs(d1) * t1.k, std::abs(d2) * t2.k});
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
  solveActiveSet(kSmallActiveSet);
  for (int it = 0; it < maxIterations; ++it) {
    if (it == kSweepsBeforeLargeActiveSet) solveActiveSet(kLargeActiveSet);
    double change = 0.0;
    for (int i = 0; i < n; ++i) {
      Row& r = rows_[static_cast<size_t>(i)];
      if (r.inverseK == 0.0) continue;
      if (r.blockStart) {
        change = std::max(change, solveContactBlock(i));
        i += 2;
        continue;
      }
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
