// DC gearmotors from datasheet parameters, gears and repeaters (seed 001), against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/joints/fixed_joint.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/scenes/hinge_chain.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;
constexpr double kRpm = 2 * std::numbers::pi / 60;

/// The seed 001 gearmotor WG-7152: r = 50, M_s = 0.2 N m, w_0 = 49 rpm, b = 0.
DcMotorParams wg7152(double timeConstant) {
  DcMotorParams p;
  p.stallTorque = 0.2;
  p.noLoadSpeed = 49 * kRpm;
  p.timeConstant = timeConstant;
  p.gearRatio = 50;
  return p;
}

/// Seed 001's single link: a disc of inertia I_L = 30.833 kg m^2 about a vertical hinge through
/// its centre (gravity along the axis), driven by one motor.
struct Link {
  World world;
  BodyId body;
  RevoluteJoint* hinge;
  DcMotor* motor;
  explicit Link(const DcMotorParams& params, double loadInertia = 30.833) {
    RigidBodyDesc d;
    d.name = "link";
    d.mass = 20.0;
    d.inertia = Vec3(loadInertia / 2, loadInertia / 2, loadInertia).asDiagonal();
    body = world.addBody(d);
    hinge = &world.addJoint<RevoluteJoint>("shoulder", World::kGround, body, Vec3::Zero(),
                                           Vec3::UnitZ());
    motor = &world.addMotor("m", *hinge, params);
  }
};

/// Seed 001 eq. 8 with b = 0: T = (I_L + r^2 I_m) w_0 / (r^2 M_s).
double seedTimeConstant(const DcMotorParams& p, double loadInertia) {
  const double r = p.gearRatio;
  return (loadInertia + r * r * p.effectiveRotorInertia()) * p.noLoadSpeed /
         (r * r * p.stallTorque);
}

TEST(DcMotor, Seed001LinkRateMatchesTheClosedFormToMicroRadiansPerSecond) {
  for (const double tm : {1.0, 0.5}) {
    const DcMotorParams params = wg7152(tm);
    Link link(params);
    link.motor->setVoltage(1.0);
    const double wMax = params.noLoadSpeed / params.gearRatio;  // 0.1026 rad/s
    const double T = seedTimeConstant(params, 30.833);
    EXPECT_NEAR(T, 0.3164 + tm, 1e-3);  // the seed's numbers
    double worst = 0.0;
    for (int i = 0; i < 1000; ++i) {
      ASSERT_TRUE(link.world.step(kDt).ok);
      const double t = link.world.time();
      worst = std::max(worst, std::abs(link.hinge->rate() - wMax * (1 - std::exp(-t / T))));
    }
    EXPECT_LT(worst, 1e-6) << "t_m = " << tm;
    std::printf("seed 001, t_m = %.1f s: worst |w_L - closed form| over 10 s = %.2e rad/s\n", tm,
                worst);
    // Rotor and link stay geared: w_m = r w_L.
    EXPECT_NEAR(link.motor->speed(), params.gearRatio * link.hinge->rate(), 1e-9);
  }
}

TEST(DcMotor, StallTorqueIsRTimesMsAndScalesWithVoltage) {
  for (const double u : {1.0, 0.5}) {
    const DcMotorParams params = wg7152(1.0);
    Link link(params);
    // Hold the link: weld it to the ground as well.
    link.world.addJoint<FixedJoint>("clamp", World::kGround, link.body, Vec3(0.5, 0, 0),
                                    Vec3::UnitX());
    link.motor->setVoltage(u);
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(link.world.step(kDt).ok);
    const double expected = params.gearRatio * params.stallTorque * u;  // 10 N m at u = 1
    EXPECT_NEAR(link.hinge->generalizedForce(), expected, 1e-3 * expected) << "u = " << u;
    EXPECT_NEAR(link.motor->torque(), params.stallTorque * u, 1e-3 * params.stallTorque * u);
    EXPECT_NEAR(link.motor->current(), u, 1e-3);  // in stall-current units
  }
}

