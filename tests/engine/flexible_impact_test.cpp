// Seed 003's impact (scenes/flexible-impact.xml): a falling two-link flexible arm strikes a
// compliant pad at the paper's velocity; the contact lasts a few milliseconds and its force
// rings with the arm's flexible modes (more than one peak), sampled in the 10 ms step's sub-steps.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/scene/scene_loader.h"

namespace impetus {
namespace {

const std::string kScene = std::string(IMPETUS_SCENES_DIR) + "/flexible-impact.xml";

std::string sceneText() {
  std::ifstream in(kScene);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Sample {
  double t, normal, tangential;
  Vec3 tipVelocity;
};

struct Impact {
  std::vector<Sample> contact;   ///< the first contact's samples, force > 0
  Vec3 approach = Vec3::Zero();  ///< the tip's velocity at the sample before it
  double start = 0.0, end = 0.0;
  std::vector<size_t> peaks;  ///< local maxima of the normal force within the contact
};

/// Runs the scene until the first contact has ended, sampling the tip's contact sensor after
/// every sub-step.
Impact firstImpact(const std::string& text) {
  LoadedScene s = loadSceneText(text, kScene);
  World& world = *s.world;
  const Sensor* touch = world.findSensor("touch");
  const BodyId tip = world.findBody("tip");
  const int fx = touch->componentIndex("fx"), fz = touch->componentIndex("fz");
  std::vector<Sample> samples;
  world.setSubstepObserver([&] {
    samples.push_back(
        {world.time(), touch->value(fz), touch->value(fx), world.body(tip).linearVelocity});
  });
  for (int i = 0; i < 70; ++i) EXPECT_TRUE(world.step(s.step).ok);
  Impact impact;
  size_t first = 0;
  while (first < samples.size() && samples[first].normal <= 0.0) ++first;
  if (first == 0 || first == samples.size()) return impact;
  size_t last = first;
  while (last < samples.size() && samples[last].normal > 0.0) ++last;
  impact.approach = samples[first - 1].tipVelocity;
  impact.start = samples[first - 1].t;  // the last sample without contact
  impact.end = last < samples.size() ? samples[last].t : samples.back().t;
  impact.contact.assign(samples.begin() + long(first), samples.begin() + long(last));
  const auto& c = impact.contact;
  for (size_t i = 1; i + 1 < c.size(); ++i)
    if (c[i].normal > c[i - 1].normal && c[i].normal >= c[i + 1].normal) impact.peaks.push_back(i);
  return impact;
}

/// The deepest fall of the normal force between two successive peaks, as a share of the
/// lower peak (0: no dip, 1: the force returns to zero).
double deepestDip(const Impact& impact) {
  double deepest = 0.0;
  for (size_t k = 0; k + 1 < impact.peaks.size(); ++k) {
    const size_t a = impact.peaks[k], b = impact.peaks[k + 1];
    double low = impact.contact[a].normal;
    for (size_t i = a; i <= b; ++i) low = std::min(low, impact.contact[i].normal);
    const double lower = std::min(impact.contact[a].normal, impact.contact[b].normal);
    deepest = std::max(deepest, 1.0 - low / lower);
  }
  return deepest;
}

TEST(FlexibleImpact, TheTipStrikesAtThePapersVelocity) {
  const Impact impact = firstImpact(sceneText());
  ASSERT_FALSE(impact.contact.empty());
  // Seed 003: (-0.51646, -6.40182, -0.00378) m/s, its y our z. The scene's start angle and pad
  // height set it; 2 % in speed and 0.5 degrees in direction are what they were tuned to.
  const Vec3 paper(-0.51646, -0.00378, -6.40182);
  EXPECT_NEAR(impact.approach.norm(), paper.norm(), 0.02 * paper.norm());
  const double angle = std::acos(impact.approach.normalized().dot(paper.normalized()));
  EXPECT_LT(angle, 0.5 * M_PI / 180.0);
  EXPECT_NEAR(impact.start, 0.647, 0.1);  // the paper: 0.646663 s after the start
}

TEST(FlexibleImpact, TheContactLastsAFewMillisecondsWithMoreThanOnePeak) {
  for (const char* law : {"piecewise", "stribeck"}) {
    std::string text = sceneText();
    if (std::string(law) == "stribeck") {
      const std::string from = "friction=\"0.1\" restitution=\"0.6\" contact=\"compliant\"";
      text.replace(text.find(from), from.size(),
                   "friction=\"0.85\" restitution=\"0.6\" contact=\"compliant\"");
      const std::string piecewise = "friction_law=\"piecewise\"";
      text.replace(text.find(piecewise), piecewise.size(), "friction_law=\"stribeck\"");
    }
    SCOPED_TRACE(law);
    const Impact impact = firstImpact(text);
    ASSERT_FALSE(impact.contact.empty());
    // The paper: 3.997 ms (law I), 3.540 ms (law III); its link table was lost, so the scene's
    // arm is ours and "a few milliseconds" is 3-5 ms, sampled every 0.2 ms (20+ samples).
    const double duration = impact.end - impact.start;
    EXPECT_GT(duration, 3e-3);
    EXPECT_LT(duration, 5e-3);
    EXPECT_GE(impact.contact.size(), 15u);
    // More than one peak (the paper: three), the force falling by a fifth or more between two
    // of them - the arm's flexible modes ringing through the contact, not sampling noise.
    EXPECT_GE(impact.peaks.size(), 2u);
    EXPECT_GT(deepestDip(impact), 0.2);
  }
}

TEST(FlexibleImpact, LawIFrictionStaysWithinItsBoundAndReversesInTheImpact) {
  const Impact impact = firstImpact(sceneText());
  ASSERT_FALSE(impact.contact.empty());
  bool forward = false, backward = false;
  for (const Sample& s : impact.contact) {
    EXPECT_LE(std::abs(s.tangential), 0.1 * s.normal * (1.0 + 1e-9));  // c_f = 0.1
    forward = forward || s.tangential > 0.01 * s.normal;
    backward = backward || s.tangential < -0.01 * s.normal;
  }
  // The paper: "the sliding friction changes direction several times" within one impact.
  EXPECT_TRUE(forward && backward);
}

TEST(FlexibleImpact, SamplingTheSubStepsLeavesTheMotionAsItIs) {
  LoadedScene watched = loadScene(kScene), plain = loadScene(kScene);
  int calls = 0;
  watched.world->setSubstepObserver([&] { ++calls; });
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(watched.world->step(watched.step).ok);
    ASSERT_TRUE(plain.world->step(plain.step).ok);
  }
  EXPECT_EQ(calls, 60 * watched.world->settings().solver.substeps);
  const BodyId tip = plain.world->findBody("tip");
  EXPECT_EQ(watched.world->body(tip).position, plain.world->body(tip).position);
  EXPECT_EQ(watched.world->body(tip).linearVelocity, plain.world->body(tip).linearVelocity);
}

}  // namespace
}  // namespace impetus
