#include "dense_cholesky.h"

#include <cmath>
#include <cstddef>

#include "double4.h"

namespace impetus {

bool factorPaddedSymmetric(double* a, int m, int stride) {
  const auto row = [&](int p) { return a + static_cast<std::ptrdiff_t>(p) * stride; };
  for (int p = 0; p < m; ++p) row(p)[p] = row(p)[p] * (1.0 + 1e-9) + 1e-300;
  for (int p = 0; p < m; ++p) {
    double* up = row(p);
    const double pivot = up[p];
    if (!(pivot > 0.0)) return false;
    // Row p of U: the pivot's root on the diagonal, the rest divided by it; then every row below
    // loses its share, A_rc -= U_pr U_pc, from a multiple of 4 on (what lands left of a
    // diagonal is never read).
    const int from = p / 4 * 4;
    const double root = std::sqrt(pivot);
    scalePadded(up + from, 1.0 / root, stride - from);
    up[p] = root;
    for (int r = p + 1; r < m; ++r) {
      const int start = r / 4 * 4;
      addScaledPadded(row(r) + start, -up[r], up + start, stride - start);
    }
  }
  return true;
}

void solveFactoredPadded(const double* a, int m, int stride, double* b) {
  const auto row = [&](int p) { return a + static_cast<std::ptrdiff_t>(p) * stride; };
  // U^T y = b: each y_p, first first, leaves its share in the entries after it.
  for (int p = 0; p < m; ++p) {
    const double* up = row(p);
    const double y = b[p] / up[p];
    b[p] = y;
    int c = p + 1;
    for (; c % 4 != 0; ++c) b[c] -= y * up[c];
    if (c < stride) addScaledPadded(b + c, -y, up + c, stride - c);
  }
  // U x = y: each x_p, last first, from those after it.
  for (int p = m - 1; p >= 0; --p) {
    const double* up = row(p);
    double sum = 0.0;
    int c = p + 1;
    for (; c % 4 != 0; ++c) sum += up[c] * b[c];
    if (c < stride) sum += dotPadded(up + c, b + c, stride - c);
    b[p] = (b[p] - sum) / up[p];
  }
}

bool solvePaddedSymmetric(double* a, int m, int stride, double* b) {
  if (!factorPaddedSymmetric(a, m, stride)) return false;
  solveFactoredPadded(a, m, stride, b);
  return true;
}

bool solveMinimumNormPadded(const double* const* zRows, const int* extents, int m, int n,
                            int stride, const double* b, double* x, double* gram, double* work) {
  const auto gramRow = [&](int r) { return gram + static_cast<std::ptrdiff_t>(r) * stride; };
  zeroPadded(gram, stride * stride);
  zeroPadded(work, stride);
  // G = sum z z^T (each row's upper triangle from its multiple of 4 on) and Z^T b.
  for (int k = 0; k < m; ++k) {
    const double* z = zRows[k];
    const int extent = extents[k];
    addScaledPadded(work, b[k], z, extent);
    for (int r = 0; r < extent; ++r) {
      if (z[r] == 0.0) continue;
      const int from = r / 4 * 4;
      addScaledPadded(gramRow(r) + from, z[r], z + from, extent - from);
    }
  }
  if (!factorPaddedSymmetric(gram, n, stride)) return false;
  solveFactoredPadded(gram, n, stride, work);
  solveFactoredPadded(gram, n, stride, work);
  for (int k = 0; k < m; ++k) x[k] = dotPadded(zRows[k], work, extents[k]);
  return true;
}

}  // namespace impetus
