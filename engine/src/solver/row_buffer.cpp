#include "impetus/solver/row_buffer.h"

#include "impetus/solver/small_inverse.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace impetus {

int RowBuffer::addBlock(BlockKind kind, int count, int bodyA, int bodyB) {
  assert(count >= 1 && count <= kMaxBlockRows);
  const int first = static_cast<int>(rows_.size());
  for (int i = 0; i < count; ++i) {
    ConstraintRow& r = rows_.emplace_back();
    r.bodyA = bodyA;
    r.bodyB = bodyB;
  }
  RowBlock& b = blocks_.emplace_back();
  b.first = first;
  b.count = count;
  b.kind = kind;
  return first;
}

void RowBuffer::mergeLastBlocks(int blocks, BlockKind kind) {
  assert(blocks >= 1 && blocks <= static_cast<int>(blocks_.size()));
  const RowBlock last = blocks_.back();
  RowBlock& first = blocks_[blocks_.size() - static_cast<size_t>(blocks)];
  first.count = last.first + last.count - first.first;
  assert(first.count <= kMaxBlockRows);
  first.kind = kind;
  first.shape =
      blocks == 2 && first.shape == RowShape::AnchorPoint && last.shape == RowShape::AxisAlignment
          ? RowShape::Hinge
          : RowShape::Other;
  first.treeRole = TreeRole::None;  // whoever merged says what the merged block may do
  // A block's rows share one rotor slot (rows without a rotor column have J_m = 0 there).
  int rotor = 0;
  for (int i = first.first; i < first.first + first.count; ++i)
    rotor = std::max(rotor, rows_[static_cast<size_t>(i)].rotor);
  for (int i = first.first; i < first.first + first.count; ++i) {
    ConstraintRow& r = rows_[static_cast<size_t>(i)];
    assert(r.rotor == 0 || r.rotor == rotor);
    r.rotor = rotor;
  }
  if (kind == BlockKind::Mixed) {
    first.frictionCount = last.count;
    first.normBound = last.kind == BlockKind::Bounded ? rows_[static_cast<size_t>(last.first)].upper
                                                      : last.normBound;
    first.boundCoefficient = last.boundCoefficient;
    first.boundRow = last.boundRow;
  }
  blocks_.resize(blocks_.size() - static_cast<size_t>(blocks - 1));
}

namespace {

/// J_i M^-1 J_j^T: how row i's velocity responds to row j's impulse.
double coupling(const ConstraintRow& i, const ConstraintRow& j) {
  double k = i.rotorJacobian * j.responseRotor;
  if (i.bodyA == j.bodyA)
    k += i.linearA.dot(j.responseLinearA) + i.angularA.dot(j.responseAngularA);
  if (i.bodyA == j.bodyB)
    k += i.linearA.dot(j.responseLinearB) + i.angularA.dot(j.responseAngularB);
  if (i.bodyB == j.bodyA)
    k += i.linearB.dot(j.responseLinearA) + i.angularB.dot(j.responseAngularA);
  if (i.bodyB == j.bodyB)
    k += i.linearB.dot(j.responseLinearB) + i.angularB.dot(j.responseAngularB);
  return k;
}

/// The inverse of the leading n x n corner of a symmetric positive (semi)definite block. A
/// singular block (degenerate geometry) falls back to its diagonal so the solver still makes
/// progress row by row.
void invertBlock(const BlockMatrix& k, int n, BlockMatrix& inv) {
  if (invertSymmetricDefinite(k, n, inv)) return;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) inv(i, j) = i == j && k(i, i) > 1e-300 ? 1.0 / k(i, i) : 0.0;
}

}  // namespace

