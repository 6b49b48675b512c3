#pragma once
// Products over vectors padded to a multiple of 4 (zeros past their data), four entries at a
// time: one AVX register (two SSE ones on a baseline build) through GCC's and Clang's vector
// extension, the loads unaligned (memcpy). Vectors pass by reference only: by value they would
// change the ABI of a build without AVX (GCC's -Wpsabi). Private to the articulation solver.

#include <cstring>

namespace impetus {

using Double4 = double __attribute__((vector_size(32)));

[[gnu::always_inline]] inline void load4(Double4& v, const double* p) {
  std::memcpy(&v, p, sizeof v);
}
[[gnu::always_inline]] inline void store4(double* p, const Double4& v) {
  std::memcpy(p, &v, sizeof v);
}
[[gnu::always_inline]] inline double sum4(const Double4& v) {
  return (v[0] + v[2]) + (v[1] + v[3]);
}

[[gnu::always_inline]] inline double dotPadded(const double* a, const double* b, int n) {
  Double4 sum = {0.0, 0.0, 0.0, 0.0}, x, y;
  for (int i = 0; i < n; i += 4) {
    load4(x, a + i);
    load4(y, b + i);
    sum += x * y;
  }
  return sum4(sum);
}
[[gnu::always_inline]] inline void zeroPadded(double* y, int n) {
  const Double4 zero = {0.0, 0.0, 0.0, 0.0};
  for (int i = 0; i < n; i += 4) store4(y + i, zero);
}
[[gnu::always_inline]] inline void scalePadded(double* y, double scale, int n) {
  Double4 yi;
  for (int i = 0; i < n; i += 4) {
    load4(yi, y + i);
    yi *= scale;
    store4(y + i, yi);
  }
}
[[gnu::always_inline]] inline void addScaledPadded(double* y, double scale, const double* x,
                                                   int n) {
  Double4 yi, xi;
  for (int i = 0; i < n; i += 4) {
    load4(yi, y + i);
    load4(xi, x + i);
    yi += scale * xi;
    store4(y + i, yi);
  }
}
// A contact's three rows against y in one pass: three independent sums.
[[gnu::always_inline]] inline void dotPadded3(const double* a, const double* b, const double* c,
                                              const double* y, int n, double& va, double& vb,
                                              double& vc) {
  Double4 sa = {0.0, 0.0, 0.0, 0.0}, sb = sa, sc = sa, yi, ai, bi, ci;
  for (int i = 0; i < n; i += 4) {
    load4(yi, y + i);
    load4(ai, a + i);
    load4(bi, b + i);
    load4(ci, c + i);
    sa += ai * yi;
    sb += bi * yi;
    sc += ci * yi;
  }
  va = sum4(sa);
  vb = sum4(sb);
  vc = sum4(sc);
}
[[gnu::always_inline]] inline void addScaledPadded3(double* y, double sa, const double* a,
                                                    double sb, const double* b, double sc,
                                                    const double* c, int n) {
  for (int i = 0; i < n; i += 4) {
    Double4 yi, ai, bi, ci;
    load4(yi, y + i);
    load4(ai, a + i);
    load4(bi, b + i);
    load4(ci, c + i);
    yi = yi + sa * ai + sb * bi + sc * ci;
    store4(y + i, yi);
  }
}

/// The four sums a . b0, a . b1, a . b2, a . b3 (padded, n a multiple of 4) as one vector: a
/// loaded once for four products, the four reductions done together.
[[gnu::always_inline]] inline void dotPadded4(const double* a, const double* b0, const double* b1,
                                              const double* b2, const double* b3, int n,
                                              Double4& out) {
  Double4 s0 = {0.0, 0.0, 0.0, 0.0}, s1 = s0, s2 = s0, s3 = s0, ai, bi;
  for (int i = 0; i < n; i += 4) {
    load4(ai, a + i);
    load4(bi, b0 + i);
    s0 += ai * bi;
    load4(bi, b1 + i);
    s1 += ai * bi;
    load4(bi, b2 + i);
    s2 += ai * bi;
    load4(bi, b3 + i);
    s3 += ai * bi;
  }
  // Pairwise within (s0, s1) and (s2, s3), then across: (sum s0, sum s1, sum s2, sum s3).
  const Double4 t0 =
      __builtin_shufflevector(s0, s1, 0, 4, 2, 6) + __builtin_shufflevector(s0, s1, 1, 5, 3, 7);
  const Double4 t1 =
      __builtin_shufflevector(s2, s3, 0, 4, 2, 6) + __builtin_shufflevector(s2, s3, 1, 5, 3, 7);
  out = __builtin_shufflevector(t0, t1, 0, 1, 4, 5) + __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
}

}  // namespace impetus
