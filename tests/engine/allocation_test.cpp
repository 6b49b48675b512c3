// After warm-up a step allocates nothing (issue 10): every global operator new is counted.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "impetus/scene/scene_loader.h"
#include "impetus/scenes/closed_loop.h"
#include "impetus/scenes/hinge_chain.h"
#include "impetus/scenes/tracked_vehicle.h"

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

TEST(Allocation, JointedChainsStepWithoutAllocating) {
  World world;
  scenes::buildHingeChain(world);
  scenes::buildHingeRing(world, 20);
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

TEST(Allocation, AStackAtRestStepsWithoutAllocating) {
  World world;
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
  EXPECT_EQ(allocationsWhile(400, 1000, [&] { ASSERT_TRUE(world.step(0.01).ok); }), 0);
}

}  // namespace
}  // namespace impetus
