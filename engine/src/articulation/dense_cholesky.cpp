#include "dense_cholesky.h"

#include <cmath>
#include <cstddef>

#include "double4.h"

namespace impetus {

bool solvePaddedSymmetric(double* a, int m, int stride, double* b) {
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
  return true;
}

}  // namespace impetus
