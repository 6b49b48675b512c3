// The side-by-side benchmark's scenes and quality meter (tools/bench/peers): the numbers of
// ../shared/BENCH-SCENES.md, and a meter that measures what it claims.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "bench_scene.h"
#include "impetus_scene.h"
#include "peer_factories.h"
#include "peer_runner.h"
#include "quality_meter.h"

namespace peers {
namespace {

std::vector<BodyState> atRest(const BenchScene& s) {
  std::vector<BodyState> states(s.bodies.size());
  for (size_t i = 0; i < s.bodies.size(); ++i) states[i].position = s.bodies[i].position;
  return states;
}

TEST(BenchScenes, Chain30EnergyZeroIsTheHangingChain) {
  // BENCH-SCENES: E0 = 441.45 J with potential measured from the chain hanging straight down.
  const BenchScene s = chainScene(30);
  EXPECT_NEAR(QualityMeter(s).energy(atRest(s)), 441.45, 1e-9);
}

TEST(BenchScenes, RagdollIs75KgWithItsSolesOneMetreUp) {
  const BenchScene s = ragdollScene();
  double mass = 0.0, lowest = 1e9;
  for (const BenchBody& b : s.bodies) {
    mass += b.mass;
    if (b.shape == ShapeKind::Box) lowest = std::min(lowest, b.position.z() - b.boxSize.z() / 2);
  }
  EXPECT_NEAR(mass, 75.0, 1e-12);
  EXPECT_NEAR(lowest, 1.0, 1e-12);
  EXPECT_EQ(s.bodies.size(), 15u);
  EXPECT_EQ(s.joints.size(), 14u);
}

TEST(BenchScenes, CapsuleInertiaMatchesIntegration) {
  // The thigh (r 0.065, 0.31 m along z, 8.5 kg) against a midpoint-rule volume integral.
  const BenchScene s = ragdollScene();
  const BenchBody& thigh = s.bodies[6];
  ASSERT_EQ(thigh.name, "thigh_l");
  const double r = thigh.radius, h = thigh.length;
  const int n = 120;
  double volume = 0, ixx = 0, izz = 0;
  const double dx = 2 * r / n, dz = (h + 2 * r) / n;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const double x = -r + (i + 0.5) * dx, y = -r + (j + 0.5) * dx,
                     z = -h / 2 - r + (k + 0.5) * dz;
        const double axial = std::max(0.0, std::abs(z) - h / 2);
        if (x * x + y * y + axial * axial > r * r) continue;
        volume += 1;
        ixx += y * y + z * z;
        izz += x * x + y * y;
      }
  const double density = thigh.mass / volume;  // per cell
  EXPECT_NEAR(thigh.inertia.x(), density * ixx, 2e-3 * thigh.inertia.x());
  EXPECT_NEAR(thigh.inertia.z(), density * izz, 2e-3 * thigh.inertia.z());
}

TEST(QualityMeter, MeasuresGapsAxisErrorsAndLimitOvershoot) {
  const BenchScene s = ragdollScene();
  QualityMeter meter(s);
  std::vector<BodyState> states = atRest(s);
  meter.record(0, states);
  // Bend the left knee 160 degrees about its axis through its anchor (10 degrees past the upper
  // limit) and move the right foot 3 mm: overshoot 10 degrees, gap 3 mm, no axis error.
  const double deg = std::numbers::pi / 180;
  const BenchJoint& knee = s.joints[6];
  ASSERT_EQ(knee.name, "knee_l");
  const Eigen::Quaterniond bend(Eigen::AngleAxisd(160 * deg, knee.axis));
  for (int body : {knee.child, knee.child + 1}) {  // shin and foot turn together
    states[body].orientation = bend;
    states[body].position = knee.anchor + bend * (s.bodies[body].position - knee.anchor);
  }
  states[14].position.x() += 0.003;  // foot_r
  meter.record(1, states);
  EXPECT_NEAR(meter.quality().peakLimitOvershoot, 10 * deg, 1e-9);
  EXPECT_NEAR(meter.quality().peakAnchorGap, 0.003, 1e-12);
  EXPECT_NEAR(meter.quality().peakAxisError, 0.0, 1e-9);
  // Tilt the right hand's wrist axis by 0.2 rad about x (through its anchor).
  const BenchJoint& wrist = s.joints[11];
  ASSERT_EQ(wrist.name, "wrist_r");
  const Eigen::Quaterniond tilt(Eigen::AngleAxisd(0.2, Vec3::UnitX()));
  states[wrist.child].orientation = tilt;
  states[wrist.child].position =
      wrist.anchor + tilt * (s.bodies[wrist.child].position - wrist.anchor);
  meter.record(2, states);
  EXPECT_NEAR(meter.quality().peakAxisError, 0.2, 1e-9);
}

TEST(QualityMeter, KineticEnergyUsesTheBodyFrameInertia) {
  // One chain link spinning at 2 rad/s about world z while turned 90 degrees about x: its body y
  // axis is world z, so KE = 1/2 I_yy w^2.
  const BenchScene s = chainScene(1);
  std::vector<BodyState> states = atRest(s);
  states[0].orientation =
      Eigen::Quaterniond(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitX()));
  states[0].angularVelocity = Vec3(0, 0, 2);
  const double potential = QualityMeter(s).energy(atRest(s));
  EXPECT_NEAR(QualityMeter(s).energy(states) - potential, 0.5 * s.bodies[0].inertia.y() * 4, 1e-12);
}

