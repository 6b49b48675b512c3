#include "impetus/solver/sequential_impulse_solver.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

/// What one pass over a block changed: the largest |dp| of its rows (unit: N s) and the largest
/// change K_ii |dp_i| it made to a row's own velocity (unit: m/s or rad/s).
struct BlockChange {
  double impulse = 0.0;
  double velocity = 0.0;
  void include(const BlockChange& c) {
    impulse = std::max(impulse, c.impulse);
    velocity = std::max(velocity, c.velocity);
  }
};

/// One pass over a single-row block.
inline BlockChange solveRow(const RowBlock& block, ConstraintRow* rows, SolverVelocity* bodies,
                            double* rotors) {
  ConstraintRow& r = rows[block.first];
  SolverVelocity& a = bodies[r.bodyA];
  SolverVelocity& b = bodies[r.bodyB];
  double& rotor = rotors[r.rotor];
  const double residual = rowVelocity(r, a, b, rotor) + r.softness * r.impulse - r.target;
  const double old = r.impulse;
  double p = old - block.inverseK * residual;
  switch (block.kind) {
    case BlockKind::Equality:
      break;
    case BlockKind::Bounded:
      if (block.boundRow >= 0) {
        const double limit =
            block.normBound + block.boundCoefficient * rows[block.boundRow].impulse;
        p = std::clamp(p, -limit, limit);
      } else {
        p = std::clamp(p, r.lower, r.upper);
      }
      break;
    case BlockKind::Mixed:  // single-row blocks are never Mixed or Limited
    case BlockKind::Limited:
    case BlockKind::NormBall: {
      double limit = block.normBound;
      if (block.boundRow >= 0) limit += block.boundCoefficient * rows[block.boundRow].impulse;
      p = std::clamp(p, -limit, limit);
      break;
    }
  }
  const double dp = p - old;
  r.impulse = p;
  applyImpulse(r, dp, a, b, rotor);
  return {std::abs(dp), std::abs(dp) * block.k};
}

/// A step dp of a row stepped with the tree's answer (TreeResponse), shortened to where the
/// first one-sided row of the tree (a stop or contact in it) would start to pull. Past that
/// point the tree's solve lets that row go, taking back only its impulse: the rest of the answer
/// (the joints' impulses balancing it) would stay, unbalanced.
inline double stepToFirstPull(double dp, const TreeResponse& response, const ConstraintRow* rows) {
  for (const auto& [row, impulse] : response.treeImpulses) {
    const ConstraintRow& t = rows[row];
    const double next = t.impulse + dp * impulse;
    if ((t.lower == 0.0 && next < 0.0 && t.impulse >= 0.0) ||
        (t.upper == 0.0 && next > 0.0 && t.impulse <= 0.0))
      dp = -t.impulse / impulse;
  }
  return dp;
}

/// Applies a step dp of row r together with the tree's answer to it.
inline void stepWithTree(ConstraintRow& r, double dp, const TreeResponse& response,
                         ConstraintRow* rows, SolverVelocity* bodies, double* rotors) {
  r.impulse += dp;
  for (const auto& [body, dv] : response.bodies) {
    bodies[body].linear += dp * dv.linear;
    bodies[body].angular += dp * dv.angular;
  }
  for (const auto& [rotor, dw] : response.rotors) rotors[rotor] += dp * dw;
  for (const auto& [row, impulse] : response.treeImpulses) rows[row].impulse += dp * impulse;
}

/// One pass over a lone equality row swept around the tree, stepped together with the tree's
/// answer to it (RowBuffer::respondThroughTree): its velocity equation then holds afterwards with
/// the tree's rows as they were, an exact minimisation along that direction. A step that would
/// take a stop or contact of the tree past pulling (stepToFirstPull) is taken with the row's own
/// mass instead: an MF-4's jaw gear stepped through a tree holding its hull and a jaw on the
/// ground asked the jaw's contact for -1246 N s, and let go, it threw the robot 21 m up.
/// (Shortened instead, the step stalls while such a row rests at 0 impulse: the humanoid walking
/// down its ramp fell.)
inline BlockChange solveRowWithTree(const RowBlock& block, const TreeResponse& response,
                                    ConstraintRow* rows, SolverVelocity* bodies, double* rotors) {
  ConstraintRow& r = rows[block.first];
  const double residual = rowVelocity(r, bodies[r.bodyA], bodies[r.bodyB], rotors[r.rotor]) +
                          r.softness * r.impulse - r.target;
  const double dp = -residual / response.k;
  if (stepToFirstPull(dp, response, rows) != dp) return solveRow(block, rows, bodies, rotors);
  stepWithTree(r, dp, response, rows, bodies, rotors);
  return {std::abs(dp), std::abs(dp) * response.k};
}

