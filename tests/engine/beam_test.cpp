// Flexible links (seed 003, issue "flexible space arm"): a beam of rigid segments and elastic
// BeamJoints against the closed forms of a uniform Euler-Bernoulli cantilever.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/flex/beam.h"
#include "impetus/scene/scene_loader.h"
#include "resume_check.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;
constexpr double kLength = 2.0;         // m
constexpr double kBending = 100.0;      // EI, N m^2
constexpr double kMassPerLength = 2.0;  // kg/m
constexpr double kTorsion = 80.0;       // GJ, N m^2

World weightlessWorld() {
  WorldSettings settings;
  settings.gravity = Vec3::Zero();
  return World(settings);
}

BeamDesc cantilever(int segments, double dampingTime) {
  BeamDesc d;
  d.name = "beam";
  d.length = kLength;
  d.massPerLength = kMassPerLength;
  d.axialStiffness = 1e6;
  d.bendingStiffnessY = d.bendingStiffnessZ = kBending;
  d.torsionalStiffness = kTorsion;
  d.dampingTime = dampingTime;
  d.segments = segments;
  d.sectionRadius = 0.01;
  return d;
}

/// Holds a force and a torque on the beam's tip for a step (the force acts at the tip point).
void loadTip(World& world, const Beam& beam, const Vec3& force, const Vec3& torque) {
  RigidBody& last = world.body(beam.segments.back());
  last.force += force;
  last.torque += torque + (beam.tip(world) - last.position).cross(force);
}

/// Steps with the tip loaded until the beam has settled (damped, ~10 time constants of mode 1).
void settle(World& world, const Beam& beam, const Vec3& force, const Vec3& torque) {
  for (int i = 0; i < 1000; ++i) {
    loadTip(world, beam, force, torque);
    ASSERT_TRUE(world.step(kDt).ok);
  }
}

TEST(Beam, ACantileversTipDeflectsAsPL3Over3EI) {
  // Damping time 0.05 s: mode 1 (6.2 rad/s) at 16 % of critical, settled in 10 s.
  for (const int segments : {4, 10, 20}) {
    World world = weightlessWorld();
    const Beam beam = addBeam(world, cantilever(segments, 0.05));
    const double load = 0.5;  // N, down; the tip sinks 1.3 cm, 0.7 % of L
    settle(world, beam, Vec3(0, 0, -load), Vec3::Zero());
    const double expected = load * std::pow(kLength, 3) / (3.0 * kBending);
    const double measured = -beam.tip(world).z();
    EXPECT_NEAR(measured, expected, 0.02 * expected) << segments << " segments";
    // The lumped model's own error is the midpoint rule's, -1 / (4 N^2), to 0.1 %.
    EXPECT_NEAR(measured / expected, 1.0 - 0.25 / (segments * segments), 1e-3)
        << segments << " segments";
    EXPECT_NEAR(beam.tip(world).x(), kLength, 1e-3);  // bending shortens it by ~d^2 / L
  }
}

TEST(Beam, ATwistedBeamTurnsAsTLOverGJ) {
  World world = weightlessWorld();
  const Beam beam = addBeam(world, cantilever(10, 0.05));
  const double torque = 1.0;  // N m about the beam's axis
  settle(world, beam, Vec3::Zero(), Vec3(torque, 0, 0));
  const Quat tip = world.body(beam.segments.back()).orientation;
  const double twist = 2.0 * std::atan2(tip.x(), tip.w());
  const double expected = torque * kLength / kTorsion;
  EXPECT_NEAR(twist, expected, 0.02 * expected);
  EXPECT_NEAR(beam.joints.front()->deflection(world.bodies())(1), expected / 10, 1e-3 * expected);
}

