#pragma once
// Inverses of small symmetric definite matrices (n <= 6) without allocation or Eigen's general
// (packing, blocked) solve path: the solver inverts hundreds of these a step (joint blocks,
// manifold blocks, the EqualityTree's pivots).

#include "impetus/solver/constraint_row.h"

namespace impetus {

/// Writes the inverse of the leading n x n corner of `k` (symmetric; only its lower triangle is
/// read) into the same corner of `inverse`. Returns false, writing nothing, when a pivot is not
/// clearly positive (below 1e-12 of the largest diagonal entry: dependent rows).
bool invertSymmetricDefinite(const BlockMatrix& k, int n, BlockMatrix& inverse);

/// Inverse of a symmetric definite 6 x 6 matrix, positive (sign = +1) or negative (sign = -1), by
/// its 3 x 3 blocks [A B; B^T C]: A^-1 and the Schur complement's inverse in closed form
/// (adjugate over determinant). Two divisions and no square roots, and products the CPU overlaps,
/// where a Cholesky waits on six sqrt/divide pairs in a row (the EqualityTree's pivots: one a body
/// or joint per factorisation). Returns false when a pivot of sign * k is not clearly positive
/// (below 1e-12 of the largest diagonal entry, like invertSymmetricDefinite); `inverse` is then
/// unspecified.
bool invertSymmetricDefinite6(const BlockMatrix& k, double sign, BlockMatrix& inverse);

}  // namespace impetus