TEST(DcMotor, NoLoadSpeedAndViscousEquilibriumOfEq8) {
  DcMotorParams params = wg7152(0.5);
  Link free(params, 0.5);
  free.motor->setVoltage(0.6);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(free.world.step(kDt).ok);
  EXPECT_NEAR(free.hinge->rate(), 0.6 * params.noLoadSpeed / params.gearRatio, 1e-9);

  params.viscousFriction = 2.0;  // N m s/rad on the load
  Link damped(params, 0.5);
  damped.motor->setVoltage(1.0);
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(damped.world.step(kDt).ok);
  // Eq. 8 at rest in acceleration: r M_s (u - r w / w_0) = b w.
  const double r = params.gearRatio, ms = params.stallTorque, w0 = params.noLoadSpeed;
  const double equilibrium = r * ms / (r * r * ms / w0 + params.viscousFriction);
  EXPECT_NEAR(damped.hinge->rate(), equilibrium, 1e-9);
}

TEST(DcMotor, ArmatureInductanceGivesTheSecondOrderStepResponse) {
  // Rotor side: I_eff w' = tau, T_e tau' + tau = M_s (u - w / w_0) (seed 002 eq. 17).
  DcMotorParams params = wg7152(1.0);
  params.electricalTimeConstant = 0.2;
  Link link(params);
  link.motor->setVoltage(1.0);
  const double r = params.gearRatio;
  const double inertia = params.effectiveRotorInertia() + 30.833 / (r * r);
  const double a = inertia * params.electricalTimeConstant, b = inertia,
               c = params.stallTorque / params.noLoadSpeed;
  const std::complex<double> root = std::sqrt(std::complex<double>(b * b - 4 * a * c));
  const std::complex<double> s1 = (-b + root) / (2 * a), s2 = (-b - root) / (2 * a);
  const double wInf = params.noLoadSpeed / r;  // link side
  double worst = 0.0;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(link.world.step(kDt).ok);
    const double t = link.world.time();
    const double closed =
        wInf * (1.0 + ((s2 * std::exp(s1 * t) - s1 * std::exp(s2 * t)) / (s1 - s2)).real());
    worst = std::max(worst, std::abs(link.hinge->rate() - closed));
  }
  EXPECT_LT(worst, 0.01 * wInf);
  std::printf("T_e = 0.2 s step response: worst error %.2e rad/s (%.3f %% of w_inf)\n", worst,
              100 * worst / wInf);
}

TEST(DcMotor, ReversalFollowsTheClosedFormThroughZero) {
  const DcMotorParams params = wg7152(0.5);
  Link link(params);
  link.motor->setVoltage(1.0);
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(link.world.step(kDt).ok);
  const double ws = link.hinge->rate(), ts = link.world.time();
  const double wInf = params.noLoadSpeed / params.gearRatio;
  const double T = seedTimeConstant(params, 30.833);
  link.motor->setVoltage(-1.0);
  double worst = 0.0, lowest = 0.0;
  for (int i = 0; i < 700; ++i) {
    ASSERT_TRUE(link.world.step(kDt).ok);
    const double closed = -wInf + (ws + wInf) * std::exp(-(link.world.time() - ts) / T);
    worst = std::max(worst, std::abs(link.hinge->rate() - closed));
    lowest = std::min(lowest, link.hinge->rate());
  }
  EXPECT_LT(worst, 1e-6);
  EXPECT_GE(lowest, -wInf - 1e-9);  // approaches -w_inf from above: no overshoot
}

TEST(DcMotor, VoltageIsClampedAndNaNRejected) {
  Link link(wg7152(1.0));
  link.motor->setVoltage(3.0);
  EXPECT_EQ(link.motor->voltage(), 1.0);
  link.motor->setVoltage(-7.0);
  EXPECT_EQ(link.motor->voltage(), -1.0);
  EXPECT_THROW(link.motor->setVoltage(std::nan("")), std::invalid_argument);
  DcMotorParams bad = wg7152(0.0);  // no rotor inertia and no time constant
  EXPECT_THROW(link.world.addMotor("bad", *link.hinge, bad), std::invalid_argument);
}