/// One pass over a block of one-sided rows closing a loop through the tree (a contact between
/// two links of one robot), in the extended iterations: each row with a loop response
/// (RowBuffer::respondToLoopRows) is stepped with the tree's answer and kept pushing (p >= 0),
/// the others (held by the tree already) with their own mass.
inline BlockChange solveLoopRowsWithTree(const RowBlock& block, const RowBuffer& buffer,
                                         ConstraintRow* rows, SolverVelocity* bodies,
                                         double* rotors) {
  BlockChange change;
  for (int i = block.first; i < block.first + block.count; ++i) {
    ConstraintRow& r = rows[i];
    if (r.upper == 0.0) continue;
    const TreeResponse* response = buffer.loopResponse(i);
    const double k = response ? response->k : sameBodiesCoupling(r, r) + r.softness;
    if (!(k > 1e-300)) continue;
    const double residual = rowVelocity(r, bodies[r.bodyA], bodies[r.bodyB], rotors[r.rotor]) +
                            r.softness * r.impulse - r.target;
    double dp = std::max(r.impulse - residual / k, 0.0) - r.impulse;
    if (!response) {
      r.impulse += dp;
      applyImpulse(r, dp, bodies[r.bodyA], bodies[r.bodyB], rotors[r.rotor]);
    } else {
      dp = stepToFirstPull(dp, *response, rows);
      stepWithTree(r, dp, *response, rows, bodies, rotors);
    }
    change.include({std::abs(dp), std::abs(dp) * k});
  }
  return change;
}

/// One pass over the points of a contact manifold in the tree that are not in it (they do not
/// push: RowBlock::treeRows), one by one, each one-sided with its own effective mass.
inline BlockChange solveRowsBesideTree(const RowBlock& block, ConstraintRow* rows,
                                       SolverVelocity* bodies, double* rotors) {
  BlockChange change;
  for (int i = 0; i < block.count; ++i) {
    if (block.treeRows >> i & 1u) continue;
    ConstraintRow& r = rows[block.first + i];
    SolverVelocity& a = bodies[r.bodyA];
    SolverVelocity& b = bodies[r.bodyB];
    double& rotor = rotors[r.rotor];
    const double k = sameBodiesCoupling(r, r) + r.softness;
    if (!(k > 1e-300)) continue;
    const double residual = rowVelocity(r, a, b, rotor) + r.softness * r.impulse - r.target;
    const double p = std::max(r.impulse - residual / k, 0.0);
    const double dp = p - r.impulse;
    r.impulse = p;
    applyImpulse(r, dp, a, b, rotor);
    change.include({std::abs(dp), std::abs(dp) * k});
  }
  return change;
}

/// Radius of a block's NormBall bound at the current impulses.
inline double ballRadius(const RowBlock& block, const ConstraintRow* rows) {
  double limit = block.normBound;
  if (block.boundRow >= 0) limit += block.boundCoefficient * rows[block.boundRow].impulse;
  return std::max(limit, 0.0);
}

