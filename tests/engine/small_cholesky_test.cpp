#include "impetus/solver/small_cholesky.h"

#include <gtest/gtest.h>

#include <random>

namespace impetus {
namespace {

TEST(SmallCholesky, InvertsSymmetricDefiniteBlocksOfEverySize) {
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

TEST(SmallCholesky, RejectsDependentAndIndefiniteRows) {
  // Two equal rows (a hinge's axis constrained twice): K is singular; the solver must fall back.
  BlockMatrix k = BlockMatrix::Zero();
  k.topLeftCorner(3, 3) << 2, 2, 0, 2, 2, 0, 0, 0, 1;
  BlockMatrix inverse;
  EXPECT_FALSE(invertSymmetricDefinite(k, 3, inverse));
  k.topLeftCorner(2, 2) << 1, 0, 0, -1;  // indefinite
  EXPECT_FALSE(invertSymmetricDefinite(k, 2, inverse));
  EXPECT_FALSE(invertSymmetricDefinite(BlockMatrix::Zero(), 4, inverse));
}

}  // namespace
}  // namespace impetus
