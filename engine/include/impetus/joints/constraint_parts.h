#pragma once
// Reusable row builders ("constraint parts", after Jolt's ConstraintPart/) from which every joint
// is assembled. Conventions: A is the parent, B the child; r_A, r_B are the anchor arms from each
// centre of mass; all vectors are world frame. Each part states C, Cdot = J v, and J.

#include "impetus/joints/joint.h"

namespace impetus::parts {

/// Ball-socket: C = p_B - p_A (3 rows, one block).
///   J_k = [-e_k, -(r_A x e_k), e_k, r_B x e_k]
void point(const JointBuildContext& ctx, const JointPose& pose, int a, int b, RowBuffer& rows);

/// point's C = p_B - p_A (m).
Vec3 pointError(const JointPose& pose);

/// Relative rotation locked: C = rotation vector of q_B q_A^-1 (3 rows, one block).
///   J_k = [0, -e_k, 0, e_k]
void angularLock(const JointBuildContext& ctx, const JointPose& pose, int a, int b,
                 RowBuffer& rows);

/// Joint x axes kept parallel (hinge): C_i = t_i . (x_A x x_B), t = y_A, z_A (2 rows, one block).
///   Cdot ~= t_i . (w_B - w_A),  J_i = [0, -t_i, 0, t_i]
void axisAlignment(const JointBuildContext& ctx, const JointPose& pose, int a, int b,
                   RowBuffer& rows);

/// axisAlignment's C (rad).
Eigen::Vector2d axisAlignmentError(const JointPose& pose);

/// How far coordinate q is past a limit's stops (rad or m; 0 within them).
double limitViolation(const JointLimit& limit, double q);

/// Anchors may separate only along x_A: C_i = t_i . d, d = p_B - p_A, t = y_A, z_A (2 rows).
///   J_i = [-t_i, -(r_A + d) x t_i, t_i, r_B x t_i]   (t_i turns with A)
void perpendicularSlide(const JointBuildContext& ctx, const JointPose& pose, int a, int b,
                        RowBuffer& rows);

/// Universal joint cross: C = x_A . y_B (1 row); J = [0, -(y_B x x_A), 0, (y_B x x_A)].
void perpendicularAxes(const JointBuildContext& ctx, const JointPose& pose, int a, int b,
                       RowBuffer& rows);

/// One row on the relative angular velocity about n: Cdot = n . (w_B - w_A). Returns its index.
int angularAxis(RowBuffer& rows, BlockKind kind, int a, int b, const Vec3& n);

/// One row on the relative anchor velocity along d (d turns with A):
///   Cdot = d . (v_B + w_B x r_B - v_A - w_A x (r_A + sep)),  sep = p_B - p_A. Returns its index.
int linearAxis(RowBuffer& rows, BlockKind kind, int a, int b, const JointPose& pose, const Vec3& d);

/// Lower and upper limit rows for coordinate q with rate J v (row built by `makeRow`, which must
/// return a Bounded row index with Cdot = +qdot). Speculative in the velocity phase: the row only
/// acts if the limit would be crossed within this step. Returns the lower row's index.
template <class MakeRow>
int limitRows(const JointBuildContext& ctx, const JointLimit& limit, double q, RowBuffer& rows,
              MakeRow makeRow);

/// Makes row `index` a Coulomb friction row: |p| <= maxImpulse (F_max dt, seed 000 eq. 9).
void frictionRow(RowBuffer& rows, int index, double maxImpulse);

/// Makes row `index` viscous damping: p = -c dt (J v), implicit (J v + p / (c dt) = 0).
void dampingRow(RowBuffer& rows, int index, double coefficient, double dt);

/// Makes row `index` the implicit spring-damper f = -k C - c Cdot over a step dt (C(t + dt) ~
/// C + dt J v): J v + p / (dt (c + dt k)) = -k C / (c + dt k). Its deflection C is the spring's,
/// not an error to project away (correction 0).
void springRow(RowBuffer& rows, int index, double stiffness, double damping, double deflection,
               double dt);

/// Displacement of B's anchor from A's along A's joint x axis (m): sliding joints' coordinate.
double slideCoordinate(const JointPose& pose);
/// Its rate (m/s), the x axis turning with A.
double slideRate(const JointPose& pose, const RigidBody& a, const RigidBody& b);

/// Flips a row's Jacobian (upper limits push the other way).
void negateRow(ConstraintRow& row);

}  // namespace impetus::parts

#include "impetus/joints/constraint_parts_impl.h"