TEST(BenchScenes, RagdollDropsRaiseTheWholeRagdollFromSixtyCentimetresToTwoAndAHalfMetres) {
  const BenchScene drops = sceneByName("ragdoll-drops");
  const BenchScene ragdoll = ragdollScene();
  ASSERT_EQ(drops.variantRaises.size(), 12u);
  EXPECT_NEAR(drops.variantRaises.front(), -0.4, 1e-12);  // soles 0.6 m up
  EXPECT_NEAR(drops.variantRaises.back(), 1.5, 1e-12);    // soles 2.5 m up
  ASSERT_EQ(drops.bodies.size(), ragdoll.bodies.size());
  const BenchScene raised = raisedScene(drops, 0.5);
  EXPECT_TRUE(raised.variantRaises.empty());  // a copy is one scene, not 12 again
  for (size_t i = 0; i < ragdoll.bodies.size(); ++i)
    EXPECT_LT((raised.bodies[i].position - ragdoll.bodies[i].position - Vec3(0, 0, 0.5)).norm(),
              1e-12);
  for (size_t i = 0; i < ragdoll.joints.size(); ++i)
    EXPECT_LT((raised.joints[i].anchor - ragdoll.joints[i].anchor - Vec3(0, 0, 0.5)).norm(), 1e-12);
}

TEST(QualityMeter, WorstOfTakesTheLargerPeaksAndTheEarlierFailure) {
  Quality a, b;
  a.peakAnchorGap = 0.002;
  b.peakAnchorGap = 0.005;
  a.peakAxisError = 0.3;
  b.peakAxisError = 0.1;
  a.finalEnergyRatio = 0.07;
  b.finalEnergyRatio = 0.09;
  b.diverged = true;
  b.divergedAt = 0.8;
  a.engineWarningAt = 0.5;
  b.engineWarningAt = 0.3;
  const Quality w = worstOf(a, b);
  EXPECT_DOUBLE_EQ(w.peakAnchorGap, 0.005);
  EXPECT_DOUBLE_EQ(w.peakAxisError, 0.3);
  EXPECT_DOUBLE_EQ(w.finalEnergyRatio, 0.09);
  EXPECT_TRUE(w.diverged);
  EXPECT_DOUBLE_EQ(w.divergedAt, 0.8);  // only b diverged: its time, not a's 0
  EXPECT_DOUBLE_EQ(w.engineWarningAt, 0.3);
  a.engineWarningAt = -1.0;  // no warning
  EXPECT_DOUBLE_EQ(worstOf(a, b).engineWarningAt, 0.3);
}