TEST(DcMotor, HoldingBrakeHoldsBelowItsTorqueAndSlipsAbove) {
  DcMotorParams params = wg7152(1.0);
  params.brakeTorque = 0.05;  // N m on the rotor: 2.5 N m at the joint
  Link link(params, 2.0);
  link.motor->setBrake(true);
  for (int i = 0; i < 100; ++i) {
    link.world.body(link.body).torque = Vec3(0, 0, 2.0);  // below r * brake
    ASSERT_TRUE(link.world.step(kDt).ok);
  }
  EXPECT_LT(std::abs(link.hinge->rate()), 1e-9);
  const double applied = 4.0;  // above r * brake = 2.5 N m: slips
  for (int i = 0; i < 100; ++i) {
    link.world.body(link.body).torque = Vec3(0, 0, applied);
    ASSERT_TRUE(link.world.step(kDt).ok);
  }
  // Slipping, the joint sees the applied torque less the brake's r T_b and the idle motor's
  // back-EMF damping r^2 M_s / w_0, with the rotor's reflected inertia: a first-order response.
  const double r = params.gearRatio;
  const double damping = r * r * params.stallTorque / params.noLoadSpeed;
  const double inertia = 2.0 + r * r * params.effectiveRotorInertia();
  const double steady = (applied - r * params.brakeTorque) / damping;
  EXPECT_NEAR(link.hinge->rate(), steady * (1 - std::exp(-1.0 * damping / inertia)), 0.01 * steady);
}

/// Two 0.2 kg jaws hinged about +z on `palm` at (hingeX, +-0.05, 0), reaching 0.1 m ahead; one
/// gearmotor drives jaw 1 and jaw 2 repeats it with k = -1, so the jaws mirror each other.
struct TwoJawGripper {
  RevoluteJoint* hinge1 = nullptr;
  RevoluteJoint* hinge2 = nullptr;
  DcMotorParams params;
};
TwoJawGripper addTwoJawGripper(World& world, BodyId palm, double hingeX) {
  RigidBodyDesc d;
  d.mass = 0.2;
  d.inertia = scenes::boxInertia(0.2, Vec3(0.1, 0.01, 0.02));
  TwoJawGripper g;
  RevoluteJoint** hinges[2] = {&g.hinge1, &g.hinge2};
  for (int k = 0; k < 2; ++k) {
    const double y = k == 0 ? 0.05 : -0.05;
    d.name = k == 0 ? "jaw1" : "jaw2";
    d.position = Vec3(hingeX + 0.05, y, 0);
    const BodyId jaw = world.addBody(d);
    *hinges[k] =
        &world.addJoint<RevoluteJoint>(d.name, palm, jaw, Vec3(hingeX, y, 0), Vec3::UnitZ());
  }
  g.params.stallTorque = 0.02;
  g.params.noLoadSpeed = 600 * kRpm;
  g.params.timeConstant = 0.02;
  g.params.gearRatio = 100;
  DcMotor& grip = world.addMotor("grip", *g.hinge1, g.params);
  world.addRepeater(grip, *g.hinge2, -1.0);
  grip.setVoltage(1.0);
  return g;
}

