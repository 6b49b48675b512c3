// The assisted two-hand wheel turn (seed 002's valve task): the wheel from the hands' grasp
// points, both hands orbiting it, and the regrasp sequence at the ends of their reach.
#include "scheme/blocks/arm/wheel_turn.h"

#include <gtest/gtest.h>

#include <cmath>

#include "impetus/session/state_stream.h"

namespace impetus::arm {
namespace {

constexpr double kDt = 0.01;
const Vec3 kLeft(0.55, 0.2, 0.32), kRight(0.55, -0.2, 0.32);  // grasps on a 0.2 m rim

TEST(WheelTurn, TakesTheWheelFromTheGraspsAndTurnsBothHandsAboutItsAxis) {
  WheelTurnParams p;
  WheelTurn turn(p);
  // Closing: no turn before the grippers have had close_time, whatever the command.
  for (int k = 0; k < 39; ++k) {
    const WheelTurnCommand& c = turn.step(1.0, true, kLeft, kRight, kDt);
    EXPECT_EQ(c.phase, WheelTurnPhase::Idle);
    EXPECT_TRUE(c.grip[0] && c.grip[1]);
  }
  const WheelTurnCommand& c = turn.step(1.0, true, kLeft, kRight, kDt);
  ASSERT_EQ(c.phase, WheelTurnPhase::Holding);
  EXPECT_TRUE(c.centre.isApprox(Vec3(0.55, 0.0, 0.32), 1e-12));
  // Opening is counter-clockwise as the robot sees it: about the axis pointing back at it.
  EXPECT_TRUE(c.orbit[0].isApprox(Vec3(-p.rate, 0, 0), 1e-12));
  EXPECT_TRUE(c.orbit[1].isApprox(c.orbit[0], 1e-12));
  EXPECT_NEAR(c.angle, p.rate * kDt, 1e-12);
  // Half a command, closing: half the rate, the other way.
  const WheelTurnCommand& d = turn.step(-0.5, true, kLeft, kRight, kDt);
  EXPECT_TRUE(d.orbit[0].isApprox(Vec3(0.5 * p.rate, 0, 0), 1e-12));
  EXPECT_NEAR(d.angle, 0.5 * p.rate * kDt, 1e-12);
  // Let go: both open and the wheel is forgotten.
  const WheelTurnCommand& e = turn.step(1.0, false, kLeft, kRight, kDt);
  EXPECT_EQ(e.phase, WheelTurnPhase::Idle);
  EXPECT_FALSE(e.grip[0] || e.grip[1]);
  EXPECT_EQ(e.orbit[0], Vec3::Zero());
}

TEST(WheelTurn, RegraspsOneHandAtATimeAtTheEndOfTheSpanAndTurnsOn) {
  WheelTurnParams p;
  WheelTurn turn(p);
  double leftTravel = 0.0, rightTravel = 0.0;  // each hand's orbit along the rim (rad)
  double openLeft = 0.0, openRight = 0.0;      // time each gripper was open (s)
  bool bothOpen = false, turnedWhileRegrasping = false;
  WheelTurnCommand c;
  // At full opening command through two regrasps and 0.5 s of turning after the second.
  int regrasps = 0, steps = 0, after = 0;
  for (; after < 50; ++steps) {
    const WheelTurnPhase before = c.phase;
    c = turn.step(1.0, true, kLeft, kRight, kDt);
    if (before == WheelTurnPhase::RegraspRight && c.phase == WheelTurnPhase::Holding) ++regrasps;
    if (regrasps == 2) ++after;
    leftTravel += -c.orbit[0].x() * kDt;
    rightTravel += -c.orbit[1].x() * kDt;
    openLeft += c.grip[0] ? 0.0 : kDt;
    openRight += c.grip[1] ? 0.0 : kDt;
    bothOpen = bothOpen || (!c.grip[0] && !c.grip[1]);
    const bool regrasping =
        c.phase == WheelTurnPhase::RegraspLeft || c.phase == WheelTurnPhase::RegraspRight;
    // While one hand regrasps the other holds the wheel still; an open hand never drives it.
    if (regrasping)
      turnedWhileRegrasping |= c.orbit[0] != Vec3::Zero() && c.orbit[1] != Vec3::Zero();
  }
  EXPECT_FALSE(bothOpen);
  EXPECT_FALSE(turnedWhileRegrasping);
  // Each hand's travel is the wheel's angle less whole returns of 2 span (from one end of its
  // span to the other), and the hands are at most one return apart.
  const double leftReturns = (c.angle - leftTravel) / (2.0 * p.span);
  const double rightReturns = (c.angle - rightTravel) / (2.0 * p.span);
  EXPECT_NEAR(leftReturns, std::round(leftReturns), 1e-9);
  EXPECT_NEAR(rightReturns, std::round(rightReturns), 1e-9);
  EXPECT_EQ(std::round(leftReturns), 2.0);
  EXPECT_EQ(std::round(rightReturns), 2.0);
  // A gripper is open while it lets go and goes back: 0.3 s + 1.2 rad at 0.5 rad/s a return.
  const double openPerReturn = p.openTime + 2.0 * p.span / p.returnRate;
  EXPECT_NEAR(openRight, std::round(rightReturns) * openPerReturn, 0.05);
  EXPECT_NEAR(openLeft, openRight, 1e-9);
  // The rest of the time turned the wheel at 0.4 rad/s: 0.6 rad, 1.2 rad, then 0.5 s.
  EXPECT_NEAR(c.angle, 3.0 * p.span + 0.5 * p.rate, p.rate * kDt + 1e-9);  // a step is the handover
  const double regrasp = 2.0 * (openPerReturn + p.closeTime);
  EXPECT_NEAR(steps * kDt, p.closeTime + c.angle / p.rate + 2.0 * regrasp, 0.05);
}

TEST(WheelTurn, ResumesFromItsSavedStateMidRegraspExactly) {
  WheelTurnParams p;
  WheelTurn a(p), b(p);
  for (int k = 0; k < 260; ++k) a.step(1.0, true, kLeft, kRight, kDt);  // in the first regrasp
  StateWriter out;
  a.saveState(out);
  StateReader in(out.bytes());
  b.loadState(in);
  for (int k = 0; k < 500; ++k) {
    const WheelTurnCommand ca = a.step(1.0, true, kLeft, kRight, kDt);
    const WheelTurnCommand cb = b.step(1.0, true, kLeft, kRight, kDt);
    ASSERT_EQ(ca.phase, cb.phase) << k;
    ASSERT_EQ(ca.orbit[0], cb.orbit[0]) << k;
    ASSERT_EQ(ca.orbit[1], cb.orbit[1]) << k;
    ASSERT_EQ(ca.grip, cb.grip) << k;
    ASSERT_EQ(ca.angle, cb.angle) << k;
  }
}

}  // namespace
}  // namespace impetus::arm
