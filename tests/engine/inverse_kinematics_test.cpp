// Inverse kinematics of a 6-DOF arm: random reachable targets, unreachable ones, joint ranges.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "impetus/tree/inverse_kinematics.h"

namespace impetus::tree {
namespace {

constexpr double kPi = std::numbers::pi;

/// An anthropomorphic 6-DOF arm (waist yaw, shoulder and elbow pitch, wrist roll-pitch-roll) with
/// 0.4 + 0.35 m links and a 0.1 m tool, joint ranges like an industrial arm's. Max reach from the
/// shoulder: 0.85 m.
KinematicTree sixDofArm() {
  KinematicTree t;
  const auto add = [&](const char* name, const Vec3& axis, const Vec3& offset, double range) {
    TreeLink l;
    l.name = name;
    l.parent = t.size() - 1;
    l.axis = axis;
    l.placementOffset = offset;
    l.mass = 1.0;
    l.inertia = 0.01 * Mat3::Identity();
    l.lower = -range;
    l.upper = range;
    return t.addLink(l);
  };
  add("waist", Vec3::UnitZ(), Vec3(0, 0, 0.3), 170 * kPi / 180);
  add("shoulder", Vec3::UnitY(), Vec3(0, 0, 0.1), 120 * kPi / 180);
  add("elbow", Vec3::UnitY(), Vec3(0.4, 0, 0), 150 * kPi / 180);
  add("wrist_roll", Vec3::UnitX(), Vec3(0.2, 0, 0), 170 * kPi / 180);
  add("wrist_pitch", Vec3::UnitY(), Vec3(0.15, 0, 0), 120 * kPi / 180);
  add("tool_roll", Vec3::UnitX(), Vec3(0.05, 0, 0), 170 * kPi / 180);
  return t;
}

const Vec3 kTool(0.05, 0, 0);  // the tool tip in the last link's frame: 0.1 m past the wrist

VectorX home() {
  VectorX q(6);
  q << 0, 0.3, -0.6, 0, 0.3, 0;
  return q;
}

TEST(InverseKinematics, ReachesRandomReachableTargetsWithinAMillimetreIn50Iterations) {
  const KinematicTree arm = sixDofArm();
  InverseKinematics ik(arm, 5, kTool);
  TreeKinematics fk(arm);
  std::mt19937 rng(11);
  int reached = 0, worstIterations = 0;
  double worstError = 0.0;
  for (int trial = 0; trial < 100; ++trial) {
    VectorX goal(6);
    for (int j = 0; j < 6; ++j)
      goal[j] = std::uniform_real_distribution<double>(arm.link(j).lower, arm.link(j).upper)(rng);
    fk.updatePositions(goal);
    const Vec3 target = fk.pointPosition(5, kTool);
    VectorX q = home();
    const IkResult r = ik.solve(q, target);
    reached += r.reached ? 1 : 0;
    worstIterations = std::max(worstIterations, r.iterations);
    worstError = std::max(worstError, r.positionError);
    for (int j = 0; j < 6; ++j) {
      EXPECT_GE(q[j], arm.link(j).lower);
      EXPECT_LE(q[j], arm.link(j).upper);
    }
    EXPECT_LT((ik.tipPosition(q) - target).norm(), 1e-3) << "trial " << trial;
  }
  RecordProperty("worst_iterations", worstIterations);
  EXPECT_EQ(reached, 100);
  EXPECT_LE(worstIterations, 50);
  EXPECT_LT(worstError, 1e-3);
}

TEST(InverseKinematics, ReachesFullPosesOfTheToolToo) {
  const KinematicTree arm = sixDofArm();
  InverseKinematics ik(arm, 5, kTool);
  TreeKinematics fk(arm);
  std::mt19937 rng(5);
  int reached = 0;
  for (int trial = 0; trial < 100; ++trial) {
    VectorX goal = home();
    // Poses near the working posture (a teleoperator's small Cartesian moves and turns).
    for (int j = 0; j < 6; ++j) goal[j] += std::uniform_real_distribution<double>(-0.6, 0.6)(rng);
    fk.updatePositions(goal);
    const Vec3 target = fk.pointPosition(5, kTool);
    const Mat3 orientation = fk.link(5).rotation;
    VectorX q = home();
    const IkResult r = ik.solve(q, target, &orientation);
    if (r.reached) {
      ++reached;
      EXPECT_LT(r.positionError, 1e-4);
      EXPECT_LT(r.orientationError, 1e-3);
    }
  }
  RecordProperty("pose_targets_reached", reached);
  EXPECT_GE(reached, 95);
}

TEST(InverseKinematics, UnreachableTargetEndsAtTheClosestPointWithoutNan) {
  const KinematicTree arm = sixDofArm();
  InverseKinematics ik(arm, 5, kTool);
  const Vec3 shoulder(0, 0, 0.4);
  for (const Vec3& target : {Vec3(3.0, 1.0, 0.4), Vec3(0.0, -2.0, 2.0), Vec3(1e6, 0, 0)}) {
    VectorX q = home();
    const IkResult r = ik.solve(q, target);
    EXPECT_FALSE(r.reached);
    EXPECT_TRUE(q.allFinite());
    const Vec3 tip = ik.tipPosition(q);
    // Stretched towards the target: the tip is at full reach on the line shoulder -> target.
    EXPECT_NEAR((tip - shoulder).norm(), 0.85, 0.01);
    EXPECT_NEAR(r.positionError, (target - shoulder).norm() - 0.85, 0.01);
  }
  // A target on the arm's own axis of symmetry (the waist axis) is a singular direction; still no
  // NaN, and the tip gets as close as the range allows.
  VectorX q = home();
  const IkResult r = ik.solve(q, Vec3(0, 0, 0.2));
  EXPECT_TRUE(q.allFinite());
  EXPECT_TRUE(std::isfinite(r.positionError));
}

TEST(InverseKinematics, RespectsJointRangesAndChosenJoints) {
  const KinematicTree arm = sixDofArm();
  // Only the waist may move: the tip swings on a circle, reaching the nearest point of it.
  InverseKinematics waistOnly(arm, 5, kTool, {0});
  VectorX q = home();
  const Vec3 start = waistOnly.tipPosition(q);
  const double radius = start.head<2>().norm();
  const IkResult r = waistOnly.solve(q, Vec3(0, radius, start.z()));
  EXPECT_TRUE(r.reached);
  EXPECT_NEAR(q[0], kPi / 2, 1e-4);
  for (int j = 1; j < 6; ++j) EXPECT_EQ(q[j], home()[j]);
  // Behind the arm, past the waist's 170 degrees: it stops at the limit.
  q = home();
  waistOnly.solve(q, Vec3(-radius, -0.01, start.z()));
  EXPECT_NEAR(std::abs(q[0]), 170 * kPi / 180, 1e-12);
  EXPECT_THROW(InverseKinematics(arm, 2, kTool, {4}), std::invalid_argument);
}

TEST(InverseKinematics, APostureTurnsTheRedundantJointsWithoutMovingTheTip) {
  // A point target leaves the 6-DOF arm three redundant DOF: the wrist may roll while the tip
  // stays put. Solved again and again at the same target (as a teleoperation block does each
  // step), the wrist roll goes to the posture's; without one it stays where it is.
  const KinematicTree arm = sixDofArm();
  InverseKinematics ik(arm, 5, kTool);
  VectorX posture = home();
  posture[3] = 1.0;
  IkOptions options;
  options.posture = &posture;
  options.postureGain = 0.2;
  VectorX q = home();
  const Vec3 target = ik.tipPosition(q);
  for (int solve = 0; solve < 400; ++solve) {
    const IkResult r = ik.solve(q, target, nullptr, options);
    ASSERT_TRUE(r.reached) << "solve " << solve;
    ASSERT_LT((ik.tipPosition(q) - target).norm(), options.positionTolerance);
  }
  EXPECT_NEAR(q[3], 1.0, 0.01);
  VectorX still = home();
  ik.solve(still, target);
  EXPECT_EQ(still[3], 0.0);
}

}  // namespace
}  // namespace impetus::tree
