#pragma once
// A hinge and the body below it eliminated together in the EqualityTree, the way the
// articulated-body algorithm does (Featherstone, "Rigid Body Dynamics Algorithms", ch. 7).
//
// The tree's LDL^T eliminates the child body (inverting its 6 x 6 pivot D_c) and then the
// hinge's 5 rows (inverting their 5 x 5 pivot J_c D_c^-1 J_c^T) to add to the parent's pivot
//
//   J_p^T (J_c D_c^-1 J_c^T)^-1 J_p  =  Phi^T (D_c - D_c s (s^T D_c s)^-1 s^T D_c) Phi,
//
// where s is the hinge's one free motion of the child (J_c s = 0) and Phi carries the parent's
// velocity to the child's (J_c Phi = -J_p). Both sides are the same matrix exactly, for any
// rows of the hinge's shape (the anchor rows e_k . (v + w x r) and the axis rows t_i . w on
// each body, whatever the arms r): the right side needs no inverse but a scalar's. The solve
// works on the two nodes' 11 unknowns the same way.

#include <Eigen/Core>

#include "impetus/math/types.h"
#include "impetus/solver/constraint_row.h"

namespace impetus {

class HingeElimination {
 public:
  using Mat6 = Eigen::Matrix<double, 6, 6>;
  using Vec6 = Eigen::Matrix<double, 6, 1>;

  /// Reads the hinge's arms and axis from its 5 rows: a RowShape::AnchorPoint block's three
  /// then a RowShape::AxisAlignment block's two (or the RowShape::Hinge block they merged into),
  /// without softness or a rotor; the child on side B of the rows or not.
  void read(const ConstraintRow* const rows[5], bool childIsSideB);

  /// Adds the pair's contribution to the parent's pivot, from the child's pivot D_c (its mass
  /// matrix plus what its own children added). False when s^T D_c s is not clearly positive.
  bool eliminate(const Mat6& childPivot, Mat6& parentPivot);

  /// Solves the pair's equations, D_c x - J_c^T p = yBody and -J_c x = yRows (the right sides
  /// with the parent's part moved over): x the child's unknowns, p the rows'.
  void solve(const Vec6& yBody, const Vec6& yRows, Vec6& x, Vec6& impulse) const;

  /// The forward sweep's push of the pair into its parent (solve with the parent at rest):
  /// parentY -= A(rows, parent)^T p = parentY + J_p^T p.
  void forward(const Vec6& yBody, const Vec6& yRows, Vec6& parentY) const;
  /// yRows - A(rows, parent) x_p = yRows + J_p x_p (the backward sweep's right side).
  void addParentMotion(const Vec6& parentX, Vec6& yRows) const;

 private:
  /// D_c x - yBody at the solution x (also returned through x unless null).
  Vec6 balancedResidual(const Vec6& yBody, const Vec6& yRows, Vec6* x) const;

  double sign_ = 1.0;  ///< sigma: the child's side of the rows (+1 side B)
  Vec3 armChild_, armParent_, tangent1_, tangent2_;
  Vec6 freeMotion_;                ///< s
  Vec6 pivotFreeMotion_;           ///< D_c s
  double inverseFreePivot_ = 0.0;  ///< 1 / (s^T D_c s)
  Mat6 childPivot_;
};

}  // namespace impetus