/// One pass over an N-row block solved jointly. N is a compile-time size so
/// the block products are fixed-size (a 3-row point block does not pay for a 6x6 product).
template <int N>
BlockChange solveBlockOf(const RowBlock& block, const BlockMatrices& m, ActiveSetInverses* sets,
                         ConstraintRow* rows, SolverVelocity* bodies, double* rotors) {
  using Vector = Eigen::Matrix<double, N, 1>;
  ConstraintRow* r = rows + block.first;
  // All rows of a block act on the same two bodies (and rotor).
  SolverVelocity& a = bodies[r[0].bodyA];
  SolverVelocity& b = bodies[r[0].bodyB];
  double& rotor = rotors[r[0].rotor];
  Vector residual, old;
  for (int i = 0; i < N; ++i) {
    residual(i) = rowVelocity(r[i], a, b, rotor) + r[i].softness * r[i].impulse - r[i].target;
    old(i) = r[i].impulse;
  }
  const auto inverseK = m.inverseK.template topLeftCorner<N, N>();
  Vector p = old - inverseK * residual;
  if (block.kind == BlockKind::Limited) {
    // Exact small LCP: one-sided rows (lower = 0, upper = inf) are either active (their velocity
    // equation holds, p >= 0) or inactive (p = 0, J v >= target). Try each active set.
    int bounded[4] = {-1, -1, -1, -1}, nb = 0;
    for (int i = 0; i < N && nb < 4; ++i)
      if (r[i].lower > -1e299) bounded[nb++] = i;
    const auto k = m.k.template topLeftCorner<N, N>();
    // Solve for the accumulated impulses themselves: K p = K p_old - r. Coplanar contact points
    // make K singular (4 points, 3 DOF); a 1e-10 relative ridge then picks the minimum-norm
    // impulses, i.e. a face rests evenly on its corners rather than on a diagonal pair that
    // flips at the slightest disturbance.
    const Vector b = k * old - residual;
    const double ridge = 1e-10 * k.diagonal().cwiseAbs().maxCoeff();
    ActiveSetInverses* cache = sets ? &sets[block.activeSets] : nullptr;
    // The candidate impulses of active set `mask` (bit j: bounded[j] pushes); whether they are
    // a solution (active rows push, released rows separate).
    const auto trySet = [&](int mask, Vector& candidate) {
      bool freeRow[N];
      for (int i = 0; i < N; ++i) freeRow[i] = true;
      for (int j = 0; j < nb; ++j)
        if (!(mask & (1 << j))) freeRow[bounded[j]] = false;
      Vector rhs = Vector::Zero();
      for (int i = 0; i < N; ++i)
        if (freeRow[i]) rhs(i) = b(i);  // released rows: impulse 0 (identity row, zero right side)
      const auto activeSetMatrix = [&] {
        Eigen::Matrix<double, N, N> a = Eigen::Matrix<double, N, N>::Identity();
        for (int i = 0; i < N; ++i) {
          if (!freeRow[i]) continue;
          for (int j = 0; j < N; ++j) a(i, j) = freeRow[j] ? k(i, j) : 0.0;
          a(i, i) += ridge;
        }
        return a;
      };
      if (cache) {
        if (!(cache->ready & (1u << mask))) {
          // Cholesky (the ridge makes every active set's matrix positive definite; pivoting
          // LDL^T only where it is not), column by column: fixed-size vector solves are inlined,
          // where a solve against the identity matrix takes Eigen's general blocked path (that
          // and the pivoting were 12 % of the MF-4 grasp).
          const Eigen::Matrix<double, N, N> matrix = activeSetMatrix();
          const Eigen::LLT<Eigen::Matrix<double, N, N>> cholesky(matrix);
          auto inverse = cache->inverse[mask].template topLeftCorner<N, N>();
          if (cholesky.info() == Eigen::Success) {
            for (int j = 0; j < N; ++j)
              inverse.col(j) = cholesky.solve(Eigen::Matrix<double, N, 1>::Unit(j));
          } else {
            const Eigen::LDLT<Eigen::Matrix<double, N, N>> ldlt(matrix);
            for (int j = 0; j < N; ++j)
              inverse.col(j) = ldlt.solve(Eigen::Matrix<double, N, 1>::Unit(j));
          }
          cache->ready = static_cast<std::uint16_t>(cache->ready | (1u << mask));
        }
        candidate = cache->inverse[mask].template topLeftCorner<N, N>() * rhs;
      } else {
        candidate = activeSetMatrix().ldlt().solve(rhs);
      }
      const Vector after = residual + k * (candidate - old);  // J v + ... - target once applied
      for (int j = 0; j < nb; ++j) {
        const int i = bounded[j];
        if (freeRow[i] ? candidate(i) < -1e-12 : after(i) < -1e-9) return false;
      }
      return true;
    };
    // The active set the last sweep found first: between sweeps it rarely changes, and with the
    // ridge K is definite, so the LCP has one solution - the one the enumeration would find.
    Vector candidate;
    int found = -1;
    if (cache && cache->lastValid >= 0 && trySet(cache->lastValid, candidate))
      found = cache->lastValid;
    for (int mask = (1 << nb) - 1; found < 0 && mask >= 0; --mask) {
      if (cache && mask == cache->lastValid && mask != 0) continue;  // just tried
      // All rows released is the last resort (valid or not).
      if (trySet(mask, candidate) || mask == 0) found = mask;
    }
    if (cache) cache->lastValid = static_cast<std::int8_t>(found);
    p = candidate;
    for (int j = 0; j < nb; ++j) p(bounded[j]) = std::max(p(bounded[j]), 0.0);
  } else if (block.kind == BlockKind::NormBall) {
    // Coulomb's law as a vector norm: project the accumulated impulse radially onto the ball
    // (seed 000 eq. 10; the friction cone of seed 002 eq. 21). The block's mass is isotropic
    // (see RowBuffer::finalize), so a sliding impulse ends up opposite the sliding velocity.
    const double limit = ballRadius(block, rows);
    const double norm = p.norm();
    if (norm > limit) p *= limit / norm;
  } else if (block.kind == BlockKind::Mixed) {
    // Joint + its friction: if the joint's sticking impulse leaves the ball, friction slides at
    // the projected impulse and the joint rows are re-solved with that friction fixed.
    const int f = block.frictionCount, e = N - f;
    const double limit = ballRadius(block, rows);
    double norm2 = 0.0;
    for (int i = e; i < N; ++i) norm2 += p(i) * p(i);
    if (norm2 > limit * limit) {
      const double scale = limit / std::sqrt(norm2);
      Vector frictionChange = Vector::Zero();
      for (int i = e; i < N; ++i) frictionChange(i) = p(i) * scale - old(i);
      Vector equalityResidual = residual + m.k.template topLeftCorner<N, N>() * frictionChange;
      for (int i = e; i < N; ++i) equalityResidual(i) = 0.0;
      p = old - m.inverseEquality.template topLeftCorner<N, N>() * equalityResidual +
          frictionChange;
    }
  }
  BlockChange change;
  for (int i = 0; i < N; ++i) {
    const double dp = p(i) - old(i);
    r[i].impulse = p(i);
    applyImpulse(r[i], dp, a, b, rotor);
    change.include({std::abs(dp), std::abs(dp) * m.k(i, i)});
  }
  return change;
}