void RowBuffer::finalize(std::span<const SolverBodyMass> bodies,
                         std::span<const double> rotorInverseInertia) {
  bodies_ = bodies;
  rotorInverseInertia_ = rotorInverseInertia;
  responsesFilled_ = false;
  // A limit starts in the tree when it pushed last step (warm start) or its stop is violated
  // (a position row asking to push); a contact manifold when all its points pushed; a friction
  // pair when it stuck.
  for (RowBlock& block : blocks_) {
    const ConstraintRow& r = rows_[static_cast<size_t>(block.first)];
    block.treeActive = block.treeRole == TreeRole::JointLimit ? r.impulse > 0.0 || r.target > 0.0
                       : block.treeRole == TreeRole::Contact
                           ? (block.treeRows = pushingRows(block)) != 0
                       : block.treeRole == TreeRole::Friction ? sticks(block)
                                                              : false;
  }
  frictionInTree_ = true;
  // The tree first: its blocks need no matrices of their own (it fails as a whole, unmarking them).
  treeActive_ = false;
  for (RowBlock& block : blocks_) block.direct = false;
  if (directEqualities_) treeActive_ = tree_.build(rows_, blocks_, bodies, rotorInverseInertia);
  noteTreeCoverage();
  // A chain's or an arm's joints alone: the tree solves them from its factor and moves the bodies
  // by its own body solution, so no row's response is ever read (5 % of a chain step to fill) -
  // but a lone row's own mass, which prepareBlock gives it even in the tree.
  const bool treeAlone =
      treeHoldsOnlyEqualities_ && tree_.bodySolutionExact() &&
      std::ranges::none_of(blocks_, [](const RowBlock& b) { return b.count == 1; });
  if (!treeAlone) fillResponses();
  matrices_.clear();
  activeSets_.clear();
  for (RowBlock& block : blocks_) {
    block.activeSets = -1;
    block.matrices = -1;
    // A single row's mass costs next to nothing; a contact manifold in the tree gets its
    // matrices only if it leaves the tree or takes a restitution pass (prepared()).
    if (!block.direct || block.count == 1) prepareBlock(block);
  }
  respondThroughTree();
  loopResponsesReady_ = false;
}

namespace {
/// Below this share of its own J M^-1 J^T left free by the tree, a lone row counts as redundant
/// with the tree (RowBuffer::respondThroughTree).
constexpr double kRedundantRowResponse = 0.05;
}  // namespace

void RowBuffer::respondThroughTree() {
  // A lone equality row outside the tree (a repeater's gear closing a loop through it) swept
  // alone moves its bodies against the tree, whose solve then undoes part of it: a geometric
  // series over the iterations. Stepping the row together with the tree's answer (an exact
  // minimisation along that direction) closes the loop in one pass.
  treeResponseCount_ = 0;
  for (RowBlock& block : blocks_) {
    block.treeResponse = -1;
    if (!treeActive_ || block.direct || block.count != 1 || block.kind != BlockKind::Equality)
      continue;
    if (treeResponseCount_ == treeResponses_.size()) treeResponses_.emplace_back();
    TreeResponse& response = treeResponses_[treeResponseCount_];
    tree_.responseThroughTree(rows_[static_cast<size_t>(block.first)], rows_, response);
    // A row the tree (nearly) holds already - both jaws at their stops - is redundant with it:
    // stepped through the tree, its rounding-level residual would ask for huge impulses. Such a
    // row keeps its own mass (the tree then undoes what it does, as before).
    if (!(response.k > kRedundantRowResponse * block.k)) continue;
    block.treeResponse = static_cast<int>(treeResponseCount_++);
  }
}

void RowBuffer::respondToLoopRows(double redundantShare) {
  // A contact between two links of one robot swept with its own two-body mass trades impulses
  // with the tree that joins them, a geometric series that converges at the links' share of the
  // mechanism's inertia (a 0.25 kg jaw squeezed by a turret on a 1500:1 gear: 400 iterations and
  // still closing). Stepped with the tree's answer, each row is exact against the joints.
  loopResponsesReady_ = true;
  loopResponseOfRow_.assign(rows_.size(), -1);
  loopBlocks_.assign(blocks_.size(), 0);
  if (!treeActive_) return;
  fillResponses();
  size_t count = 0;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const RowBlock& block = blocks_[b];
    if (block.direct) continue;
    const ConstraintRow* first = &rows_[static_cast<size_t>(block.first)];
    const bool oneSided = std::all_of(first, first + block.count, [](const ConstraintRow& r) {
      return r.lower == 0.0 && (r.upper == 0.0 || r.upper >= 1e300);
    });
    if (!oneSided || !tree_.closesJointLoop(first->bodyA, first->bodyB)) continue;
    for (int i = block.first; i < block.first + block.count; ++i) {
      const ConstraintRow& r = rows_[static_cast<size_t>(i)];
      if (r.upper == 0.0) continue;  // an opening gap: held at zero
      if (count == loopResponses_.size()) loopResponses_.emplace_back();
      TreeResponse& response = loopResponses_[count];
      tree_.responseThroughTree(r, rows_, response);
      // Held by the tree already (redundant with it): its own mass, as respondThroughTree.
      if (!(response.k > redundantShare * (sameBodiesCoupling(r, r) + r.softness))) continue;
      loopResponseOfRow_[static_cast<size_t>(i)] = static_cast<int>(count++);
      loopBlocks_[b] = 1;
    }
  }
}

