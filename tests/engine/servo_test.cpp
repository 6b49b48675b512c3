// A position servo closed by the drive's amplifier (DcMotor::setServo) against closed forms:
// its stiffness is r M_s kp, saturated it runs at the no-load speed, and at any gain it settles.
#include <gtest/gtest.h>

#include <cmath>

#include "block_desc.h"
#include "impetus/dynamics/world.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/scheme/scheme.h"

namespace impetus {
namespace {

/// A 2 kg m^2 disc on a vertical hinge (gravity along the axis) with a 200 W-class gearmotor.
struct ServoLink {
  World world;
  BodyId body;
  RevoluteJoint* hinge;
  DcMotor* motor;
  explicit ServoLink(double electricalTimeConstant = 0.0) {
    RigidBodyDesc d;
    d.name = "disc";
    d.mass = 10.0;
    d.inertia = Vec3(1.0, 1.0, 2.0).asDiagonal();
    body = world.addBody(d);
    hinge =
        &world.addJoint<RevoluteJoint>("hinge", World::kGround, body, Vec3::Zero(), Vec3::UnitZ());
    DcMotorParams p;
    p.stallTorque = 2.5;
    p.noLoadSpeed = 1571.0;
    p.timeConstant = 0.004;
    p.gearRatio = 160;
    p.electricalTimeConstant = electricalTimeConstant;
    motor = &world.addMotor("m", *hinge, p);
  }
  void step(int n, double loadTorque = 0.0) {
    for (int i = 0; i < n; ++i) {
      world.body(body).torque = Vec3(0, 0, loadTorque);
      ASSERT_TRUE(world.step(0.01).ok);
    }
  }
};

TEST(Servo, HoldsALoadWithTheStiffnessItsGainGives) {
  // At rest u = kp (0 - q) balances the load: r M_s kp (-q) + tau = 0. (A T_e of 0.3 ms is
  // neglected under servo control: the same stiffness.)
  for (const double te : {0.0, 0.0003}) {
    ServoLink link(te);
    const double kp = 30.0, load = 100.0;
    link.motor->setServo({0.0, 0.0, kp, 0.3});
    link.step(300, load);
    const double expected = load / (160 * 2.5 * kp);  // 8.3 mrad
    EXPECT_NEAR(link.hinge->position(), expected, 1e-3 * expected) << "T_e " << te;
    EXPECT_NEAR(link.hinge->rate(), 0.0, 1e-9);
  }
}

TEST(Servo, SaturatedItRunsAtTheNoLoadSpeed) {
  ServoLink link;
  link.motor->setServo({100.0, 0.0, 30.0, 0.3});  // far away: u = 1
  link.step(100);
  EXPECT_NEAR(link.hinge->rate(), 1571.0 / 160, 1e-6);
  EXPECT_DOUBLE_EQ(link.motor->voltage(), 1.0);
}

TEST(Servo, SettlesOnItsTargetAtGainsAnExplicitLoopCouldNotHold) {
  // kp w_0 dt / r = 1000 x 1571 x 0.01 / 160 ~ 98: an explicit 10 ms loop diverges at ~1. The
  // linear loop J q'' = r M_s (kp (q_ref - q) - (kd + r / w_0) q') with kd for critical damping
  // (J = I_L + r^2 I_m) approaches its target without overshoot; so must the step.
  const double r = 160, ms = 2.5, w0 = 1571.0, inertia = 2.0 + r * r * ms * 0.004 / w0;
  for (const double kp : {10.0, 1000.0}) {
    ServoLink link;
    const double kd = 2.0 * std::sqrt(r * ms * kp * inertia) / (r * ms) - r / w0;
    link.motor->setServo({0.2, 0.0, kp, kd});
    double peak = 0.0;
    for (int i = 0; i < 200; ++i) {
      link.step(1);
      peak = std::max(peak, link.hinge->position());
    }
    EXPECT_NEAR(link.hinge->position(), 0.2, 1e-6) << "kp " << kp;
    EXPECT_LT(peak, 0.2 * 1.001) << "kp " << kp;
  }
}

TEST(Servo, SqueezingTheBlockHoldsTheDrivesTorqueWhateverItsSpeed) {
  // The servo block's torque mode (a gripper closing on what it holds): the drive's torque is
  // squeeze r M_s = 0.1 x 160 x 2.5 = 40 N m, at rest and running. Against a 30 N m load the
  // disc (2 kg m^2, rotor I_m r^2 = 0.163 kg m^2) speeds up at 10 / 2.163 rad/s^2, as from a
  // torque source, not towards the speed where the back-EMF would have cut the torque; against
  // 40 N m it stays put.
  for (const double load : {-30.0, -40.0}) {
    ServoLink link;
    SchemeDesc desc;
    desc.blocks = {testing::block("constant", "zero", {{"value", "0"}}),
                   testing::block("constant", "squeeze", {{"value", "0.1"}}),
                   testing::block("servo", "servo", {{"motor", "m"}, {"kp", "30"}},
                                  {{"position", "zero"}, {"squeeze", "squeeze"}})};
    Scheme scheme = Scheme::compile(desc, link.world, {});
    for (int i = 0; i < 50; ++i) {
      scheme.step({}, 0.01);
      link.step(1, load);
    }
    const double inertia = 2.0 + 2.5 * 0.004 / 1571.0 * 160 * 160;
    const double expected = (40.0 + load) / inertia * 0.5;  // rad/s after 0.5 s
    if (load == -40.0) {
      EXPECT_NEAR(link.hinge->rate(), 0.0, 1e-4);
    } else {
      // The back-EMF term uses the rotor's speed at the step's start: while the disc speeds up
      // (its mechanical time constant, 53 ms, is five steps) the torque lags, 9 % here. Held by
      // the voltage alone (u = 0.1) it would creep at 0.245 rad/s.
      EXPECT_NEAR(link.hinge->rate(), expected, 0.12 * expected) << load;
    }
  }
}

TEST(Servo, BadCommandsAreRefused) {
  ServoLink link;
  EXPECT_THROW(link.motor->setServo({std::nan(""), 0.0, 1.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(link.motor->setServo({0.0, 0.0, -1.0, 0.0}), std::invalid_argument);
  link.motor->setServo({0.0, 0.0, 1.0, 0.0});
  link.motor->setVoltage(0.5);
  EXPECT_FALSE(link.motor->servoActive());
}

}  // namespace
}  // namespace impetus
