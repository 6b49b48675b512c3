#pragma once
// Inverse of a small symmetric positive definite matrix (n <= 6) by Cholesky, without allocation
// or Eigen's general (packing, blocked) solve path: the solver inverts hundreds of these a step
// (joint blocks, manifold blocks, the EqualityTree's pivots).

#include "impetus/solver/constraint_row.h"

namespace impetus {

/// Writes the inverse of the leading n x n corner of `k` (symmetric; only its lower triangle is
/// read) into the same corner of `inverse`. Returns false, writing nothing, when a pivot is not
/// clearly positive (below 1e-12 of the largest diagonal entry: dependent rows).
bool invertSymmetricDefinite(const BlockMatrix& k, int n, BlockMatrix& inverse);

}  // namespace impetus
