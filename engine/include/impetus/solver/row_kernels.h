#pragma once
// The two operations every solver pass repeats per row: the row's velocity J v and the
// application of an impulse change, v += M^-1 J^T dp. Shared by the block sweep and the
// EqualityTree. A body's linear and angular parts sit next to each other (in SolverVelocity and in
// each half of a ConstraintRow), so each side is one 6-vector: Eigen then uses full SIMD packets
// where four 3-vector operations would not.

#include <cstddef>

#include "impetus/math/types.h"
#include "impetus/solver/constraint_row.h"

namespace impetus {

/// The velocity state the solver updates for one body (or the pseudo-velocity in the position
/// pass).
struct SolverVelocity {
  Vec3 linear = Vec3::Zero();
  Vec3 angular = Vec3::Zero();
};

namespace rowkernels {

using Six = Eigen::Matrix<double, 6, 1>;

static_assert(offsetof(SolverVelocity, angular) == offsetof(SolverVelocity, linear) + sizeof(Vec3));
static_assert(offsetof(ConstraintRow, angularA) == offsetof(ConstraintRow, linearA) + sizeof(Vec3));
static_assert(offsetof(ConstraintRow, angularB) == offsetof(ConstraintRow, linearB) + sizeof(Vec3));
static_assert(offsetof(ConstraintRow, responseAngularA) ==
              offsetof(ConstraintRow, responseLinearA) + sizeof(Vec3));
static_assert(offsetof(ConstraintRow, responseAngularB) ==
              offsetof(ConstraintRow, responseLinearB) + sizeof(Vec3));

/// The 6-vector starting at `linear` (its angular part follows it).
inline Eigen::Map<const Six> six(const Vec3& linear) {
  return Eigen::Map<const Six>(linear.data());
}
inline Eigen::Map<Six> six(Vec3& linear) {
  return Eigen::Map<Six>(linear.data());
}

}  // namespace rowkernels

/// J v of one row (unit of the row: m/s or rad/s).
inline double rowVelocity(const ConstraintRow& r, const SolverVelocity& a, const SolverVelocity& b,
                          double rotorSpeed) {
  using rowkernels::six;
  return six(r.linearA).dot(six(a.linear)) + six(r.linearB).dot(six(b.linear)) +
         r.rotorJacobian * rotorSpeed;
}

/// v += M^-1 J^T dp for one row's impulse change dp.
inline void applyImpulse(const ConstraintRow& r, double dp, SolverVelocity& a, SolverVelocity& b,
                         double& rotorSpeed) {
  using rowkernels::six;
  six(a.linear) += dp * six(r.responseLinearA);
  six(b.linear) += dp * six(r.responseLinearB);
  rotorSpeed += dp * r.responseRotor;
}

}  // namespace impetus
