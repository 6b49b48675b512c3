#include "impetus/solver/small_inverse.h"

#include <gtest/gtest.h>

#include <random>

namespace impetus {
namespace {

TEST(SmallInverse, InvertsSymmetricDefiniteBlocksOfEverySize) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int n = 1; n <= kMaxBlockRows; ++n) {
    for (int trial = 0; trial < 20; ++trial) {
      BlockMatrix a = BlockMatrix::Zero();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) a(i, j) = u(rng);
      // A^T A + 0.1 I: definite, condition number up to ~1e3 like a joint's effective mass.
      BlockMatrix k = BlockMatrix::Zero();
      k.topLeftCorner(n, n) = a.topLeftCorner(n, n).transpose() * a.topLeftCorner(n, n);
      k.topLeftCorner(n, n).diagonal().array() += 0.1;
      BlockMatrix inverse = BlockMatrix::Constant(42.0);
      ASSERT_TRUE(invertSymmetricDefinite(k, n, inverse));
      const auto product = (k.topLeftCorner(n, n) * inverse.topLeftCorner(n, n)).eval();
      const double error = (product - decltype(product)::Identity(n, n)).cwiseAbs().maxCoeff();
      EXPECT_LT(error, 1e-10) << "n = " << n;  // rounding times the condition number
      if (n < kMaxBlockRows) {
        EXPECT_EQ(inverse(n, n), 42.0);  // past the corner: untouched
      }
    }
  }
}

TEST(SmallInverse, RejectsDependentAndIndefiniteRows) {
  // Two equal rows (a hinge's axis constrained twice): K is singular; the solver must fall back.
  BlockMatrix k = BlockMatrix::Zero();
  k.topLeftCorner(3, 3) << 2, 2, 0, 2, 2, 0, 0, 0, 1;
  BlockMatrix inverse;
  EXPECT_FALSE(invertSymmetricDefinite(k, 3, inverse));
  k.topLeftCorner(2, 2) << 1, 0, 0, -1;  // indefinite
  EXPECT_FALSE(invertSymmetricDefinite(k, 2, inverse));
  EXPECT_FALSE(invertSymmetricDefinite(BlockMatrix::Zero(), 4, inverse));
}

TEST(SmallInverse, BlockInverseOfSixBySixMatchesCholeskyBothSigns) {
  // The EqualityTree's pivots: bodies (positive) and joints (negative definite), with a mass
  // ratio like a 0.5 kg hand's under a 75 kg torso.
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    BlockMatrix a;
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) a(i, j) = u(rng);
    BlockMatrix k = a.transpose() * a;
    k.diagonal().array() += 0.1;
    k.topLeftCorner<3, 3>() *= 150.0;
    for (const double sign : {1.0, -1.0}) {
      BlockMatrix inverse, reference;
      ASSERT_TRUE(invertSymmetricDefinite6(sign * k, sign, inverse));
      ASSERT_TRUE(invertSymmetricDefinite(k, 6, reference));
      EXPECT_LT((sign * inverse - reference).cwiseAbs().maxCoeff(),
                1e-9 * reference.cwiseAbs().maxCoeff());
      EXPECT_LT(((sign * k) * inverse - BlockMatrix::Identity()).cwiseAbs().maxCoeff(), 1e-9);
    }
  }
}

TEST(SmallInverse, BlockInverseRejectsSingularAndWrongSign) {
  BlockMatrix k = BlockMatrix::Identity();
  EXPECT_FALSE(invertSymmetricDefinite6(k, -1.0, k));  // positive, asked as negative definite
  BlockMatrix singular = BlockMatrix::Identity();
  singular(4, 4) = singular(5, 5) = singular(4, 5) = singular(5, 4) = 2.0;  // dependent rows
  BlockMatrix inverse;
  EXPECT_FALSE(invertSymmetricDefinite6(singular, 1.0, inverse));
  singular = BlockMatrix::Identity();
  singular(0, 0) = singular(1, 1) = singular(0, 1) = singular(1, 0) = 3.0;  // in the first block
  EXPECT_FALSE(invertSymmetricDefinite6(singular, 1.0, inverse));
}

}  // namespace
}  // namespace impetus