TEST(Repeater, TwoJawGripperClosesSymmetricallyAndSqueezesWithTheMotorTorque) {
  // Two jaws hinged on a fixed palm at y = +-0.05, axes +z; jaw 2 repeats jaw 1 with k = -1, so
  // the jaws mirror each other (plane-parallel, symmetric). Stops (joint limits) stand in for
  // the object until contacts exist.
  World world;
  world.settings().gravity.setZero();
  const TwoJawGripper gripper = addTwoJawGripper(world, World::kGround, 0.0);
  RevoluteJoint& hinge1 = *gripper.hinge1;
  RevoluteJoint& hinge2 = *gripper.hinge2;
  const DcMotorParams& p = gripper.params;
  hinge1.limit = {true, -1.0, 0.4};
  hinge2.limit = {true, -0.4, 1.0};
  double worstAsymmetry = 0.0;
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    worstAsymmetry = std::max(worstAsymmetry, std::abs(hinge1.position() + hinge2.position()));
  }
  // Each gear may drift by one step's worth before the next step removes it (below the deferred
  // joint error, 1e-4 rad); a repeater that did not hold would be off by the travel, 0.4 rad.
  EXPECT_LT(worstAsymmetry, 2 * world.settings().solver.deferredJointError);  // measured 7.8e-5
  EXPECT_NEAR(hinge1.position(), 0.4, 1e-3);  // closed onto the stops
  EXPECT_NEAR(hinge2.position(), -0.4, 1e-3);
  // Stalled against the stops, the jaws share the torque the motor can give: r M_s in all, and
  // each stop pushes back what its jaw's gear drives into it.
  const double squeeze = std::abs(hinge1.limitForce()) + std::abs(hinge2.limitForce());
  EXPECT_NEAR(squeeze, p.gearRatio * p.stallTorque, 0.01 * p.gearRatio * p.stallTorque);
  EXPECT_NEAR(hinge1.limitForce(), -hinge1.driveForce(), 1e-6);
  EXPECT_NEAR(hinge2.limitForce(), -hinge2.driveForce(), 1e-6);
}

TEST(Repeater, ItsLoopClosesInOneSweepWithTheTreesAnswer) {
  // A palm on a pin carrying two jaws, jaw 2 repeating jaw 1 (k = -1): the repeater's gear row
  // closes a loop (rotor - jaw 1 - palm - jaw 2 - rotor) and is swept around the exact tree of
  // the rest. Stepped alone, the tree undoes part of each of its passes (a geometric series);
  // stepped with the tree's answer (RowBuffer::respondThroughTree) its first pass is exact.
  World world;
  world.settings().gravity = Vec3(0, -9.81, 0);  // the jaws swing the palm about its pin
  RigidBodyDesc d;
  d.name = "palm";
  d.mass = 1.0;
  d.inertia = scenes::boxInertia(1.0, Vec3(0.05, 0.15, 0.05));
  const BodyId palm = world.addBody(d);
  auto& pin =
      world.addJoint<RevoluteJoint>("pin", World::kGround, palm, Vec3(0, 0.2, 0), Vec3::UnitZ());
  const TwoJawGripper gripper = addTwoJawGripper(world, palm, 0.025);
  const RevoluteJoint& hinge1 = *gripper.hinge1;
  const RevoluteJoint& hinge2 = *gripper.hinge2;
  int most = 0;
  double worstRate = 0.0;
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    most = std::max(most, world.statistics().velocityIterations);
    // The first step too: its first sweep meets the loop at rest, before the tree starts the
    // motor's side moving (a still first sweep must not end the iterations).
    worstRate = std::max(worstRate, std::abs(hinge1.rate() + hinge2.rate()));
  }
  EXPECT_GT(std::abs(pin.rate()), 0.1);  // the palm swings: the loop's bodies all move
  // and the jaws close under the motor, near its no-load speed at the joint (0.63 rad/s)
  EXPECT_GT(std::abs(hinge1.rate()), 0.3);
  // One pass for the loop, one to confirm it; stepped alone it took all 20.
  EXPECT_LE(most, 3);
  EXPECT_LT(worstRate, 1e-6);  // the mirrored rates (rad/s) at the step's end
}

