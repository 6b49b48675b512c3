#pragma once
// The dense symmetric systems of the articulation's exact active-set solves (a few dozen rows):
// Cholesky A = U^T U in place, right-looking - each pivot row scaled, then taken from every row
// below it as whole padded vectors - and the two triangular solves. Private to the engine.

namespace impetus {

/// Solves (A + R) x = b in place. A is symmetric positive semidefinite, m x m, given by its
/// upper triangle in rows of `stride` entries (a multiple of 4, at least m): row p holds finite
/// values from column p rounded down to a multiple of 4 (those left of the diagonal are not
/// used) and zeros from column m on. R adds 1e-9 of each diagonal entry: a face's corners are
/// redundant rows. b has `stride` entries, zeros past m, and returns x. A is overwritten.
/// Returns false if a pivot is not positive (A indefinite beyond rounding).
bool solvePaddedSymmetric(double* a, int m, int stride, double* b);

}  // namespace impetus