TEST(PeerRunner, RaisedVariantsReportTheWorstQualityOfThemAll) {
  // Two drops of the ragdoll (soles 0.6 and 1.4 m up, 0.8 s: both land) run as one scene report
  // what each run alone reports at worst (Impetus is deterministic: the same numbers exactly).
  BenchScene drops = ragdollDropsScene();
  drops.steps = 80;
  drops.variantRaises = {-0.4, 0.4};
  auto engine = makeImpetusPeer();
  const PeerResult both = runPeer(*engine, drops, 1);
  EXPECT_EQ(both.scene, "ragdoll-drops");
  EXPECT_GT(both.stepsPerSecond, 0.0);
  const PeerResult low = runPeer(*engine, raisedScene(drops, -0.4), 1);
  const PeerResult high = runPeer(*engine, raisedScene(drops, 0.4), 1);
  // Two different landings (their joints both exact to rounding, so told apart by energy).
  EXPECT_NE(low.quality.finalEnergyRatio, high.quality.finalEnergyRatio);
  EXPECT_EQ(both.quality.peakAnchorGap,
            std::max(low.quality.peakAnchorGap, high.quality.peakAnchorGap));
  EXPECT_EQ(both.quality.finalEnergyRatio,
            std::max(low.quality.finalEnergyRatio, high.quality.finalEnergyRatio));
}

TEST(PeerRunner, ResultRowsRoundTrip) {
  PeerResult r;
  r.scene = "ragdoll";
  r.engine = "ODE 0.16 QuickStep";
  r.settings = "10 iterations";
  r.stepsPerSecond = 44407.8;
  r.runs = 5;
  r.quality.peakAnchorGap = 0.052;
  r.quality.engineWarningAt = 0.84;
  PeerResult back;
  ASSERT_TRUE(fromLine(toLine(r), back));
  EXPECT_EQ(back.engine, r.engine);
  EXPECT_DOUBLE_EQ(back.stepsPerSecond, r.stepsPerSecond);
  EXPECT_DOUBLE_EQ(back.quality.peakAnchorGap, 0.052);
  EXPECT_DOUBLE_EQ(back.quality.engineWarningAt, 0.84);
  EXPECT_FALSE(fromLine("not a row", back));
}

TEST(PeerRunner, SleepingEnginesAreComparedWithImpetusSleeping) {
  std::vector<PeerResult> rows(4);
  const char* engines[] = {"Impetus", "Impetus, no sleeping", "ODE 0.16 QuickStep",
                           "ODE 0.16 QuickStep, auto-disable"};
  const double rates[] = {100e3, 10e3, 20e3, 50e3};
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].scene = "stack10";
    rows[i].engine = engines[i];
    rows[i].stepsPerSecond = rates[i];
  }
  const std::string table = markdownTable(rows);
  const auto line = [&](const std::string& engine) {
    const size_t at = table.find("| " + engine + " |");
    return table.substr(at, table.find('\n', at) - at);
  };
  EXPECT_NE(line("ODE 0.16 QuickStep").find("| 0.50x |"), std::string::npos) << table;
  EXPECT_NE(line("ODE 0.16 QuickStep, auto-disable").find("| 2.00x |"), std::string::npos) << table;
  EXPECT_NE(line("Impetus").find("| 1.00x |"), std::string::npos) << table;
}

TEST(ImpetusPeer, Chain30InTheBenchmarkKeepsItsJointsClosed) {
  // The benchmark's own Impetus adapter over 2 s of the whip: joints within 1 cm (the issue's
  // chain30 goal) and no energy gained (the position pass only removes energy).
  BenchScene s = chainScene(30);
  s.steps = 200;
  auto engine = makeImpetusPeer();
  const PeerResult r = runPeer(*engine, s, 1);
  EXPECT_LT(r.quality.peakAnchorGap, 0.01);
  EXPECT_LE(r.quality.peakEnergyRatio, 1.0 + 1e-9);
  EXPECT_FALSE(r.quality.diverged);
  EXPECT_GT(r.stepsPerSecond, 0.0);
}