TEST(DcMotor, AFingerJammedIntoItsOwnBaseByA2000To1ArmStaysOutOfItWithItsJointsClosed) {
  // A 0.25 kg finger on a rail at the end of an arm whose 2000:1 gearmotor (the MF-4 shoulder's,
  // 13 kg m^2 reflected) drives it down onto the 40 kg base the arm is mounted on: the contact
  // closes a loop base - arm - finger - base. Swept with the two bodies' own mass the contact is
  // 2e-4 of what the tree answers to it: the velocity iterations leave it closing, and the
  // position pass, pushing the finger out with its own mass, opened the rail and the shoulder,
  // which pulled it back in (the MF-4 jaw sank 36 mm into its hull and its rail opened 10 mm).
  LoadedScene s = loadSceneText(R"(<scene>
    <world gravity="0 0 -9.81"/>
    <body name="base" pos="0 0 0.5" mass="40">
      <geom type="box" size="1 1 0.2"/>
      <joint name="mount" type="fixed"/>
      <body name="arm" pos="0.25 0 0.3" mass="3">
        <geom type="box" size="0.5 0.06 0.06"/>
        <joint name="shoulder" type="revolute" pos="-0.25 0 0" axis="0 1 0"/>
        <body name="finger" pos="0.25 0 -0.1" mass="0.25">
          <geom type="box" size="0.04 0.03 0.1"/>
          <joint name="rail" type="prismatic" axis="0 1 0" range="-0.02 0.02"/>
        </body>
      </body>
    </body>
    <motor name="shoulder_motor" joint="shoulder" stall_torque="1.02" no_load_speed="8810 rpm"
           time_constant="0.003" gear_ratio="2000"/>
  </scene>)",
                                "jam.xml");
  World& world = *s.world;
  const BodyId base = world.findBody("base"), finger = world.findBody("finger");
  world.findMotor("shoulder_motor")->setVoltage(1.0);  // + about y: the arm's end goes down
  double deepest = 0.0, widest = 0.0;
  bool touched = false;
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    for (const ContactPoint& c : world.contacts())
      if ((c.bodyA == base && c.bodyB == finger) || (c.bodyA == finger && c.bodyB == base)) {
        touched = true;
        const Vec3 a = world.body(c.bodyA).toWorld(c.localA),
                   b = world.body(c.bodyB).toWorld(c.localB);
        deepest = std::max(deepest, -c.normal.dot(b - a));
      }
    widest = std::max(widest, world.largestAnchorSeparation());
  }
  ASSERT_TRUE(touched);  // the finger came down onto the base (after ~0.2 s)
  // On the slop (0.1 mm) and what one step's velocity iterations leave closing (measured
  // 0.12 mm; pushed out with the bodies' own mass the finger sank 9.9 mm), the joints closed
  // (measured 3e-6 m).
  EXPECT_LT(deepest, 5e-4);
  EXPECT_LT(widest, 1e-4);
}

/// Seed 001's link behind a compliant gear (seed 003's flexible joint) whose rotor the holding
/// brake keeps still: the link sits on a torsional spring k (joint side) with damper c.
DcMotorParams flexibleJointMotor(double stiffness, double damping) {
  DcMotorParams p = wg7152(0.5);
  p.brakeTorque = 1.0;  // rotor side: 50 N m at the joint, above every load here
  p.brakeWhenIdle = true;
  p.gearStiffness = stiffness;
  p.gearDamping = damping;
  return p;
}

TEST(FlexibleJoint, ItTwistsByTheLoadTorqueOverItsStiffness) {
  const double k = 3000.0, torque = 30.0;   // N m/rad, N m: 0.01 rad
  Link link(flexibleJointMotor(k, 200.0));  // 33 % of critical damping
  for (int i = 0; i < 1000; ++i) {
    link.world.body(link.body).torque = Vec3(0, 0, torque);
    ASSERT_TRUE(link.world.step(0.01).ok);
  }
  EXPECT_NEAR(link.hinge->position(), torque / k, 0.01 * torque / k);
  EXPECT_NEAR(link.motor->speed(), 0.0, 1e-9);  // the brake holds the rotor
  // A rigid gear under the same load does not give.
  Link rigid(flexibleJointMotor(0.0, 0.0));
  for (int i = 0; i < 100; ++i) {
    rigid.world.body(rigid.body).torque = Vec3(0, 0, torque);
    ASSERT_TRUE(rigid.world.step(0.01).ok);
  }
  EXPECT_NEAR(rigid.hinge->position(), 0.0, 1e-6);
}

