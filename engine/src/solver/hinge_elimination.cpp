#include "impetus/solver/hinge_elimination.h"

#include <algorithm>
#include <cmath>

namespace impetus {
namespace {

/// The arm r of anchor rows whose angular parts are sign * (r x e_k), k = 0..2:
/// r x e_0 = (0, r_z, -r_y), r x e_1 = (-r_z, 0, r_x), r x e_2 = (r_y, -r_x, 0).
Vec3 armOf(const Vec3& angular0, const Vec3& angular1, const Vec3& angular2, double sign) {
  return sign * Vec3(angular1(2), angular2(0), angular0(1));
}

}  // namespace

void HingeElimination::read(const ConstraintRow* const rows[5], bool childIsSideB) {
  sign_ = childIsSideB ? 1.0 : -1.0;
  const auto child = [&](int k) -> const Vec3& {
    return childIsSideB ? rows[k]->angularB : rows[k]->angularA;
  };
  const auto parent = [&](int k) -> const Vec3& {
    return childIsSideB ? rows[k]->angularA : rows[k]->angularB;
  };
  armChild_ = armOf(child(0), child(1), child(2), sign_);
  armParent_ = armOf(parent(0), parent(1), parent(2), -sign_);
  tangent1_ = sign_ * child(3);
  tangent2_ = sign_ * child(4);
  // The free motion: turning about the axis a = t1 x t2 about the child's anchor (any scale).
  const Vec3 axis = tangent1_.cross(tangent2_);
  freeMotion_.head<3>() = armChild_.cross(axis);
  freeMotion_.tail<3>() = axis;
}

bool HingeElimination::eliminate(const Mat6& childPivot, Mat6& parentPivot) {
  pivotFreeMotion_.noalias() = childPivot * freeMotion_;
  const double freePivot = freeMotion_.dot(pivotFreeMotion_);
  if (!(freePivot > 1e-12 * childPivot.diagonal().maxCoeff() * freeMotion_.squaredNorm()))
    return false;
  inverseFreePivot_ = 1.0 / freePivot;
  childPivot_ = childPivot;
  // X = D_c - D_c s s^T D_c / (s^T D_c s): the child's inertia as the parent feels it through
  // the hinge (nothing along s).
  Mat6 x = childPivot;
  x.noalias() -= inverseFreePivot_ * pivotFreeMotion_ * pivotFreeMotion_.transpose();
  // Phi = [I K; 0 I], K = -[d]x with d = r_p - r_c: v_c = v_p + w_p x d, w_c = w_p.
  const Mat3 k = -skew(armParent_ - armChild_);
  const Mat3 upperRight = x.topLeftCorner<3, 3>() * k + x.topRightCorner<3, 3>();
  parentPivot.topLeftCorner<3, 3>() += x.topLeftCorner<3, 3>();
  parentPivot.topRightCorner<3, 3>() += upperRight;
  parentPivot.bottomLeftCorner<3, 3>() += upperRight.transpose();
  parentPivot.bottomRightCorner<3, 3>() +=
      k.transpose() * upperRight + x.bottomLeftCorner<3, 3>() * k + x.bottomRightCorner<3, 3>();
  return true;
}

HingeElimination::Vec6 HingeElimination::balancedResidual(const Vec6& yBody, const Vec6& yRows,
                                                          Vec6* x) const {
  // A particular solution of J_c x0 = -yRows, then the free motion that balances the child:
  // x = x0 + s t with s^T (D_c x - yBody) = 0.
  const Vec3 angular = -sign_ * (yRows(3) * tangent1_ + yRows(4) * tangent2_);
  const Vec3 linear = -sign_ * yRows.head<3>() - angular.cross(armChild_);
  Vec6 x0;
  x0.head<3>() = linear;
  x0.tail<3>() = angular;
  const Vec6 pivotX0 = childPivot_ * x0;
  const double turn = freeMotion_.dot(yBody - pivotX0) * inverseFreePivot_;
  if (x) *x = x0 + turn * freeMotion_;
  return pivotX0 + turn * pivotFreeMotion_ - yBody;  // D_c x - yBody
}

void HingeElimination::solve(const Vec6& yBody, const Vec6& yRows, Vec6& x, Vec6& impulse) const {
  // D_c x - yBody = J_c^T p = sign [p_lin; r_c x p_lin + t1 p_3 + t2 p_4].
  const Vec6 residual = balancedResidual(yBody, yRows, &x);
  const Vec3 pointImpulse = sign_ * residual.head<3>();
  const Vec3 axisMoment = sign_ * residual.tail<3>() - armChild_.cross(pointImpulse);
  impulse.head<3>() = pointImpulse;
  impulse(3) = tangent1_.dot(axisMoment);
  impulse(4) = tangent2_.dot(axisMoment);
  impulse(5) = 0.0;
}

void HingeElimination::forward(const Vec6& yBody, const Vec6& yRows, Vec6& parentY) const {
  const Vec6 residual = balancedResidual(yBody, yRows, nullptr);
  // J_p^T p = -Phi^T J_c^T p = -Phi^T (D_c x - yBody), Phi^T = [I 0; [d]x I], d = r_p - r_c.
  parentY.head<3>() -= residual.head<3>();
  parentY.tail<3>() -= (armParent_ - armChild_).cross(residual.head<3>()) + residual.tail<3>();
}

void HingeElimination::addParentMotion(const Vec6& parentX, Vec6& yRows) const {
  const Vec3 linear = parentX.head<3>(), angular = parentX.tail<3>();
  yRows.head<3>() -= sign_ * (linear + angular.cross(armParent_));
  yRows(3) -= sign_ * tangent1_.dot(angular);
  yRows(4) -= sign_ * tangent2_.dot(angular);
}

}  // namespace impetus