TEST(ImpetusPeer, RagdollDropKeepsItsJointsClosedAndItsStops) {
  // The ragdoll goal: gaps < 5 mm through the 1 m drop and the landing on hands and feet
  // (peers: 3-5 cm, hinge axes 0.3-1.1 rad). Its hinges stay aligned and at their stops too:
  // a hand taking the body's weight, a foot pushed by the ground. Measured as an articulation:
  // 0 um and 0 rad (the joints are its coordinates), a stop passed by 0.010 rad
  // for a step of the landing (its sweeps capped; split impulses push it back); with the rows
  // 0.26 mm, 0.002 rad, 0.000 rad; before limits joined their exact tree solve 3.3 cm, 0.27
  // rad, 0.74 rad. Peers: 0.15-0.60 rad past a stop.
  const BenchScene s = ragdollScene();
  auto engine = makeImpetusPeer();
  const PeerResult r = runPeer(*engine, s, 1);
  EXPECT_LT(r.quality.peakAnchorGap, 0.005);
  EXPECT_LT(r.quality.peakAxisError, 0.02);
  EXPECT_LT(r.quality.peakLimitOvershoot, 0.02);
  EXPECT_FALSE(r.quality.diverged);
}

TEST(ImpetusPeer, RagdollDroppedFromHigherStillKeepsItsJointsAndStops) {
  // Where the ragdoll comes to rest decides how it lands: raised 0.4 m it ends on its back with a
  // hand and both feet on the floor. Each resting limb is a loop through the ground; swept, they
  // left 8.9 mm gaps and a wrist 0.18 rad past its stop; as compliant leaves of the exact tree
  // (EqualityTree) 0.46 mm and 0.000 rad. The other heights: 0.36 mm / 0.71 mm, 0.000 rad.
  // As an articulation: 0 um, 0 rad, stops passed by at most 0.010 rad.
  for (const double raise : {0.25, 0.4, 0.5}) {
    const BenchScene s = raisedScene(ragdollScene(), raise);
    auto engine = makeImpetusPeer();
    const PeerResult r = runPeer(*engine, s, 1);
    EXPECT_LT(r.quality.peakAnchorGap, 0.005) << "raised " << raise << " m";
    EXPECT_LT(r.quality.peakAxisError, 0.02) << "raised " << raise << " m";
    EXPECT_LT(r.quality.peakLimitOvershoot, 0.02) << "raised " << raise << " m";
    EXPECT_FALSE(r.quality.diverged);
  }
}

/// How far apart the same bodies are in two worlds built from one scene (unit: m).
double largestSeparation(const impetus::World& a, const impetus::World& b,
                         const std::vector<impetus::BodyId>& ids) {
  double largest = 0.0;
  for (const impetus::BodyId id : ids)
    largest = std::max(largest, (a.body(id).position - b.body(id).position).norm());
  return largest;
}

TEST(ImpetusPeer, TheRagdollFallsAsleepWhereItRests) {
  // Landed, the bench scene's ragdoll rests but for its head, which rolls on the floor around its
  // neck: the scene has no rolling friction, and a ball on a stick rolls in a circle without loss
  // (until t = 9.5 s in one build, when it bumps a shoulder). With a 2 mm rolling-resistance arm
  // the head stops too, and the body sleeps some 1.5 s after it landed (t = 3.5-4.2 s in the
  // builds so far; where it lands is chaotic, so the bounds are loose). Asleep it does not move
  // at all. Its twin with sleeping off, identical until then, shows that it was put to sleep at
  // rest: over the next 0.5 s it moves less than the sleep tolerance allows (0.01 m/s x 0.5 s).
  const BenchScene s = ragdollScene();
  impetus::World worlds[2];
  std::vector<impetus::BodyId> ids;
  for (impetus::World& w : worlds) {
    // Rolling friction is not an articulation's (its contacts need the rows): landed, this
    // ragdoll steps with the rows, and so it does here in the air too - which path carried it
    // down changes where it comes to rest (chaotic), and one ASan rounding rested it where the
    // rows let it creep 10 mm in 0.5 s (tracked in issue 10's notes).
    w.settings().articulations = false;
    ids = addBenchScene(s, w);
    w.materials()[0].rolling = 0.002;
  }
  impetus::World& sleeping = worlds[0];
  impetus::World& awake = worlds[1];
  awake.settings().sleep.enabled = false;
  double asleepAt = -1.0, twinMoved = -1.0;
  std::vector<impetus::Vec3> asleepPositions;
  for (int i = 0; i < s.steps; ++i) {
    for (impetus::World& w : worlds) ASSERT_TRUE(w.step(s.dt).ok);
    if (asleepAt < 0.0 && sleeping.sleepingBodyCount() == int(ids.size())) {
      asleepAt = sleeping.time();
      for (const impetus::BodyId id : ids) asleepPositions.push_back(sleeping.body(id).position);
    }
    if (asleepAt > 0.0 && twinMoved < 0.0 && awake.time() >= asleepAt + 0.5 - 1e-9) {
      twinMoved = 0.0;
      for (size_t k = 0; k < ids.size(); ++k)
        twinMoved = std::max(twinMoved, (awake.body(ids[k]).position - asleepPositions[k]).norm());
    }
  }
  EXPECT_GT(asleepAt, 1.0);  // not before it landed and settled
  EXPECT_LT(asleepAt, 8.0);
  EXPECT_EQ(sleeping.sleepingBodyCount(), int(ids.size()));
  EXPECT_EQ(sleeping.statistics().rows, 0);
  for (size_t k = 0; k < asleepPositions.size(); ++k)
    EXPECT_EQ(sleeping.body(ids[k]).position, asleepPositions[k]);
  EXPECT_GE(twinMoved, 0.0);
  EXPECT_LT(twinMoved, 0.005);
  std::printf("ragdoll asleep at t = %.2f s; its awake twin moved %.1f um in the next 0.5 s\n",
              asleepAt, 1e6 * twinMoved);
}