void RowBuffer::fillResponses() {
  if (responsesFilled_) return;
  for (ConstraintRow& r : rows_) {
    const SolverBodyMass& a = bodies_[static_cast<size_t>(r.bodyA)];
    const SolverBodyMass& b = bodies_[static_cast<size_t>(r.bodyB)];
    r.responseLinearA = a.inverseMass * r.linearA;
    r.responseAngularA = a.inverseInertia * r.angularA;
    r.responseLinearB = b.inverseMass * r.linearB;
    r.responseAngularB = b.inverseInertia * r.angularB;
    r.responseRotor = rotorInverseInertia_[static_cast<size_t>(r.rotor)] * r.rotorJacobian;
  }
  responsesFilled_ = true;
}

void RowBuffer::prepared(RowBlock& block) {
  fillResponses();
  if (block.count > 1 && block.matrices < 0) prepareBlock(block);
}

void RowBuffer::noteTreeCoverage() {
  treeHoldsAll_ = treeActive_;
  treeHoldsEqualities_ = treeActive_;
  bool onlyEqualities = true;
  treeHoldsJointsAlone_ = treeActive_;
  for (const RowBlock& b : blocks_) {
    onlyEqualities = onlyEqualities && b.kind == BlockKind::Equality;
    if (b.direct && b.kind != BlockKind::Equality) treeHoldsJointsAlone_ = false;
    if (b.direct && !hasRowsBesideTree(b)) continue;
    treeHoldsAll_ = false;
    if (b.kind == BlockKind::Equality) treeHoldsEqualities_ = false;
  }
  treeHoldsOnlyEqualities_ = treeHoldsAll_ && onlyEqualities;
}

void RowBuffer::rebuildTree() {
  fillResponses();
  treeActive_ = tree_.build(rows_, blocks_, bodies_, rotorInverseInertia_);
  noteTreeCoverage();
  // A tree that failed to factorise left its joints to the sweep, which needs their matrices.
  for (RowBlock& block : blocks_)
    if (!block.direct) prepared(block);
  respondThroughTree();  // to the tree as it is now
  loopResponsesReady_ = false;
}

std::uint8_t RowBuffer::pushingRows(const RowBlock& block) const {
  // A face's coplanar points are one row too many: in the tree (one exact solve, see
  // EqualityTree) they must ask for the same normal velocity, or its least-squares answer is
  // huge impulses. A landing, tilted face has unequal targets and stays in the sweep (its exact
  // small LCP).
  const ConstraintRow* rows = &rows_[static_cast<size_t>(block.first)];
  std::uint8_t mask = 0;
  int first = -1;
  for (int i = 0; i < block.count; ++i) {
    if (!(rows[i].impulse > 0.0)) continue;
    if (first < 0) first = i;
    if (std::abs(rows[i].target - rows[first].target) > 1e-9) return 0;
    mask = static_cast<std::uint8_t>(mask | (1u << i));
  }
  return mask;
}

namespace {
/// A friction pair sticks while its impulse is inside this share of the Coulomb ball's radius; at
/// the rim it slides (the sweep's projection leaves it there), and in the tree it would only be
/// released again.
constexpr double kStickingShare = 0.99;
}  // namespace

bool RowBuffer::sticks(const RowBlock& block) const {
  // Only on a touching point (normal target 0): a closing gap's target is -gap / dt, and with the
  // tree holding points tangentially still it is one of equalities that disagree, whose
  // least-squares answer through the compliant leaves is impulses of hundreds of N s.
  const ConstraintRow* rows = &rows_[static_cast<size_t>(block.first)];
  const double limit =
      block.normBound + block.boundCoefficient * rows_[static_cast<size_t>(block.boundRow)].impulse;
  const double norm2 = rows[0].impulse * rows[0].impulse + rows[1].impulse * rows[1].impulse;
  return rows_[static_cast<size_t>(block.boundRow)].target == 0.0 && limit > 0.0 &&
         norm2 < kStickingShare * kStickingShare * limit * limit;
}

