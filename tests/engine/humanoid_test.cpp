// The walking humanoid (scenes/humanoid.xml, issue "walking humanoid"): its drives, its model and
// its onboard controller, checked as the operator would see them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "impetus/probes/probe.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/simulation.h"

namespace impetus {
namespace {

const std::string kScenes = IMPETUS_SCENES_DIR;

/// The four bottom corners of a foot's sole (robots/humanoid.xml: a 0.24 x 0.13 x 0.04 m box
/// whose centre is 0.02 m below the foot's centre of mass), world frame.
std::array<Vec3, 4> soleCorners(const World& world, const std::string& foot) {
  const RigidBody& b = world.body(world.findBody(foot));
  std::array<Vec3, 4> corners;
  for (int k = 0; k < 4; ++k)
    corners[size_t(k)] =
        b.position + b.rotation * Vec3((k & 1) ? 0.12 : -0.12, (k & 2) ? 0.065 : -0.065, -0.04);
  return corners;
}

TEST(Humanoid, StandsAMinuteWithNoInputWithoutSwayingSlidingOrSinking) {
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  World& world = sim.world();
  const Probe state = resolveProbe(world, &*sim.scene().scheme, "scheme.gait.state");
  const Vec3 pelvis0 = world.body(world.findBody("pelvis")).position;
  const std::array<std::array<Vec3, 4>, 2> corners0 = {soleCorners(world, "foot_l"),
                                                       soleCorners(world, "foot_r")};
  double pelvisMove = 0.0, slide = 0.0, sink = 0.0;
  for (int i = 0; i < 6000; ++i) {
    ASSERT_TRUE(sim.step().ok) << "step " << i;
    ASSERT_EQ(state(), 0.0) << "standing at step " << i;
    pelvisMove =
        std::max(pelvisMove, (world.body(world.findBody("pelvis")).position - pelvis0).norm());
    for (int f = 0; f < 2; ++f) {
      const auto corners = soleCorners(world, f == 0 ? "foot_l" : "foot_r");
      for (int k = 0; k < 4; ++k) {
        const Vec3 d = corners[size_t(k)] - corners0[size_t(f)][size_t(k)];
        slide = std::max(slide, d.head<2>().norm());
        sink = std::max(sink, -corners[size_t(k)].z());
      }
    }
  }
  std::printf("standing 60 s: pelvis moved %.2f mm, soles slid %.4f mm, sank %.4f mm\n",
              pelvisMove * 1e3, slide * 1e3, sink * 1e3);
  EXPECT_LT(pelvisMove, 0.01);  // the bounds
  EXPECT_LT(slide, 0.001);
  EXPECT_LT(sink, 0.002);
}

TEST(Humanoid, EveryJointIsDrivenByAGearmotorUnderServoControl) {
  Simulation sim(loadScene(kScenes + "/humanoid.xml"));
  World& world = sim.world();
  ASSERT_TRUE(sim.step().ok);
  int driven = 0;
  for (int j = 0; j < world.jointCount(); ++j) {
    const Joint& joint = world.joint(j);
    if (joint.type() == JointType::Fixed) continue;
    ASSERT_FALSE(joint.drives().empty()) << joint.name() << " has no drive";
    const DcMotor& m = *joint.drives()[0].motor;
    // Jaws follow their gripper motor (one motor, a repeater: seed 001); all others are servoed.
    if (joint.name().rfind("jaw_", 0) == 0) continue;
    EXPECT_TRUE(m.servoActive()) << joint.name();
    ++driven;
  }
  EXPECT_EQ(driven, 12 + 3 + 14);  // legs, waist and neck, arms
}

}  // namespace
}  // namespace impetus