TEST(Beam, ItsFirstBendingFrequencyIs1875SquaredOverL2TimesRootEIOverRhoA) {
  // Deflected by a tip load in a damped copy, then released undamped: mostly mode 1 (the higher
  // modes, 6.3 and 17.5 times faster, fade under the implicit step). The period from the tip's
  // upward zero crossings over 8 s.
  const int segments = 20;
  World damped = weightlessWorld();
  const Beam settledBeam = addBeam(damped, cantilever(segments, 0.05));
  settle(damped, settledBeam, Vec3(0, 0, -0.5), Vec3::Zero());
  World world = weightlessWorld();
  const Beam beam = addBeam(world, cantilever(segments, 0.0));
  for (size_t k = 0; k < beam.segments.size(); ++k) {
    RigidBody& b = world.body(beam.segments[k]);
    const RigidBody& s = damped.body(settledBeam.segments[k]);
    b.position = s.position;
    b.orientation = s.orientation;
  }
  world.updateDerived();
  std::vector<double> crossings;
  double last = beam.tip(world).z();
  for (int i = 1; i <= 1000; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    const double z = beam.tip(world).z();
    if (last < 0.0 && z >= 0.0 && i > 100) crossings.push_back(kDt * (i - z / (z - last)));
    last = z;
  }
  ASSERT_GE(crossings.size(), 5u);
  const double period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const double expected = 1.875104 * 1.875104 / (kLength * kLength) *
                          std::sqrt(kBending / kMassPerLength) / (2.0 * std::numbers::pi);
  EXPECT_NEAR(1.0 / period, expected, 0.03 * expected);
}

TEST(Beam, BadPropertiesAreRefused) {
  World world = weightlessWorld();
  BeamDesc d = cantilever(10, 0.0);
  d.bendingStiffnessY = 0.0;
  EXPECT_THROW(addBeam(world, d), std::invalid_argument);
  d = cantilever(0, 0.0);
  EXPECT_THROW(addBeam(world, d), std::invalid_argument);
  d = cantilever(10, -1.0);
  EXPECT_THROW(addBeam(world, d), std::invalid_argument);
}

TEST(Beam, ASceneBeamSagsUnderItsWeightAndItsTipPayload) {
  // <beam> with a 0.5 kg payload welded at its tip, under gravity: the tip sinks by the tip
  // load's P L^3 / (3 EI) plus the own weight's q L^4 / (8 EI).
  LoadedScene scene = loadSceneText(R"(<scene>
    <material name="steel" friction="0.5"/>
    <beam name="boom" pos="0 0 1" length="2" mass_per_length="2" axial_stiffness="1e7"
          bending_stiffness="2000" torsional_stiffness="1500" damping_time="0.05" segments="20"
          radius="0.02" material="steel">
      <body name="payload" pos="0 0 0" mass="0.5" inertia="1e-4 1e-4 1e-4"/>
    </beam>
  </scene>)",
                                    "beam.xml");
  World& world = *scene.world;
  ASSERT_EQ(world.findBody("boom_20") + 1, world.findBody("payload"));
  EXPECT_EQ(scene.geoms.size(), 20u);  // a cylinder a segment, for drawing
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(world.step(kDt).ok);
  const double g = 9.81,
               expected = 0.5 * g * 8.0 / (3.0 * 2000.0) + 2.0 * g * 16.0 / (8.0 * 2000.0);
  const double sag = 1.0 - world.body(world.findBody("payload")).position.z();
  EXPECT_NEAR(sag, expected, 0.02 * expected);
}

TEST(Beam, ASwingingBeamResumesBitForBitFromASavedState) {
  // A cantilever under gravity, undamped, ringing: its springs' warm-start impulses and the
  // joints' state are in the saved state, so a world loaded from it rings on exactly.
  const auto build = [](World& world) {
    world.settings().sleep.enabled = false;
    addBeam(world, cantilever(10, 0.0));
  };
  const auto [diverged, checked] = divergedResumes(build, 200, 10, 30, 40, kDt);
  EXPECT_EQ(diverged, 0) << "of " << checked;
  EXPECT_GE(checked, 5);
}

}  // namespace
}  // namespace impetus