bool RowBuffer::releasePullingRows() {
  if (!treeActive_ || tree_.released().empty()) return false;
  bool slides = false;
  for (int b : tree_.released())
    slides = slides || blocks_[static_cast<size_t>(b)].treeRole == TreeRole::Friction;
  for (int b : tree_.released()) {
    RowBlock& block = blocks_[static_cast<size_t>(b)];
    if (block.treeRole == TreeRole::Contact) {
      // Only the points that pulled leave (the tree's solve set their impulses to exactly 0);
      // the manifold's others stay.
      std::uint8_t pulled = 0;
      for (int i = 0; i < block.count; ++i)
        if ((block.treeRows >> i & 1u) &&
            rows_[static_cast<size_t>(block.first + i)].impulse == 0.0)
          pulled = static_cast<std::uint8_t>(pulled | (1u << i));
      if (pulled == 0) pulled = block.treeRows;  // none found: the whole manifold, as before
      block.releasedRows = static_cast<std::uint8_t>(block.releasedRows | pulled);
      block.treeRows = static_cast<std::uint8_t>(block.treeRows & ~pulled);
      block.treeActive = block.treeRows != 0;
    } else {
      block.treeActive = false;
    }
  }
  // A pair that slid lists them all (EqualityTree::frictionSlides): the step's friction goes back
  // to the sweep, for good (at most one such rebuild a step).
  if (slides) {
    frictionInTree_ = false;
    for (RowBlock& block : blocks_)  // those waiting for their normal rows too
      if (block.treeRole == TreeRole::Friction) block.treeActive = false;
  }
  tree_.clearReleased();
  rebuildTree();
  return true;
}

bool RowBuffer::admitPushingRows() {
  if (!treeActive_) return false;
  bool changed = false;
  for (RowBlock& block : blocks_) {
    if (block.direct && block.treeRole == TreeRole::Contact) {
      // Points beside the tree that now push too (with the same target) join their manifold's.
      const std::uint8_t mask = pushingRows(block) & static_cast<std::uint8_t>(~block.releasedRows);
      if ((mask & block.treeRows) == block.treeRows && mask != block.treeRows) {
        block.treeRows = mask;
        changed = true;
      }
      continue;
    }
    if (block.direct || !block.treeJoinable || block.treeActive) continue;
    if (block.treeRole == TreeRole::Friction) {
      if (frictionInTree_ && sticks(block)) block.treeActive = changed = true;
    } else if (block.treeRole == TreeRole::Contact) {
      block.treeRows = pushingRows(block) & static_cast<std::uint8_t>(~block.releasedRows);
      if (block.treeRows != 0) block.treeActive = changed = true;
    } else if (pushingRows(block) != 0) {  // a limit's one row
      block.treeActive = changed = true;
    }
  }
  if (changed) rebuildTree();
  return changed;
}

void RowBuffer::prepareBlock(RowBlock& block) {
  const ConstraintRow* rows = &rows_[static_cast<size_t>(block.first)];
  if (block.count == 1) {
    const double k = coupling(rows[0], rows[0]) + rows[0].softness;
    block.inverseK = k > 1e-300 ? 1.0 / k : 0.0;  // a row no body can answer is inert
    block.k = k > 1e-300 ? k : 0.0;
    return;
  }
  block.matrices = static_cast<int>(matrices_.size());
  BlockMatrices& m = matrices_.emplace_back();
  if (cacheActiveSets_ && block.kind == BlockKind::Limited) {
    block.activeSets = static_cast<int>(activeSets_.size());
    activeSets_.emplace_back().ready = 0;
  }
  // A block's rows share their two bodies and rotor, and K is symmetric.
  for (int i = 0; i < block.count; ++i) {
    const ConstraintRow& a = rows[i];
    for (int j = 0; j <= i; ++j) {
      const ConstraintRow& b = rows[j];
      // Degenerate (both ends one body): let the general form decide.
      const double k = a.bodyA == a.bodyB ? coupling(a, b) : sameBodiesCoupling(a, b);
      m.k(i, j) = k;
      m.k(j, i) = k;
    }
    m.k(i, i) += rows[i].softness;
  }
  if (block.kind == BlockKind::NormBall) {
    // Friction balls use an isotropic effective mass (count / trace K): with the point's full
    // anisotropic mass (rotation coupling) the radially projected sticking impulse is skewed
    // away from the sliding direction, and a sliding box yaws and feels only ~97 % of mu N.
    const double trace = m.k.topLeftCorner(block.count, block.count).trace();
    m.inverseK.setZero();
    for (int i = 0; i < block.count; ++i)
      m.inverseK(i, i) = trace > 1e-300 ? block.count / trace : 0.0;
  } else {
    invertBlock(m.k, block.count, m.inverseK);
  }
  if (block.kind == BlockKind::Mixed) {
    // Inverse of the equality corner, zero elsewhere (the friction rows are held fixed).
    const int e = block.count - block.frictionCount;
    invertBlock(m.k, e, m.inverseEquality);
    for (int i = 0; i < block.count; ++i)
      for (int j = 0; j < block.count; ++j)
        if (i >= e || j >= e) m.inverseEquality(i, j) = 0.0;
  }
}

}  // namespace impetus
