// Full-state save and restore (issue #9's keyframes and take-over): a simulation loaded from the
// same scene and given a saved state continues bit for bit as the original does.
#include <gtest/gtest.h>

#include <cstring>

#include "impetus/scene/input_script.h"
#include "impetus/session/simulation.h"
#include "impetus/session/state_stream.h"

namespace impetus {
namespace {

const std::string kScenes = IMPETUS_SCENES_DIR;

/// Every body's pose, velocity and momentum, and every motor's rotor state, as raw doubles.
std::vector<double> trajectorySample(const World& w) {
  std::vector<double> v;
  for (const RigidBody& b : w.bodies()) {
    v.insert(v.end(), b.position.data(), b.position.data() + 3);
    v.insert(v.end(), b.orientation.coeffs().data(), b.orientation.coeffs().data() + 4);
    v.insert(v.end(), b.linearVelocity.data(), b.linearVelocity.data() + 3);
    v.insert(v.end(), b.angularMomentum.data(), b.angularMomentum.data() + 3);
  }
  return v;
}

bool bitEqual(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

/// Steps with the scripted inputs until `until` (s), appending a sample after every step.
void run(Simulation& sim, InputScript& script, double until, std::vector<double>* samples) {
  while (sim.world().time() < until - 1e-9) {
    script.apply(sim.world().time(), sim.channels());
    ASSERT_TRUE(sim.step().ok);
    if (samples) {
      const auto s = trajectorySample(sim.world());
      samples->insert(samples->end(), s.begin(), s.end());
    }
  }
}

class ResumeFromState : public ::testing::TestWithParam<const char*> {};

TEST_P(ResumeFromState, ContinuesBitForBit) {
  // The container grasp (jaws, container, tracks on the floor: many contacts with warm-start
  // impulses, motors with brakes, scheme toggles) and the door push (joint friction at rest).
  const std::string scene = std::string(GetParam()) + ".xml";
  const std::string csv = kScenes + "/" + GetParam() + ".csv";
  Simulation original(loadScene(kScenes + "/" + scene));
  original.setDeterministic(true);
  InputScript script = InputScript::read(csv, original.scene().console.channels());
  run(original, script, 2.5, nullptr);  // mid-grasp / mid-push
  const std::vector<std::uint8_t> state = original.saveState();
  ASSERT_GT(original.world().contacts().size(), 0u);
  std::vector<double> expected;
  run(original, script, 4.0, &expected);

  Simulation resumed(loadScene(kScenes + "/" + scene));
  resumed.setDeterministic(true);
  resumed.loadState(state);
  EXPECT_EQ(resumed.stepIndex(), 250);
  EXPECT_NEAR(resumed.world().time(), 2.5, 1e-9);
  InputScript again = InputScript::read(csv, resumed.scene().console.channels());
  again.apply(resumed.world().time() - resumed.stepSize(), resumed.channels());
  std::vector<double> actual;
  run(resumed, again, 4.0, &actual);
  ASSERT_EQ(actual.size(), expected.size());
  EXPECT_TRUE(bitEqual(actual, expected));
  // And the state after is the same byte for byte (joints, motors, contacts, scheme).
  const std::vector<std::uint8_t> after = resumed.saveState(), reference = original.saveState();
  ASSERT_EQ(after.size(), reference.size());
  size_t firstDifference = 0;
  while (firstDifference < after.size() && after[firstDifference] == reference[firstDifference])
    ++firstDifference;
  EXPECT_EQ(firstDifference, after.size()) << "of " << after.size() << " bytes";
}

INSTANTIATE_TEST_SUITE_P(Mf4, ResumeFromState, ::testing::Values("mf4-container", "mf4-door"));

TEST(ResumeFromState, WithoutTheSavedContactsTheRunDiverges) {
  // The check above can fail: dropping the contacts' warm-start impulses changes the result.
  Simulation a(loadScene(kScenes + "/mf4-container.xml"));
  a.setDeterministic(true);
  InputScript script =
      InputScript::read(kScenes + "/mf4-container.csv", a.scene().console.channels());
  run(a, script, 2.5, nullptr);
  Simulation b(loadScene(kScenes + "/mf4-container.xml"));
  b.setDeterministic(true);
  b.loadState(a.saveState());
  std::vector<double> expected, actual;
  run(a, script, 3.0, &expected);
  // b's world state with the contact section emptied: the contacts are found again from the
  // poses, but their warm-start impulses are gone.
  World& world = b.world();
  StateWriter noContacts;
  world.saveState(noContacts);
  std::vector<std::uint8_t> bytes = noContacts.take();
  auto lastTag = [&](std::uint32_t tag) {
    size_t at = 0;
    for (size_t i = 0; i + 4 <= bytes.size(); ++i)
      if (std::memcmp(bytes.data() + i, &tag, 4) == 0) at = i;
    return at;
  };
  const size_t contacts = lastTag(stateTag("CNTC")), sensors = lastTag(stateTag("SENS"));
  ASSERT_GT(contacts, 0u);
  ASSERT_GT(sensors, contacts);
  const std::vector<std::uint8_t> sensorSection(bytes.begin() + std::ptrdiff_t(sensors),
                                                bytes.end());
  bytes.resize(contacts + 4);
  const std::uint64_t zero = 0;
  bytes.insert(bytes.end(), reinterpret_cast<const std::uint8_t*>(&zero),
               reinterpret_cast<const std::uint8_t*>(&zero) + 8);
  bytes.insert(bytes.end(), sensorSection.begin(), sensorSection.end());
  StateReader in(bytes);
  world.loadState(in);
  EXPECT_TRUE(world.contacts().empty());
  InputScript again =
      InputScript::read(kScenes + "/mf4-container.csv", b.scene().console.channels());
  again.apply(2.49, b.channels());
  run(b, again, 3.0, &actual);
  EXPECT_FALSE(bitEqual(actual, expected));
}

TEST(ResumeFromState, BadStatesAreRejectedAndLeaveTheSimulationAsItWas) {
  Simulation sim(loadScene(kScenes + "/mf4-door.xml"));
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(sim.step().ok);
  const std::vector<std::uint8_t> good = sim.saveState();
  // Truncated anywhere: a clear StateError, never a crash; the simulation keeps its state.
  for (size_t n : {size_t(0), size_t(3), good.size() / 2, good.size() - 1}) {
    std::vector<std::uint8_t> cut(good.begin(), good.begin() + long(n));
    EXPECT_THROW(sim.loadState(cut), StateError) << n;
    EXPECT_EQ(sim.saveState(), good);
  }
  // From another scene: the counts do not fit.
  Simulation other(loadScene(kScenes + "/mf4-container.xml"));
  try {
    sim.loadState(other.saveState());
    FAIL() << "a state of another scene was accepted";
  } catch (const StateError& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit this scene"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sim.saveState(), good);
}

}  // namespace
}  // namespace impetus
