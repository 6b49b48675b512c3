#include "impetus/solver/row_buffer.h"

#include <Eigen/Cholesky>
#include <cassert>

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
  if (i.bodyA == j.bodyA) k += i.linearA.dot(j.responseLinearA) + i.angularA.dot(j.responseAngularA);
  if (i.bodyA == j.bodyB) k += i.linearA.dot(j.responseLinearB) + i.angularA.dot(j.responseAngularB);
  if (i.bodyB == j.bodyA) k += i.linearB.dot(j.responseLinearA) + i.angularB.dot(j.responseAngularA);
  if (i.bodyB == j.bodyB) k += i.linearB.dot(j.responseLinearB) + i.angularB.dot(j.responseAngularB);
  return k;
}

/// Inverse of the used n x n corner of a padded block; a singular block (degenerate geometry) falls
/// back to its diagonal so the solver still makes progress row by row.
BlockMatrix invertBlock(const BlockMatrix& k, int n) {
  const Eigen::LDLT<BlockMatrix> ldlt(k);
  const double scale = k.diagonal().head(n).cwiseAbs().maxCoeff() + 1e-300;
  if (ldlt.info() == Eigen::Success && ldlt.isPositive() &&
      ldlt.vectorD().head(n).cwiseAbs().minCoeff() > 1e-12 * scale)
    return ldlt.solve(BlockMatrix::Identity());
  BlockMatrix inv = BlockMatrix::Identity();
  for (int i = 0; i < n; ++i) inv(i, i) = k(i, i) > 1e-300 ? 1.0 / k(i, i) : 0.0;
  return inv;
}

}  // namespace

void RowBuffer::finalize(std::span<const SolverBodyMass> bodies,
                         std::span<const double> rotorInverseInertia) {
  for (ConstraintRow& r : rows_) {
    const SolverBodyMass& a = bodies[static_cast<size_t>(r.bodyA)];
    const SolverBodyMass& b = bodies[static_cast<size_t>(r.bodyB)];
    r.responseLinearA = a.inverseMass * r.linearA;
    r.responseAngularA = a.inverseInertia * r.angularA;
    r.responseLinearB = b.inverseMass * r.linearB;
    r.responseAngularB = b.inverseInertia * r.angularB;
    r.responseRotor = rotorInverseInertia[static_cast<size_t>(r.rotor)] * r.rotorJacobian;
  }
  matrices_.clear();
  for (RowBlock& block : blocks_) {
    const ConstraintRow* rows = &rows_[static_cast<size_t>(block.first)];
    if (block.count == 1) {
      const double k = coupling(rows[0], rows[0]) + rows[0].softness;
      block.inverseK = k > 1e-300 ? 1.0 / k : 0.0;  // a row no body can answer is inert
      continue;
    }
    block.matrices = static_cast<int>(matrices_.size());
    BlockMatrices& m = matrices_.emplace_back();
    m.k.setIdentity();  // padding rows: dp = -residual * 1 on a zero residual stays 0
    for (int i = 0; i < block.count; ++i) {
      for (int j = 0; j < block.count; ++j) m.k(i, j) = coupling(rows[i], rows[j]);
      m.k(i, i) += rows[i].softness;
    }
    m.inverseK = invertBlock(m.k, block.count);
    if (block.kind == BlockKind::Mixed) {
      BlockMatrix equality = BlockMatrix::Identity();
      const int e = block.count - block.frictionCount;
      equality.topLeftCorner(e, e) = m.k.topLeftCorner(e, e);
      m.inverseEquality = invertBlock(equality, e);
    } else {
      m.inverseEquality.setZero();
    }
  }
}

}  // namespace impetus