inline BlockChange solveMultiRow(const RowBlock& block, const BlockMatrices& m,
                                 ActiveSetInverses* sets, ConstraintRow* rows,
                                 SolverVelocity* bodies, double* rotors) {
  if (block.activeSets < 0) sets = nullptr;
  switch (block.count) {
    case 2:
      return solveBlockOf<2>(block, m, sets, rows, bodies, rotors);
    case 3:
      return solveBlockOf<3>(block, m, sets, rows, bodies, rotors);
    case 4:
      return solveBlockOf<4>(block, m, sets, rows, bodies, rotors);
    case 5:
      return solveBlockOf<5>(block, m, sets, rows, bodies, rotors);
    default:
      return solveBlockOf<6>(block, m, sets, rows, bodies, rotors);
  }
}

}  // namespace

void applyAccumulatedImpulses(std::span<const ConstraintRow> rows, std::span<SolverVelocity> bodies,
                              std::span<double> rotorSpeeds) {
  for (const ConstraintRow& r : rows) {
    if (r.impulse == 0.0) continue;
    applyImpulse(r, r.impulse, bodies[static_cast<size_t>(r.bodyA)],
                 bodies[static_cast<size_t>(r.bodyB)], rotorSpeeds[static_cast<size_t>(r.rotor)]);
  }
}

namespace {

/// One block with its own effective mass (prepared: RowBuffer::prepared).
void solveOwnBlock(const RowBlock& block, const BlockMatrices* matrices, ActiveSetInverses* sets,
                   ConstraintRow* rows, std::span<SolverVelocity> bodies,
                   std::span<double> rotorSpeeds) {
  if (block.count == 1)
    solveRow(block, rows, bodies.data(), rotorSpeeds.data());
  else
    solveMultiRow(block, matrices[block.matrices], sets, rows, bodies.data(), rotorSpeeds.data());
}

/// Sweeps of the joints' blocks when settleOntoJoints finds no tree.
constexpr int kSettleSweeps = 4;

}  // namespace

