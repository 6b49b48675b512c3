// After warm-up a step allocates nothing (issue 10): every global operator new is counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "impetus/joints/revolute_joint.h"
#include "impetus/joints/spherical_joint.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/scenes/closed_loop.h"
#include "impetus/scenes/hinge_chain.h"
#include "impetus/scenes/tracked_vehicle.h"
#include "impetus/scheme/scheme.h"
#include "impetus/session/simulation.h"
#include "impetus/session/state_stream.h"

namespace {
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace impetus {
namespace {

/// Allocations during `steps` steps after `warmup` steps.
template <class Step>
long allocationsWhile(int warmup, int steps, Step step) {
  for (int i = 0; i < warmup; ++i) step();
  const long before = allocations.load();
  for (int i = 0; i < steps; ++i) step();
  return allocations.load() - before;
}

/// Allocations during `steps` steps of `world` (each followed by `observe()`), rehearsed: they
/// are stepped once uncounted, then again from the same state (bit for bit the same steps),
/// counted. The buffers grow to the run's busiest step, which moves with any change to the
/// solver (a solver variant once bounced a falling chain for seconds, to 20 contacts at 2.2 s,
/// long after a fixed 150-step warm-up); a fixed warm-up length would only guess it.
template <class Observe>
long allocationsInRehearsedSteps(World& world, int steps, Observe observe) {
  StateWriter start;
  world.saveState(start);
  for (int i = 0; i < steps; ++i) EXPECT_TRUE(world.step(0.01).ok);
  StateReader rewind(start.bytes());
  world.loadState(rewind);
  return allocationsWhile(0, steps, [&] {
    EXPECT_TRUE(world.step(0.01).ok);
    observe();
  });
}

TEST(Allocation, JointedChainsStepWithoutAllocating) {
  World world;
  scenes::buildHingeChain(world);
  scenes::buildHingeRing(world, 20);
  EXPECT_EQ(allocationsWhile(50, 200, [&] { ASSERT_TRUE(world.step(0.01).ok); }), 0);
}

TEST(Allocation, AChainProjectedInJointSpaceStepsWithoutAllocating) {
  WorldSettings settings;
  settings.projectTreesInJointSpace = true;
  World world(settings);
  scenes::buildHingeChain(world);
  EXPECT_EQ(allocationsWhile(50, 200, [&] { ASSERT_TRUE(world.step(0.01).ok); }), 0);
  EXPECT_GT(world.statistics().treeProjectionIterations, 0);  // it ran
}

TEST(Allocation, APendulumStepsWithoutAllocating) {
  // A double pendulum hung by a ball joint: an articulation nothing touches, stepped by
  // Runge-Kutta (Articulation::stepFree).
  World world;
  BodyId previous = World::kGround;
  for (int i = 0; i < 2; ++i) {
    RigidBodyDesc d;
    d.name = "link" + std::to_string(i);
    d.inertia = scenes::boxInertia(1.0, Vec3(0.3, 0.05, 0.05));
    d.position = Vec3(0.15 + 0.3 * i, 0, 1.0);
    const BodyId id = world.addBody(d);
    if (i == 0)
      world.addJoint<SphericalJoint>("ball", previous, id, Vec3(0, 0, 1.0));
    else
      world.addJoint<RevoluteJoint>("hinge", previous, id, Vec3(0.3, 0, 1.0), Vec3::UnitY());
    previous = id;
  }
  world.body(previous).linearVelocity = Vec3(0, 1.0, 0);
  world.updateDerived();
  EXPECT_EQ(allocationsWhile(50, 200, [&] { ASSERT_TRUE(world.step(0.01).ok); }), 0);
}

TEST(Allocation, ContactsMotorsAndTheSchemeStepWithoutAllocating) {
  LoadedScene s = loadScene(std::string(IMPETUS_SCENES_DIR) + "/tracked-vehicle.xml");
  const std::vector<double> forward{0.3, 1.0};
  EXPECT_EQ(allocationsWhile(100, 300,
                             [&] {
                               s.scheme->step(forward, s.step);
                               ASSERT_TRUE(s.world->step(s.step).ok);
                             }),
            0);
}

/// Five 0.5 m, 10 kg boxes stacked on the ground plane.
void addStack(World& world) {
  ShapeDesc ground;
  ground.type = ShapeType::Plane;
  world.addShape(World::kGround, ground);
  for (int i = 0; i < 5; ++i) {
    RigidBodyDesc d;
    d.name = "b" + std::to_string(i);
    d.mass = 10;
    d.inertia = scenes::boxInertia(10, Vec3::Constant(0.5));
    d.position = Vec3(0, 0, 0.25 + 0.5 * i);
    const BodyId id = world.addBody(d);
    ShapeDesc box;
    box.type = ShapeType::Box;
    box.size = Vec3::Constant(0.5);
    world.addShape(id, box);
  }
}

TEST(Allocation, AStackAtRestStepsWithoutAllocating) {
  World world;
  world.settings().sleep.enabled = false;  // the solver holding it up
  addStack(world);
  EXPECT_EQ(allocationsWhile(400, 1000, [&] { ASSERT_TRUE(world.step(0.01).ok); }), 0);
}

TEST(Allocation, AStackFallingAsleepAndWakenUpStepsWithoutAllocating) {
  // Every 1.5 s a push on the top box wakes the stack; it comes to rest and sleeps again. The
  // warm-up holds one such cycle.
  World world;
  addStack(world);
  int step = 0;
  bool slept = false, woke = false;
  const auto cycle = [&] {
    if (++step % 150 == 0) world.body(5).force = Vec3(50, 0, 0);
    ASSERT_TRUE(world.step(0.01).ok);
    slept = slept || world.body(5).sleeping;
    woke = woke || (slept && !world.body(5).sleeping);
  };
  EXPECT_EQ(allocationsWhile(300, 900, cycle), 0);
  EXPECT_TRUE(slept);
  EXPECT_TRUE(woke);
}

}  // namespace
}  // namespace impetus

namespace impetus {
namespace {

TEST(Allocation, TheMf4DrivesTurnsItsArmAndGraspsWithoutAllocating) {
  // The full MF-4 scene (tracks, geared arm with limits, gripper with a repeater, sensors): drive
  // forward while swinging the arm, then close the gripper and turn.
  LoadedScene s = loadScene(std::string(IMPETUS_SCENES_DIR) + "/mf4.xml");
  std::vector<double> channels(s.console.channels().size(), 0.0);  // drive.x drive.y arm.x ...
  // A 4 s cycle: warm-up runs it four times (the contact buffers grow to the most contacts: the
  // points apart follow the speeds, and the cycles' most were 12, 12, 15, 16, 16), then a fifth
  // cycle is counted.
  int step = 0;
  const auto run = [&] {
    const int phase = step++ % 400;
    channels[1] = 1.0;                         // drive forward
    channels[3] = phase % 200 < 100 ? 1 : -1;  // arm up and down
    channels[5] = phase > 150 ? 1.0 : 0.0;     // gripper closes
    channels[0] = phase > 250 ? 0.5 : 0.0;     // and turns
    s.scheme->step(channels, s.step);
    ASSERT_TRUE(s.world->step(s.step).ok);
  };
  EXPECT_EQ(allocationsWhile(1600, 400, run), 0);
}

TEST(Allocation, TheHumanoidWalkingOntoTheRampStepsWithoutAllocating) {
  // The walking controller in the step (issue 45, must-show 8): standing, then walking at full
  // stick onto the ramp - footsteps planned on the terrain by ray casts, landings, the ankle
  // cells. The 9 s are run once uncounted, then again from the saved start (the same steps).
  Simulation sim(loadScene(std::string(IMPETUS_SCENES_DIR) + "/humanoid-ramp.xml"));
  const std::vector<std::string>& names = sim.scene().console.channels();
  const size_t forward =
      size_t(std::find(names.begin(), names.end(), "walk.forward") - names.begin());
  ASSERT_LT(forward, names.size());
  const std::vector<std::uint8_t> start = sim.saveState();
  const auto walk = [&] {
    sim.channels()[forward] = sim.world().time() > 1.0 ? 1.0 : 0.0;
    ASSERT_TRUE(sim.step().ok);
  };
  for (int i = 0; i < 900; ++i) walk();
  EXPECT_GT(sim.world().body(sim.world().findBody("pelvis")).position.z(), 1.0);  // on the ramp
  sim.loadState(start);
  EXPECT_EQ(allocationsWhile(0, 900, walk), 0);
}

TEST(Allocation, ARagdollFallingOnTheGroundStepsWithoutAllocating) {
  // Ball joints, limited hinges solved as one exact tree (EqualityTree), contacts coming and
  // going as the limbs land: the tree's buffers are reused once they have grown.
  World world;
  ShapeDesc ground;
  ground.type = ShapeType::Plane;
  world.addShape(World::kGround, ground);
  BodyId previous = World::kGround;
  for (int i = 0; i < 6; ++i) {  // a limp 6-link chain of capsules and boxes, pinned at one end
    RigidBodyDesc d;
    d.name = "limb" + std::to_string(i);
    d.mass = 1.0 + i;
    d.inertia = scenes::boxInertia(d.mass, Vec3(0.3, 0.08, 0.08));
    d.position = Vec3(0.3 * i + 0.15, 0, 0.6);
    const BodyId id = world.addBody(d);
    ShapeDesc box;
    box.size = Vec3(0.3, 0.08, 0.08);
    world.addShape(id, box);
    if (i % 2 == 0) {
      world.addJoint<SphericalJoint>("ball" + std::to_string(i), previous, id,
                                     Vec3(0.3 * i, 0, 0.6));
    } else {
      auto& hinge = world.addJoint<RevoluteJoint>("hinge" + std::to_string(i), previous, id,
                                                  Vec3(0.3 * i, 0, 0.6), Vec3::UnitY());
      hinge.limit = {true, -1.0, 1.0};
    }
    previous = id;
  }
  int mostContacts = 0;
  EXPECT_EQ(
      allocationsInRehearsedSteps(
          world, 300, [&] { mostContacts = std::max(mostContacts, world.statistics().contacts); }),
      0);
  EXPECT_GE(mostContacts, 10);  // the limbs land: contacts came and went while counted
}

TEST(Allocation, FastSmallBodiesSweptAgainstWallsStepWithoutAllocating) {
  // scenes/contact-stress.xml: bodies swept against box and mesh walls (continuous collision),
  // capsules, boxes and cylinders on triangles, small objects landing.
  LoadedScene s = loadScene(std::string(IMPETUS_SCENES_DIR) + "/contact-stress.xml");
  World& world = *s.world;
  int swept = 0;
  EXPECT_EQ(
      allocationsInRehearsedSteps(world, 300, [&] { swept += world.statistics().sweptBodies; }), 0);
  EXPECT_GT(swept, 0);  // continuous collision ran while counted
}

TEST(Allocation, TheIkBlockSolvesWithoutAllocating) {
  // A two-link arm teleoperated through the scheme's ik block (tree coordinates + IK each step).
  World world;
  RigidBodyDesc d;
  d.name = "upper";
  d.position = Vec3(0.2, 0, 0.5);
  const BodyId upper = world.addBody(d);
  d.name = "fore";
  d.position = Vec3(0.5, 0, 0.4);
  d.orientation = Quat(Eigen::AngleAxisd(0.5, Vec3::UnitY()));
  const BodyId fore = world.addBody(d);
  world.addJoint<RevoluteJoint>("shoulder", World::kGround, upper, Vec3(0, 0, 0.5), Vec3::UnitY());
  world.addJoint<RevoluteJoint>("elbow", upper, fore, Vec3(0.4, 0, 0.5), Vec3::UnitY());
  SchemeDesc desc;
  BlockDesc jog;
  jog.type = "input";
  jog.name = "jog";
  jog.params = {{"channel", "jog"}};
  BlockDesc ik;
  ik.type = "ik";
  ik.name = "ik";
  ik.params = {{"tip", "fore"}, {"point", "0.15 0 0"}};
  ik.inputs = {{"x", "jog"}, {"y", "jog"}, {"z", "jog"}};
  desc.blocks = {jog, ik};
  Scheme scheme = Scheme::compile(desc, world, {"jog"});
  const double channel[1] = {0.02};
  EXPECT_EQ(allocationsWhile(10, 200,
                             [&] {
                               scheme.step(channel, 0.01);
                               ASSERT_TRUE(world.step(0.01).ok);
                             }),
            0);
  EXPECT_NE(scheme.signal("ik.shoulder"), 0.0);  // it really solved
}

TEST(Allocation, TheHumanoidWithItsWalkingControllerStepsWithoutAllocating) {
  // scenes/humanoid.xml: 31 servoed gearmotors, the walking block (tree kinematics, leg inverse
  // kinematics, the capture-point plan) in every step; standing, then the first steps forward.
  Simulation sim(loadScene(std::string(IMPETUS_SCENES_DIR) + "/humanoid.xml"));
  const std::vector<std::string> channels = sim.scene().console.channels();
  const auto forward = std::find(channels.begin(), channels.end(), "walk.forward");
  ASSERT_NE(forward, channels.end());
  const size_t forwardIndex = static_cast<size_t>(forward - channels.begin());
  const auto run = [&] {
    for (int i = 0; i < 250; ++i) {
      sim.channels()[forwardIndex] = i < 50 ? 0.0 : 1.0;
      EXPECT_TRUE(sim.step().ok);
    }
  };
  const std::vector<std::uint8_t> start = sim.saveState();
  run();  // rehearsal: the buffers grow to the busiest step
  sim.loadState(start);
  EXPECT_EQ(allocationsWhile(0, 1, run), 0);
}

}  // namespace
}  // namespace impetus
