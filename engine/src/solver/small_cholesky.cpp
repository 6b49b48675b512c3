#include "impetus/solver/small_cholesky.h"

#include <algorithm>
#include <cmath>

namespace impetus {

bool invertSymmetricDefinite(const BlockMatrix& k, int n, BlockMatrix& inverse) {
  double l[kMaxBlockRows][kMaxBlockRows];   // lower triangle used
  double li[kMaxBlockRows][kMaxBlockRows];  // lower triangle used
  double scale = 0.0;
  for (int i = 0; i < n; ++i) scale = std::max(scale, std::abs(k(i, i)));
  if (!(scale > 1e-300)) return false;
  for (int j = 0; j < n; ++j) {
    double d = k(j, j);
    for (int m = 0; m < j; ++m) d -= l[j][m] * l[j][m];
    if (!(d > 1e-12 * scale)) return false;
    l[j][j] = std::sqrt(d);
    const double inv = 1.0 / l[j][j];
    for (int i = j + 1; i < n; ++i) {
      double s = k(i, j);
      for (int m = 0; m < j; ++m) s -= l[i][m] * l[j][m];
      l[i][j] = s * inv;
    }
  }
  // inverse = L^-T L^-1: invert L (lower triangular), then multiply.
  for (int i = 0; i < n; ++i) {
    li[i][i] = 1.0 / l[i][i];
    for (int j = 0; j < i; ++j) {
      double s = 0.0;
      for (int m = j; m < i; ++m) s -= l[i][m] * li[m][j];
      li[i][j] = s * li[i][i];
    }
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      double s = 0.0;
      for (int m = i; m < n; ++m) s += li[m][i] * li[m][j];
      inverse(i, j) = s;
      inverse(j, i) = s;
    }
  return true;
}

}  // namespace impetus