void settleOntoJoints(RowBuffer& buffer, std::span<SolverVelocity> bodies,
                      std::span<double> rotorSpeeds) {
  for (EqualityTree* tree = buffer.equalityTree(); tree; tree = buffer.equalityTree()) {
    tree->solve(buffer.rows(), bodies, rotorSpeeds);
    if (!buffer.releasePullingRows()) return;
  }
  // No tree, or the releases left nothing one would gain (a lone joint, its contact gone): the
  // joints' own blocks, each exact on its own (a lone joint in one pass).
  for (RowBlock& block : buffer.blocks())
    if (block.kind == BlockKind::Equality) buffer.prepared(block);
  ConstraintRow* rows = buffer.rows().data();
  const BlockMatrices* matrices = buffer.matrices().data();  // after prepared() added any
  for (int pass = 0; pass < kSettleSweeps; ++pass)
    for (const RowBlock& block : buffer.blocks()) {
      if (block.kind == BlockKind::Equality)
        solveOwnBlock(block, matrices, buffer.activeSets().data(), rows, bodies, rotorSpeeds);
    }
}

void solveBlockSubset(RowBuffer& buffer, std::span<const int> blockIndices,
                      std::span<SolverVelocity> bodies, std::span<double> rotorSpeeds) {
  ConstraintRow* rows = buffer.rows().data();
  for (int i : blockIndices) buffer.prepared(buffer.blocks()[static_cast<size_t>(i)]);
  const BlockMatrices* matrices = buffer.matrices().data();
  for (int i : blockIndices)
    solveOwnBlock(buffer.blocks()[static_cast<size_t>(i)], matrices, buffer.activeSets().data(),
                  rows, bodies, rotorSpeeds);
}

namespace {

/// A slow mode (see solveBlocks): the sweep's velocity change shrinks by less than this share...
constexpr double kStallRatio = 0.9;
/// ... for this many iterations in a row, ...
constexpr int kStallIterations = 2;
/// ... and the iterations left would leave more than this share of it.
constexpr double kStallShare = 0.5;

double largestAccumulatedImpulse(std::span<const ConstraintRow> rows) {
  double largest = 0.0;
  for (const ConstraintRow& r : rows) largest = std::max(largest, std::abs(r.impulse));
  return largest;
}

/// The fastest a one-sided row (a contact's normal, a stop) that closes a loop in a tree of joints
/// closes against its target (unit: m/s or rad/s; 0 when none does): what the iterations have
/// not yet stopped, in the one place where more of them are needed (EqualityTree::
/// closesJointLoop). Elsewhere the tree's admissions and the warm start do better than more
/// sweeps: a 1000 kg box landing on 1 kg boxes took 400 iterations to go from 2.4 to 2.2 cm/s.
double largestClosingVelocity(const EqualityTree* tree, std::span<const ConstraintRow> rows,
                              const SolverVelocity* bodies, const double* rotors) {
  double largest = 0.0;
  if (!tree) return largest;
  for (const ConstraintRow& r : rows) {
    if (r.lower != 0.0 || r.upper < 1e300 || !tree->closesJointLoop(r.bodyA, r.bodyB)) continue;
    const double residual = rowVelocity(r, bodies[r.bodyA], bodies[r.bodyB], rotors[r.rotor]) +
                            r.softness * r.impulse - r.target;
    largest = std::max(largest, -residual);
  }
  return largest;
}

/// Whether every contact the tree does not hold closes a loop through it (a mechanism touching
/// only itself): a contact with the ground or another robot, swept beside loop rows stepped with
/// the tree, left their steps unbalanced (an MF-4 on its tracks pulled its shoulder 0.7 m open).
bool onlyLoopsBesideTree(RowBuffer& buffer) {
  const EqualityTree* tree = buffer.equalityTree();
  const std::span<const ConstraintRow> rows = buffer.rows();
  for (const RowBlock& block : buffer.blocks()) {
    if (block.treeRole != TreeRole::Contact && block.treeRole != TreeRole::Friction) continue;
    if (block.direct && !hasRowsBesideTree(block)) continue;
    const ConstraintRow& r = rows[static_cast<size_t>(block.first)];
    if (!tree || !tree->closesJointLoop(r.bodyA, r.bodyB)) return false;
  }
  return true;
}

}  // namespace

