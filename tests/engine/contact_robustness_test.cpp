// Contacts that never let go: every primitive shape from 1 cm to 1 m rests on every kind of static
// surface, whether placed there or dropped from up to 3 m; bodies thrown at thin walls and at the
// floor at up to 100 m/s never end on the far side, and rebound with e times their normal speed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "impetus/dynamics/world.h"
#include "impetus/scene/scene_loader.h"
#include "scene/geom_inertia.h"

namespace impetus {
namespace {

constexpr double kDt = 0.01;

enum class Surface { Plane, FixedBox, Mesh, Heightfield };
enum class Shape { Box, Sphere, Capsule, Cylinder };

std::string name(Surface s) {
  switch (s) {
    case Surface::Plane:
      return "Plane";
    case Surface::FixedBox:
      return "FixedBox";
    case Surface::Mesh:
      return "Mesh";
    case Surface::Heightfield:
      return "Heightfield";
  }
  return "?";
}
std::string name(Shape s) {
  switch (s) {
    case Shape::Box:
      return "Box";
    case Shape::Sphere:
      return "Sphere";
    case Shape::Capsule:
      return "Capsule";
    case Shape::Cylinder:
      return "Cylinder";
  }
  return "?";
}

/// A static floor whose top is the z = 0 plane over at least 8 x 8 m around the origin.
void addSurface(World& world, Surface surface, int material = 0) {
  RigidBodyDesc d;
  d.name = "floor";
  d.type = BodyType::Static;
  ShapeDesc s;
  s.material = material;
  switch (surface) {
    case Surface::Plane:
      s.type = ShapeType::Plane;
      break;
    case Surface::FixedBox:  // a slab 0.5 m thick
      s.type = ShapeType::Box;
      s.size = {8.0, 8.0, 0.5};
      d.position = {0.0, 0.0, -0.25};
      break;
    case Surface::Mesh:  // 2 x 2 cells of 4 m, 8 triangles
      s.type = ShapeType::Mesh;
      for (int j = 0; j <= 2; ++j)
        for (int i = 0; i <= 2; ++i) s.vertices.emplace_back(-4.0 + 4.0 * i, -4.0 + 4.0 * j, 0.0);
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) {
          const int v = 3 * j + i;
          s.triangles.insert(s.triangles.end(), {v, v + 1, v + 4, v, v + 4, v + 3});
        }
      break;
    case Surface::Heightfield:  // 9 x 9 samples 1 m apart, flat
      s.type = ShapeType::Heightfield;
      s.rows = s.columns = 9;
      s.cellSize = 1.0;
      s.heights.assign(81, 0.0);
      break;
  }
  const BodyId floor = world.addBody(d);
  world.addShape(floor, s);
}

/// A body of `shape` and size `size` (a box's edge, a sphere's or cylinder's diameter, a
/// capsule's width; the capsule lies along x, the cylinder stands), 1 kg, at `position`.
/// Resting on z = 0, its centre is at half its size.
BodyId addShapeBody(World& world, Shape shape, double size, const Vec3& position, int material = 0,
                    const Vec3& velocity = Vec3::Zero()) {
  ShapeDesc s;
  s.material = material;
  switch (shape) {
    case Shape::Box:
      s.type = ShapeType::Box;
      s.size = Vec3::Constant(size);
      break;
    case Shape::Sphere:
      s.type = ShapeType::Sphere;
      s.radius = 0.5 * size;
      break;
    case Shape::Capsule:
      s.type = ShapeType::Capsule;
      s.radius = 0.5 * size;
      s.length = size;
      s.orientation = Quat(Eigen::AngleAxisd(0.5 * M_PI, Vec3::UnitY()));
      break;
    case Shape::Cylinder:
      s.type = ShapeType::Cylinder;
      s.radius = 0.5 * size;
      s.length = size;
      break;
  }
  RigidBodyDesc d;
  d.name = "body";
  d.mass = 1.0;
  std::string problem;
  EXPECT_TRUE(inertiaFromGeoms({s}, d.mass, d.inertia, problem)) << problem;
  d.position = position;
  d.linearVelocity = velocity;
  const BodyId id = world.addBody(d);
  world.addShape(id, s);
  return id;
}

using ShapeOnSurface = std::tuple<Surface, Shape>;

std::string caseName(const ::testing::TestParamInfo<ShapeOnSurface>& info) {
  return name(std::get<0>(info.param)) + "_" + name(std::get<1>(info.param));
}

class RestsOnTheSurface : public ::testing::TestWithParam<ShapeOnSurface> {};

// Every size from 1 cm to 1 m, placed resting or dropped from up to 3 m (7.7 m/s, 7.7 cm a step:
// more than the 5 cm speculative reach and than the smallest bodies), rests within 1 mm of its
// resting height after 2 s and holds still (a resting contact sinks by the 0.1 mm slop; 1 mm is
// ten times that and a tenth of the smallest body). Boxes of 3-4.5 cm used to sink to z < 0:
// their four corners, closer than the 5 cm point-matching distance, replaced one another.
TEST_P(RestsOnTheSurface, Within1mmAfter2sFromAnyHeight) {
  const auto [surface, shape] = GetParam();
  for (const double size : {0.01, 0.02, 0.03, 0.04, 0.045, 0.1, 0.3, 1.0})
    for (const double drop : {0.0, 0.1, 1.0, 3.0}) {
      SCOPED_TRACE(testing::Message() << "size " << size << " m, dropped from " << drop << " m");
      World world;
      addSurface(world, surface);
      const double rest = 0.5 * size;
      // Off the mesh's and heightfield's vertices and edges: a face's interior.
      const BodyId body = addShapeBody(world, shape, size, {0.31, 0.17, rest + drop});
      for (int i = 0; i < 200; ++i) ASSERT_TRUE(world.step(kDt).ok);
      const RigidBody& b = world.body(body);
      EXPECT_NEAR(b.position.z(), rest, 1e-3) << "sank or floated";
      EXPECT_LT(b.linearVelocity.norm(), 1e-2) << "still moving after 2 s";
    }
}

INSTANTIATE_TEST_SUITE_P(Grid, RestsOnTheSurface,
                         ::testing::Combine(::testing::Values(Surface::Plane, Surface::FixedBox,
                                                              Surface::Mesh, Surface::Heightfield),
                                            ::testing::Values(Shape::Box, Shape::Sphere,
                                                              Shape::Capsule, Shape::Cylinder)),
                         caseName);

/// A static wall `thickness` thick, 4 x 4 m, its faces normal to x, centred at x = 1: a box, or
/// the same box as a closed triangle mesh.
void addWall(World& world, bool mesh, double thickness, int material) {
  RigidBodyDesc d;
  d.name = "wall";
  d.type = BodyType::Static;
  d.position = {1.0, 0.0, 0.0};
  const BodyId wall = world.addBody(d);
  ShapeDesc s;
  s.material = material;
  if (mesh) {
    s.type = ShapeType::Mesh;
    const double h = 0.5 * thickness;
    for (int i = 0; i < 8; ++i)
      s.vertices.emplace_back(i & 1 ? h : -h, i & 2 ? 2.0 : -2.0, i & 4 ? 2.0 : -2.0);
    // Counter-clockwise seen from outside: mesh faces are one-sided.
    s.triangles = {0, 6, 2, 0, 4, 6, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                   2, 7, 3, 2, 6, 7, 0, 3, 1, 0, 2, 3, 4, 5, 7, 4, 7, 6};
  } else {
    s.type = ShapeType::Box;
    s.size = {thickness, 4.0, 4.0};
  }
  world.addShape(wall, s);
}

using WallCase = std::tuple<bool /*mesh*/, Shape>;

std::string wallCaseName(const ::testing::TestParamInfo<WallCase>& info) {
  return std::string(std::get<0>(info.param) ? "MeshWall_" : "BoxWall_") +
         name(std::get<1>(info.param));
}

class ThrownAtAWall : public ::testing::TestWithParam<WallCase> {};

// Bodies of 1-10 cm thrown at 1-100 m/s (up to 1 m a step, 100 times the thinnest wall) at walls
// 1-5 cm thick never end on the far side; with restitution e = 0.5 they leave at e times their
// speed within 5 % (they arrive head-on: all of it is normal speed), with e = 0 they stay at the
// wall. No gravity: the throw is the only motion.
TEST_P(ThrownAtAWall, NeverEndsBeyondItAndReboundsWithRestitution) {
  const auto [mesh, shape] = GetParam();
  for (const double thickness : {0.01, 0.02, 0.05})
    for (const double size : {0.01, 0.05, 0.1})
      for (const double speed : {1.0, 5.0, 10.0, 20.0, 50.0, 100.0})
        for (const double e : {0.0, 0.5}) {
          SCOPED_TRACE(testing::Message() << "wall " << thickness << " m, body " << size << " m at "
                                          << speed << " m/s, e = " << e);
          World world;
          world.settings().gravity = Vec3::Zero();
          const int m = world.materials().add({"m", 0.5, e, 0.0, 0.0, {}});
          addWall(world, mesh, thickness, m);
          const BodyId body = addShapeBody(world, shape, size, Vec3::Zero(), m, {speed, 0, 0});
          for (int i = 0; i < 100; ++i) ASSERT_TRUE(world.step(kDt).ok);
          const RigidBody& b = world.body(body);
          EXPECT_LT(b.position.x() + 0.5 * size, 1.0 - 0.5 * thickness + 1e-3)
              << "went in or through";
          EXPECT_NEAR(-b.linearVelocity.x(), e * speed, 0.05 * speed * std::max(e, 0.1));
        }
}

INSTANTIATE_TEST_SUITE_P(
    Walls, ThrownAtAWall,
    ::testing::Values(WallCase{false, Shape::Box}, WallCase{false, Shape::Sphere},
                      WallCase{false, Shape::Capsule}, WallCase{false, Shape::Cylinder},
                      WallCase{true, Shape::Box}, WallCase{true, Shape::Sphere},
                      WallCase{true, Shape::Capsule}, WallCase{true, Shape::Cylinder}),
    wallCaseName);

class ThrownAtTheFloor : public ::testing::TestWithParam<ShapeOnSurface> {};

// Thrown straight down at 1-100 m/s from 1 m (no gravity; 1.5 s): never ends under the floor; with
// e = 0.5 it leaves the floor at half its arrival speed within 5 % (the first rebound's peak
// velocity).
TEST_P(ThrownAtTheFloor, NeverEndsUnderItAndReboundsWithRestitution) {
  const auto [surface, shape] = GetParam();
  for (const double size : {0.01, 0.05, 0.1})
    for (const double speed : {1.0, 10.0, 30.0, 100.0}) {
      SCOPED_TRACE(testing::Message() << "body " << size << " m at " << speed << " m/s");
      World world;
      world.settings().gravity = Vec3::Zero();
      const int m = world.materials().add({"m", 0.5, 0.5, 0.0, 0.0, {}});
      addSurface(world, surface, m);
      const BodyId body = addShapeBody(world, shape, size, {0.31, 0.17, 1.0}, m, {0, 0, -speed});
      for (int i = 0; i < 150; ++i) ASSERT_TRUE(world.step(kDt).ok);
      const RigidBody& b = world.body(body);
      EXPECT_GT(b.position.z(), 0.5 * size - 1e-3) << "went under the floor";
      EXPECT_NEAR(b.linearVelocity.z(), 0.5 * speed, 0.05 * 0.5 * speed);
    }
}

INSTANTIATE_TEST_SUITE_P(Floors, ThrownAtTheFloor,
                         ::testing::Combine(::testing::Values(Surface::Plane, Surface::FixedBox,
                                                              Surface::Mesh, Surface::Heightfield),
                                            ::testing::Values(Shape::Box, Shape::Sphere,
                                                              Shape::Capsule)),
                         caseName);

// Authored overlapping (or teleported): a 10 cm box or ball put deep into the floor comes out on
// the side its centre is nearer - the top of a 0.5 m slab from 10 cm in, the outside of a
// plane from 30 cm below it, the top of a mesh or heightfield from 1 cm under its surface (their
// faces are one-sided) - smoothly: the position pass moves it, no velocity is made (< 0.1 m/s).
TEST(DeepPenetration, ResolvedToTheNearSideSmoothly) {
  const struct {
    Surface surface;
    Shape shape;
    double centre;  // the body's centre height (m); its rest height is 0.05
  } cases[] = {
      {Surface::Plane, Shape::Box, -0.3},        {Surface::Plane, Shape::Sphere, -0.3},
      {Surface::FixedBox, Shape::Box, -0.1},     {Surface::FixedBox, Shape::Sphere, -0.1},
      {Surface::Mesh, Shape::Box, -0.01},        {Surface::Mesh, Shape::Capsule, -0.01},
      {Surface::Heightfield, Shape::Box, -0.01}, {Surface::Heightfield, Shape::Sphere, -0.01}};
  for (const auto& c : cases) {
    SCOPED_TRACE(name(c.surface) + " " + name(c.shape));
    World world;
    addSurface(world, c.surface);
    const BodyId body = addShapeBody(world, c.shape, 0.1, {0.31, 0.17, c.centre});
    double fastest = 0.0;
    for (int i = 0; i < 300; ++i) {
      ASSERT_TRUE(world.step(kDt).ok);
      fastest = std::max(fastest, world.body(body).linearVelocity.norm());
    }
    EXPECT_NEAR(world.body(body).position.z(), 0.05, 2e-3);
    EXPECT_LT(fastest, 0.1);
  }
}

// A 1 cm ball shot at 50 m/s (50 cm a step) at a free 20 cm box standing on the floor: swept
// against moving bodies only when marked a bullet. Without, it passes the box, as in every
// engine that sweeps only against the static world; with, it stops at the box and shoves it.
TEST(ContinuousCollision, ABulletHitsAMovingBodyAnOrdinaryBodyPassesIt) {
  for (const bool bullet : {false, true}) {
    SCOPED_TRACE(bullet ? "bullet" : "not a bullet");
    World world;
    world.settings().sleep.enabled = false;
    addSurface(world, Surface::Plane);
    const BodyId plate = addShapeBody(world, Shape::Box, 0.2, {1.0, 0.0, 0.1});
    RigidBodyDesc d;
    d.name = "ball";
    d.mass = 0.004;
    d.inertia = Mat3::Identity() * 0.4 * d.mass * 0.005 * 0.005;
    d.position = {0.0, 0.0, 0.1};
    d.linearVelocity = {50.0, 0.0, 0.0};
    d.bullet = bullet;
    const BodyId ball = world.addBody(d);
    ShapeDesc s;
    s.type = ShapeType::Sphere;
    s.radius = 0.005;
    world.addShape(ball, s);
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(world.step(kDt).ok);
    const double ballX = world.body(ball).position.x(), plateX = world.body(plate).position.x();
    if (bullet) {
      EXPECT_LT(ballX, plateX) << "passed the plate";
      EXPECT_GT(plateX, 1.0 + 1e-4) << "the hit did not shove the box";
    } else {
      EXPECT_GT(ballX, plateX) << "an ordinary body is not swept against moving ones";
    }
  }
}

// The stress scene (scenes/contact-stress.xml) for 10 s: no body ever ends a step under the
// floor or in or beyond a wall; what was dropped and stacked ends resting where it should.
TEST(ContactStressScene, NothingEndsUnderTheFloorOrInAWall) {
  LoadedScene s = loadScene(std::string(IMPETUS_SCENES_DIR) + "/contact-stress.xml");
  World& world = *s.world;
  int swept = 0;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(world.step(kDt).ok);
    swept += world.statistics().sweptBodies;
    for (BodyId id = 0; id < world.bodyCount(); ++id) {
      const RigidBody& b = world.body(id);
      if (!b.isDynamic()) continue;
      ASSERT_GT(b.position.z(), 0.0) << b.name << " under the floor at step " << i;
      // Between the mesh wall's face (x = -2.99) and the 1 cm wall's (x = 2.995).
      ASSERT_GT(b.position.x(), -2.99) << b.name << " in or beyond the mesh wall at step " << i;
      ASSERT_LT(b.position.x(), 2.995) << b.name << " in or beyond the 1 cm wall at step " << i;
    }
  }
  EXPECT_GT(swept, 0) << "no body was fast enough to be swept: the scene lost its point";
  const auto z = [&](const char* name) { return world.body(world.findBody(name)).position.z(); };
  EXPECT_NEAR(z("stack_4"), 0.18, 1e-3);
  EXPECT_NEAR(z("box_1cm"), 0.005, 1e-3);
  EXPECT_NEAR(z("box_2cm"), 0.01, 1e-3);
  EXPECT_NEAR(z("box_3cm"), 0.015, 1e-3);
  EXPECT_NEAR(z("box_4cm"), 0.02, 1e-3);
  EXPECT_NEAR(z("ball_1cm"), 0.005, 1e-3);
}

}  // namespace
}  // namespace impetus