TEST(ImpetusPeer, RestingRagdollStopsIteratingOnceItsVelocitiesSettle) {
  // At rest its contacts are redundant (a face's corners, limbs on limbs): Gauss-Seidel keeps
  // shifting impulses among them, |dp| ~ 6e-6 N s an iteration decaying 2.5 % each, while no
  // row's velocity changes by more than 5e-6 m/s. Stopping on the impulses ran all 20
  // iterations every resting step. Two identical worlds come to rest; then one keeps the
  // default, the other iterates until the impulses settle: the default saves iterations, and in
  // 0.5 s their bodies part by less than 50 um. (The last iteration changed no velocity by 1e-5
  // m/s; what is left is that over 1 - the iteration's contraction, ~0.9 at worst here: 1e-4
  // m/s, 1 um a step.) The ragdoll is laid on its back 1 cm above the floor and settles there:
  // the bench drop's landing is chaotic, and some of its outcomes never rest (the head rolling
  // round its neck: no rolling friction in the scene), which any change of rounding may pick.
  const BenchScene s = ragdollScene();
  impetus::World worlds[2];
  std::vector<impetus::BodyId> ids;
  for (impetus::World& w : worlds) {
    ids = addBenchScene(s, w);
    w.settings().sleep.enabled = false;  // the solver at rest is what is measured
    // On its back: turned -90 degrees about y (its front up, its head along +x), its lowest
    // point (a sole's edge, 12 cm from the figure's mid-plane) 1 cm above the floor.
    const impetus::Quat turn(Eigen::AngleAxisd(-std::numbers::pi / 2, impetus::Vec3::UnitY()));
    const impetus::Vec3 pivot = w.body(ids[0]).position;
    for (const impetus::BodyId id : ids) {
      impetus::RigidBody& b = w.body(id);
      b.position = turn * (b.position - pivot) + impetus::Vec3(0, 0, 0.13);
      b.orientation = (turn * b.orientation).normalized();
    }
    w.updateDerived();
    for (int i = 0; i < 300; ++i) ASSERT_TRUE(w.step(s.dt).ok);
  }
  worlds[1].settings().solver.velocityTolerance = 0.0;
  double iterations[2] = {0.0, 0.0};
  for (int i = 0; i < 50; ++i) {
    for (int k = 0; k < 2; ++k) {
      ASSERT_TRUE(worlds[k].step(s.dt).ok);
      iterations[k] += worlds[k].statistics().velocityIterations / 50.0;
    }
  }
  const double parted = largestSeparation(worlds[0], worlds[1], ids);
  EXPECT_LE(iterations[0], iterations[1]);
  if (iterations[1] > 8.0) {
    EXPECT_LT(iterations[0], iterations[1] - 2.0);
  }
  EXPECT_LT(parted, 5e-5);
  std::printf(
      "resting ragdoll: %.1f velocity iterations a step (%.1f on the impulses alone), "
      "bodies parted %.1f um in 0.5 s\n",
      iterations[0], iterations[1], 1e6 * parted);
}

}  // namespace
}  // namespace peers