SolveResult solveBlocks(RowBuffer& buffer, std::span<SolverVelocity> bodies,
                        std::span<double> rotorSpeeds, const SolveStop& stop) {
  SolveResult result;
  ConstraintRow* rows = buffer.rows().data();
  SolverVelocity* v = bodies.data();
  double* rotors = rotorSpeeds.data();
  const std::span<const RowBlock> blocks = buffer.blocks();
  if (blocks.empty()) {
    result.converged = true;
    return result;
  }
  // Limits and contacts move in and out of the tree as they start or stop pushing (each move
  // refactorises it). Admissions are capped: a row that keeps flipping past this many moves stays
  // out. Releases are not: a solve that finds a row pulling applies nothing else (its answer
  // assumed the pull), so the row must leave before the tree can answer; each release shrinks it.
  constexpr int kMaxTreeRebuilds = 4;
  int rebuilds = 0;
  const auto released = [&] {  // whether rows left the tree (it was rebuilt)
    if (!buffer.releasePullingRows()) return false;
    ++rebuilds;
    return true;
  };
  // The tree alone is exact in one solve; a second would only confirm it.
  while (buffer.treeHoldsAll() && stop.maxIterations > 0) {
    result.largestImpulseChange = buffer.equalityTree()->solve(buffer.rows(), bodies, rotorSpeeds);
    result.iterations += 1;
    result.converged = true;
    if (!released()) return result;
    result.converged = false;
  }
  int budget = stop.maxIterations;
  bool lastReleased = false;  // the last iteration's tree solve let rows go and applied nothing
  double lastSweepVelocity = 0.0;
  int slowIterations = 0;  // in a row, each shrinking the sweep's change by less than kStallRatio
  for (int it = 0; it < budget; ++it) {
    EqualityTree* tree = buffer.equalityTree();
    const BlockMatrices* matrices = buffer.matrices().data();
    ActiveSetInverses* sets = buffer.activeSets().data();
    // The rest (contacts, limits, loops...) one by one, then the tree's joints as one exact
    // block: the velocities handed on satisfy the joints exactly, and what the last iteration
    // leaves unconverged is a contact's (a little sinking, taken out by the position pass)
    // rather than a joint opening.
    lastReleased = false;
    BlockChange sweep;
    double equalityImpulse = 0.0;  // largest |dp| of a swept joint (a loop's, a lone joint's)
    const TreeResponse* responses = buffer.treeResponses().data();
    // Extended (or asked for from the start): the loop-closing rows step with the tree (the
    // answers are redone after a rebuild).
    const bool onJointTree = stop.jointTreeLoopRowShare > 0.0 && buffer.treeHoldsJointsAlone() &&
                             onlyLoopsBesideTree(buffer);
    const bool loopsWithTree = result.extended || stop.loopRowsWithTree || onJointTree;
    if (loopsWithTree && !buffer.loopResponsesReady())
      buffer.respondToLoopRows(onJointTree ? stop.jointTreeLoopRowShare
                                           : stop.redundantLoopRowShare);
    for (const RowBlock& block : blocks) {
      if (block.direct) {
        if (hasRowsBesideTree(block)) sweep.include(solveRowsBesideTree(block, rows, v, rotors));
        continue;
      }
      const BlockChange change =
          loopsWithTree && buffer.closesLoop(static_cast<size_t>(&block - blocks.data()))
              ? solveLoopRowsWithTree(block, buffer, rows, v, rotors)
          : block.count > 1 ? solveMultiRow(block, matrices[block.matrices], sets, rows, v, rotors)
          : block.treeResponse >= 0
              ? solveRowWithTree(block, responses[block.treeResponse], rows, v, rotors)
              : solveRow(block, rows, v, rotors);
      sweep.include(change);
      if (block.kind == BlockKind::Equality || block.kind == BlockKind::Mixed)
        equalityImpulse = std::max(equalityImpulse, change.impulse);
    }
    const double treeChange = tree ? tree->solve(buffer.rows(), bodies, rotorSpeeds) : 0.0;
    const double largest = std::max(sweep.impulse, treeChange);
    result.iterations += 1;
    result.largestImpulseChange = largest;
    if (released()) {  // the tree changed: not converged yet, and a new convergence
      slowIterations = 0;
      lastSweepVelocity = 0.0;
      lastReleased = true;
      continue;
    }
    // Impulses settled; or velocities settled while the swept joints' impulses did (swept
    // joints, a loop's, converge slowly: small changes there do not mean a small error). The
    // first sweep saw no tree solve yet: a still sweep there says nothing when the tree then
    // moved (a motor starting a loop from rest: the loop's row was never asked).
    const double impulseTolerance = std::max(
        stop.tolerance, stop.relativeTolerance > 0.0
                            ? stop.relativeTolerance * largestAccumulatedImpulse(buffer.rows())
                            : 0.0);
    const bool converged = stop.useTolerance && (largest < impulseTolerance ||
                                                 (sweep.velocity < stop.velocityTolerance &&
                                                  equalityImpulse < impulseTolerance &&
                                                  (it > 0 || treeChange < impulseTolerance)));
    // A slow mode: rows nearly held by the tree (a limb resting on a limb closes a loop; a light
    // box under a heavy one) trade impulses with it, each iteration taking ~1 % off the error.
    // When the budget left would not take off half of it, stop: the warm start carries the rest
    // into the next step, where a resting pile asks the same question (a ragdoll lying still ran
    // 20-40 iterations a step for hundreds of steps; stopped, 2).
    const double ratio = lastSweepVelocity > 0.0 ? sweep.velocity / lastSweepVelocity : 0.0;
    slowIterations = it > 0 && ratio > kStallRatio && ratio < 1.0 ? slowIterations + 1 : 0;
    lastSweepVelocity = sweep.velocity;
    // Past the cap, only a closing row keeps the iterations going; once none closes, stop.
    if (result.extended && largestClosingVelocity(buffer.equalityTree(), buffer.rows(), v,
                                                  rotors) <= stop.closingVelocityTolerance)
      break;
    const bool stalled =
        !result.extended && stop.useTolerance && !converged && slowIterations >= kStallIterations &&
        sweep.velocity < stop.stallVelocity && std::pow(ratio, budget - it - 1) > kStallShare;
    // A limit or contact the sweep found pushing joins the tree: it then holds exactly. It gets
    // the iterations its arrival needs (at most the budget again, once).
    // (Not when stalled: the rows a slow mode finds pushing come and go with it, and each move
    // is a refactorisation and a fresh budget; the MF-4 grasp ran 19.4 iterations a step so.)
    if ((converged || it + 1 == budget) && rebuilds < kMaxTreeRebuilds &&
        buffer.admitPushingRows()) {
      ++rebuilds;
      if (budget == stop.maxIterations) budget += stop.maxIterations;
      slowIterations = 0;  // the tree changed: a new convergence
      lastSweepVelocity = 0.0;
      continue;
    }
    if (converged || stalled) {
      result.converged = converged;
      result.stalled = stalled;
      break;
    }
    if (it + 1 == budget && !result.extended && stop.extendedIterations > budget &&
        stop.closingVelocityTolerance > 0.0 &&
        largestClosingVelocity(buffer.equalityTree(), buffer.rows(), v, rotors) >
            stop.closingVelocityTolerance) {
      result.extended = true;
      budget = stop.extendedIterations;
    }
    if (stop.useDeadline && std::chrono::steady_clock::now() >= stop.deadline) {
      result.outOfTime = true;
      break;
    }
  }
  // The iterations ended on a release: the velocities are the sweep's, not yet put back onto the
  // joints (an MF-4 jaw swept with its own 0.3 kg was left spinning at 74 rad/s and its rail was
  // pulled 12 mm open). The tree, rebuilt without the released rows, answers once more.
  if (lastReleased) settleOntoJoints(buffer, bodies, rotorSpeeds);
  return result;
}

}  // namespace impetus
