#include "impetus/solver/small_inverse.h"

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

namespace {

using Mat3 = Eigen::Matrix3d;

/// Inverse of a symmetric 3 x 3 block by its adjugate; false when a pivot of sign * m is below
/// `threshold` (the leading minors' ratios are the pivots, checked without dividing).
bool invertSymmetric3(const Mat3& m, double sign, double threshold, Mat3& inverse) {
  const double a = m(0, 0), b = m(1, 0), c = m(2, 0), d = m(1, 1), e = m(2, 1), f = m(2, 2);
  const double c00 = d * f - e * e, c01 = c * e - b * f, c02 = b * e - c * d;
  const double c11 = a * f - c * c, c12 = b * c - a * e, c22 = a * d - b * b;
  const double det = a * c00 + b * c01 + c * c02;
  const double pivot1 = sign * a;  // pivots of sign * m: p1, p2 = c22 / p1, p3 = sign det / c22
  if (!(pivot1 > threshold && c22 > threshold * pivot1 && sign * det > threshold * c22))
    return false;
  const double s = 1.0 / det;
  inverse << c00 * s, c01 * s, c02 * s, c01 * s, c11 * s, c12 * s, c02 * s, c12 * s, c22 * s;
  return true;
}

}  // namespace

bool invertSymmetricDefinite6(const BlockMatrix& k, double sign, BlockMatrix& inverse) {
  const double threshold = 1e-12 * k.diagonal().cwiseAbs().maxCoeff();
  if (!(threshold > 0.0)) return false;
  const Mat3 a = k.topLeftCorner<3, 3>();
  const Mat3 b = k.topRightCorner<3, 3>();
  Mat3 aInverse, schurInverse;
  if (!invertSymmetric3(a, sign, threshold, aInverse)) return false;
  const Mat3 e = aInverse * b;
  const Mat3 schur = k.bottomRightCorner<3, 3>() - b.transpose() * e;
  if (!invertSymmetric3(schur, sign, threshold, schurInverse)) return false;
  const Mat3 upperRight = -e * schurInverse;
  inverse.topLeftCorner<3, 3>() = aInverse - upperRight * e.transpose();
  inverse.topRightCorner<3, 3>() = upperRight;
  inverse.bottomLeftCorner<3, 3>() = upperRight.transpose();
  inverse.bottomRightCorner<3, 3>() = schurInverse;
  return true;
}

}  // namespace impetus
