// HingeElimination against the one-by-one elimination it replaces in the EqualityTree, on the
// rows the joint parts build for a hinge at a generic pose (tilted axis, unequal arms, a small
// anchor gap, the child on either side of the rows).
#include <gtest/gtest.h>

#include <vector>

#include "impetus/dynamics/rigid_body.h"
#include "impetus/joints/constraint_parts.h"
#include "impetus/solver/hinge_elimination.h"
#include "impetus/solver/row_buffer.h"

namespace impetus {
namespace {

using Mat6 = HingeElimination::Mat6;
using Vec6 = HingeElimination::Vec6;
using Jacobian = Eigen::Matrix<double, 5, 6>;

struct Hinge {
  RowBuffer buffer;
  const ConstraintRow* rows[5];
  Jacobian sideA, sideB;  ///< the rows' Jacobians on body A and on body B
};

void buildHinge(bool positionPhase, Hinge& h) {
  JointPose pose;
  const Quat frame = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized()));
  pose.frameA = frame.toRotationMatrix();
  pose.frameB = (frame * Quat(Eigen::AngleAxisd(0.01, Vec3::UnitY()))).toRotationMatrix();
  pose.orientationA = frame;
  pose.orientationB = frame;
  pose.anchorA = Vec3(0.3, -0.2, 1.1);
  pose.anchorB = pose.anchorA + Vec3(2e-4, -1e-4, 3e-4);
  pose.armA = Vec3(0.12, -0.05, 0.2);
  pose.armB = Vec3(-0.3, 0.07, 0.02);
  const std::vector<RigidBody> bodies(3);  // at rest (the velocity phase reads their spin)
  JointBuildContext ctx;
  ctx.bodies = bodies;
  ctx.positionPhase = positionPhase;
  parts::point(ctx, pose, 1, 2, h.buffer);
  parts::axisAlignment(ctx, pose, 1, 2, h.buffer);
  h.buffer.mergeLastBlocks(2, BlockKind::Equality);
  ASSERT_EQ(h.buffer.lastBlock().shape, RowShape::Hinge);
  for (int k = 0; k < 5; ++k) {
    const ConstraintRow& r = h.buffer.rows()[static_cast<size_t>(k)];
    h.rows[k] = &r;
    h.sideA.row(k) << r.linearA.transpose(), r.angularA.transpose();
    h.sideB.row(k) << r.linearB.transpose(), r.angularB.transpose();
  }
}

/// A body's pivot as the tree has it: its mass matrix plus what its own children added.
Mat6 childPivot() {
  Mat6 d = Mat6::Zero();
  d.topLeftCorner<3, 3>().diagonal().setConstant(2.5);
  const Mat3 rotation = Quat(Eigen::AngleAxisd(0.4, Vec3(0.3, -1, 0.2).normalized())).matrix();
  d.bottomRightCorner<3, 3>() =
      rotation * Vec3(0.02, 0.05, 0.04).asDiagonal() * rotation.transpose();
  Eigen::Matrix<double, 6, 3> children;
  children << 0.3, 0.1, -0.2, 0.0, 0.4, 0.1, -0.1, 0.2, 0.5, 0.02, -0.03, 0.01, 0.05, 0.0, -0.02,
      -0.01, 0.04, 0.03;
  return d + children * children.transpose();
}

TEST(HingeElimination, AddsToTheParentWhatEliminatingBodyThenHingeAdds) {
  // D_p += J_p^T (J_c D_c^-1 J_c^T)^-1 J_p, computed without the two inverses. Rounding alone
  // separates them: the 5 x 5 pivot's condition here is ~1e3, so 1e-10 of the norm.
  for (const bool childIsSideB : {true, false}) {
    Hinge h;
    buildHinge(false, h);
    const Jacobian& jc = childIsSideB ? h.sideB : h.sideA;
    const Jacobian& jp = childIsSideB ? h.sideA : h.sideB;
    const Mat6 d = childPivot();
    const Mat6 expected = jp.transpose() * (jc * d.inverse() * jc.transpose()).inverse() * jp;
    HingeElimination pair;
    pair.read(h.rows, childIsSideB);
    Mat6 parentPivot = Mat6::Identity();
    ASSERT_TRUE(pair.eliminate(d, parentPivot));
    EXPECT_LT((parentPivot - Mat6::Identity() - expected).norm(), 1e-10 * expected.norm())
        << "child on side " << (childIsSideB ? "B" : "A");
  }
}

TEST(HingeElimination, SolvesThePairsEquationsAndPushesTheParentsShare) {
  // D_c x - J_c^T p = yBody and -J_c x - J_p x_p = yRows: with the parent at rest (forward
  // sweep, push J_p^T p) and with the parent's motion known (backward sweep).
  for (const bool positionPhase : {false, true}) {
    for (const bool childIsSideB : {true, false}) {
      Hinge h;
      buildHinge(positionPhase, h);
      const Jacobian& jc = childIsSideB ? h.sideB : h.sideA;
      const Jacobian& jp = childIsSideB ? h.sideA : h.sideB;
      const Mat6 d = childPivot();
      HingeElimination pair;
      pair.read(h.rows, childIsSideB);
      Mat6 parentPivot = Mat6::Zero();
      ASSERT_TRUE(pair.eliminate(d, parentPivot));
      Vec6 yBody, yRows, parentX;
      yBody << 0.3, -1.2, 0.5, 0.02, -0.07, 0.04;
      yRows << 0.01, 0.2, -0.05, 0.003, -0.004, 0.0;
      parentX << -0.2, 0.1, 0.4, 0.5, -0.3, 0.2;

      Vec6 x, p;
      pair.solve(yBody, yRows, x, p);
      EXPECT_LT((d * x - jc.transpose() * p.head<5>() - yBody).norm(), 1e-12);
      EXPECT_LT((-jc * x - yRows.head<5>()).norm(), 1e-12);
      EXPECT_EQ(p(5), 0.0);
      Vec6 parentY = Vec6::Zero();
      pair.forward(yBody, yRows, parentY);
      EXPECT_LT((parentY - jp.transpose() * p.head<5>()).norm(), 1e-12);

      Vec6 movedRows = yRows;
      pair.addParentMotion(parentX, movedRows);
      pair.solve(yBody, movedRows, x, p);
      EXPECT_LT((d * x - jc.transpose() * p.head<5>() - yBody).norm(), 1e-12);
      EXPECT_LT((-jc * x - jp * parentX - yRows.head<5>()).norm(), 1e-12);
    }
  }
}

}  // namespace
}  // namespace impetus
