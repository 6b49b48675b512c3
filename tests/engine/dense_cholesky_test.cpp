// The articulation solver's dense kernels (articulation/dense_cholesky.h) against Eigen's
// decompositions, on the Delassus matrices a lying figure hands them: more active contact rows
// than joint DOF, so A = Z Z^T is singular and its rows depend on each other.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdio>
#include <random>
#include <vector>

#include "articulation/dense_cholesky.h"

namespace {

/// Z's rows padded to a multiple of 4 (zeros past n), as ArticulationRows keeps them.
struct PaddedRows {
  int stride = 0;
  std::vector<double> data;
  std::vector<const double*> rows;
  std::vector<int> extents;
};

PaddedRows padded(const Eigen::MatrixXd& z) {
  PaddedRows p;
  p.stride = static_cast<int>((z.cols() + 3) / 4 * 4);
  p.data.assign(static_cast<size_t>(z.rows() * p.stride), 0.0);
  for (int k = 0; k < z.rows(); ++k)
    for (int c = 0; c < z.cols(); ++c) p.data[static_cast<size_t>(k * p.stride + c)] = z(k, c);
  for (int k = 0; k < z.rows(); ++k) {
    p.rows.push_back(p.data.data() + static_cast<size_t>(k * p.stride));
    p.extents.push_back(p.stride);
  }
  return p;
}

/// x = A^+ b by the Gram matrix (the kernel under test).
Eigen::VectorXd minimumNorm(const Eigen::MatrixXd& z, const Eigen::VectorXd& b) {
  const PaddedRows p = padded(z);
  std::vector<double> gram(static_cast<size_t>(p.stride * p.stride)), work(p.stride);
  Eigen::VectorXd x(z.rows());
  EXPECT_TRUE(impetus::solveMinimumNormPadded(
      p.rows.data(), p.extents.data(), static_cast<int>(z.rows()), static_cast<int>(z.cols()),
      p.stride, b.data(), x.data(), gram.data(), work.data()));
  return x;
}

/// A^+ b by Eigen's complete orthogonal decomposition of A itself (the reference).
Eigen::VectorXd pseudoInverse(const Eigen::MatrixXd& z, const Eigen::VectorXd& b) {
  const Eigen::MatrixXd a = z * z.transpose();
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a);
  cod.setThreshold(1e-10);
  return cod.solve(b);
}

/// A box face's four corners, each a normal and two friction rows, on a 7-DOF pair of links:
/// 12 rows, rank 7.
Eigen::MatrixXd cornerRows(std::mt19937& random) {
  std::normal_distribution<double> entry(0.0, 1.0);
  Eigen::MatrixXd z(12, 7);
  for (int k = 0; k < z.rows(); ++k)
    for (int c = 0; c < z.cols(); ++c) z(k, c) = entry(random);
  return z;
}

}  // namespace

// What the pseudo-inverse is held to: A's condition number on its range is ~10^2 here and the
// Gram factor adds 1e-9 of each diagonal entry, so 1e-6 relative is that regularisation with a
// margin of 10 (measured: ~1e-8).
constexpr double kRelative = 1e-6;

TEST(DenseCholesky, MoreRowsThanDofSolveExactlyWhenTheTargetsAgree) {
  std::mt19937 random(7);
  const Eigen::MatrixXd z = cornerRows(random);
  // Targets some impulses reach: b = A y.
  const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(12, -1.0, 2.0);
  const Eigen::VectorXd b = z * (z.transpose() * y);
  const Eigen::VectorXd x = minimumNorm(z, b);
  const Eigen::VectorXd reference = pseudoInverse(z, b);
  std::printf("agreeing targets: |x - A^+ b| / |A^+ b| = %.2g\n",
              (x - reference).norm() / reference.norm());
  EXPECT_LT((x - reference).norm(), kRelative * reference.norm());
  // The rows meet their targets, and with the least impulses: none along A's null space (the
  // corners' redundancy), where y has some.
  EXPECT_LT((z * (z.transpose() * x) - b).norm(), kRelative * b.norm());
  EXPECT_LT(x.norm(), y.norm());
}

TEST(DenseCholesky, MoreRowsThanDofGiveTheLeastSquaresCompromiseWhereAFactorBlowsUp) {
  // Targets no motion meets (b off A's range, as a tilted face's corners ask): the pseudo-
  // inverse gives the least-squares compromise with the least impulses; the factor of A itself,
  // regularised by 1e-9, answers with impulses ~1e9 times larger, which the active-set solve then
  // had to throw away.
  std::mt19937 random(11);
  const Eigen::MatrixXd z = cornerRows(random);
  Eigen::VectorXd b(12);
  std::normal_distribution<double> entry(0.0, 1.0);
  for (int k = 0; k < 12; ++k) b(k) = entry(random);
  const Eigen::VectorXd x = minimumNorm(z, b);
  const Eigen::VectorXd reference = pseudoInverse(z, b);
  EXPECT_LT((x - reference).norm(), kRelative * reference.norm());

  const Eigen::MatrixXd a = z * z.transpose();
  const int stride = 12;
  std::vector<double> upper(stride * stride, 0.0), plain(b.data(), b.data() + 12);
  for (int r = 0; r < 12; ++r)
    for (int c = r / 4 * 4; c < 12; ++c) upper[static_cast<size_t>(r * stride + c)] = a(r, c);
  ASSERT_TRUE(impetus::solvePaddedSymmetric(upper.data(), 12, stride, plain.data()));
  const double blowUp = Eigen::Map<Eigen::VectorXd>(plain.data(), 12).norm() / reference.norm();
  std::printf(
      "contradicting targets: |x - A^+ b| / |A^+ b| = %.2g; A's own factor: %.2g x |A^+ b|\n",
      (x - reference).norm() / reference.norm(), blowUp);
  EXPECT_GT(blowUp, 1e4);
}

TEST(DenseCholesky, DofNoRowReachesOrTwoRowsShareAreLeftOut) {
  // Columns that are zero (DOF no active row touches: a free arm) or equal (two DOF only ever
  // moved together) make G singular: their pivots are the regularisation's, and Z maps whatever
  // they pick up back to zero.
  std::mt19937 random(3);
  Eigen::MatrixXd z = cornerRows(random);
  z.col(2).setZero();
  z.col(5) = z.col(4);
  Eigen::VectorXd b(12);
  std::normal_distribution<double> entry(0.0, 1.0);
  for (int k = 0; k < 12; ++k) b(k) = entry(random);
  const Eigen::VectorXd x = minimumNorm(z, b);
  const Eigen::VectorXd reference = pseudoInverse(z, b);
  std::printf("singular G: |x - A^+ b| / |A^+ b| = %.2g\n",
              (x - reference).norm() / reference.norm());
  EXPECT_LT((x - reference).norm(), kRelative * reference.norm());
}