TEST(FlexibleJoint, ItRingsAtRootKOverTheLinksInertia) {
  // Kicked to 0.1 rad/s against the held rotor, undamped: q = (w0 / W) sin(W t), W = sqrt(k/I).
  const double k = 3000.0, inertia = 30.833;
  Link link(flexibleJointMotor(k, 0.0), inertia);
  RigidBody& body = link.world.body(link.body);
  body.angularMomentum = body.inertiaBody * Vec3(0, 0, 0.1);
  link.world.updateDerived();
  std::vector<double> crossings;
  double last = 0.0, peak = 0.0;
  for (int i = 1; i <= 500; ++i) {
    ASSERT_TRUE(link.world.step(0.01).ok);
    const double q = link.hinge->position();
    if (i > 1 && (last < 0.0) != (q < 0.0)) crossings.push_back(0.01 * (i - q / (q - last)));
    if (i < 100) peak = std::max(peak, std::abs(q));
    last = q;
  }
  ASSERT_GE(crossings.size(), 8u);
  const double halfPeriod = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const double expected = std::sqrt(k / inertia);
  EXPECT_NEAR(std::numbers::pi / halfPeriod, expected, 0.02 * expected);
  // The first swing's peak, less the implicit step's damping over a quarter period: a factor
  // (1 + (W h)^2)^(-1/2) a step, 0.93 here.
  const double quarter = 0.5 * std::numbers::pi / expected / 0.01;  // steps
  const double damped = 0.1 / expected * std::pow(1.0 + std::pow(expected * 0.01, 2), -quarter / 2);
  EXPECT_NEAR(peak, damped, 0.01 * damped);
}

TEST(FlexibleJoint, NeedsAStiffnessToDampAndAJoint) {
  EXPECT_THROW(Link(flexibleJointMotor(0.0, 5.0)), std::invalid_argument);
  EXPECT_THROW(Link(flexibleJointMotor(-1.0, 0.0)), std::invalid_argument);
}

TEST(DcMotor, AStopHoldsALightLinkAgainstItsHeavilyGearedMotor) {
  // A 0.02 kg m^2 link behind 1:100 with a 1e-3 kg m^2 rotor (10 kg m^2 reflected, 500 times
  // the link's): the motor at full voltage drives it into its 0.3 rad stop for 5 s. Swept with
  // the link's inertia the stop takes 0.2 % of the rotor's approach an iteration: here it ended
  // each step pushing 85 N m against a gear pulling 35 back (pressed into the ground as well,
  // the MF-4's wrist crept 60 degrees past its stop); on the rotor it bears the stall torque.
  DcMotorParams params;
  params.stallTorque = 0.5;
  params.noLoadSpeed = 300.0;
  params.rotorInertia = 1e-3;
  params.gearRatio = 100.0;
  Link link(params, 0.02);
  link.hinge->limit = {true, -0.3, 0.3};
  link.motor->setVoltage(1.0);
  double farthest = 0.0;
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(link.world.step(0.01).ok);
    farthest = std::max(farthest, link.hinge->position());
  }
  EXPECT_LT(farthest, 0.3 + 1e-3);
  EXPECT_NEAR(link.hinge->position(), 0.3, 1e-3);
  // The stop bears the motor's stall torque through the gear: 50 N m at the joint.
  EXPECT_NEAR(link.hinge->limitForce(), -50.0, 0.5);
  EXPECT_NEAR(link.hinge->driveForce(), 50.0, 0.5);
}

}  // namespace
}  // namespace impetus
