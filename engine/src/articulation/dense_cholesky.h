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

/// x = A^+ b, A = Z Z^T, for Z with more rows m than columns n: A then has rank n at most and
/// its rows depend on each other, so its own factor blows up on any part of b outside its range
/// (a tilted face's four corners asked for velocities no rigid motion has) and costs m^3 / 3.
/// The Gram matrix G = Z^T Z (n x n) has A's nonzero eigenvalues, and A^+ = Z G^-2 Z^T: the
/// least-squares compromise with the least norm, the exact solution when b is in A's range;
/// m n^2 / 2 to form, n^3 / 3 to factor (G + R as solvePaddedSymmetric's A + R: columns no
/// row reaches, or that depend on each other, give pivots of about 1e-9 of their diagonal, and
/// Z maps what those directions pick up back to zero). Row k of Z is zRows[k], `stride`
/// entries (a multiple of 4, at least n), nonzero only in its first extents[k] (a multiple of
/// 4) and zero from column n on. `gram` (stride x stride) and `work` (stride) are scratch; b and
/// x have m entries. Returns false if a pivot of G is not positive.
bool solveMinimumNormPadded(const double* const* zRows, const int* extents, int m, int n,
                            int stride, const double* b, double* x, double* gram, double* work);

/// solvePaddedSymmetric's two halves: A + R = U^T U in place (false if a pivot is not
/// positive), then U^T U x = b in place, as often as there are right-hand sides.
bool factorPaddedSymmetric(double* a, int m, int stride);
void solveFactoredPadded(const double* a, int m, int stride, double* b);

}  // namespace impetus
