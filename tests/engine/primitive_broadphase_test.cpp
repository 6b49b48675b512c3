// The primitive bodies' sweep-and-prune broadphase (engine/src/contact/primitive_broadphase.h):
// shape boxes against hand-computed extents, and the pairs it reports against every pair tested.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>

#include "contact/primitive_broadphase.h"

namespace impetus {
namespace {

ShapeDesc shape(ShapeType type) {
  ShapeDesc s;
  s.type = type;
  return s;
}

TEST(PrimitiveBroadphase, BoxOfARotatedBoxCapsuleAndSphere) {
  const Mat3 turn45z = Eigen::AngleAxisd(M_PI / 4, Vec3::UnitZ()).toRotationMatrix();
  ShapeDesc box = shape(ShapeType::Box);
  box.size = Vec3(2.0, 2.0, 1.0);
  // A 2 x 2 square turned 45 deg reaches sqrt(2) along x and y; 0.5 along z; plus the margin.
  WorldBox b = primitiveBox(box, {Vec3(1, 2, 3), turn45z}, 0.1);
  EXPECT_NEAR(b.max.x() - 1.0, std::sqrt(2.0) + 0.1, 1e-12);
  EXPECT_NEAR(b.min.y() - 2.0, -std::sqrt(2.0) - 0.1, 1e-12);
  EXPECT_NEAR(b.max.z() - 3.0, 0.6, 1e-12);
  // A capsule lies along its local z: turned onto x, its 1 m segment and 0.2 m radius reach
  // 0.7 m along x and 0.2 m across.
  ShapeDesc capsule = shape(ShapeType::Capsule);
  capsule.radius = 0.2;
  capsule.length = 1.0;
  const Mat3 zOntoX = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()).toRotationMatrix();
  b = primitiveBox(capsule, {Vec3::Zero(), zOntoX}, 0.0);
  EXPECT_NEAR(b.max.x(), 0.7, 1e-12);
  EXPECT_NEAR(b.max.y(), 0.2, 1e-12);
  EXPECT_NEAR(b.min.z(), -0.2, 1e-12);
  ShapeDesc sphere = shape(ShapeType::Sphere);
  sphere.radius = 0.3;
  b = primitiveBox(sphere, {Vec3(0, 0, 1), Mat3::Identity()}, 0.05);
  EXPECT_NEAR(b.min.z(), 0.65, 1e-12);
  EXPECT_NEAR(b.max.x(), 0.35, 1e-12);
  // A plane is unbounded.
  b = primitiveBox(shape(ShapeType::Plane), {}, 0.05);
  EXPECT_FALSE(std::isfinite(b.min.x()));
  EXPECT_FALSE(std::isfinite(b.max.z()));
}

using Pairs = std::set<std::pair<int, int>>;

Pairs reported(const PrimitiveBroadphase& broadphase) {
  Pairs pairs;
  broadphase.forEachOverlap([&](int i, int j) {
    EXPECT_NE(i, j);
    EXPECT_TRUE(pairs.insert({std::min(i, j), std::max(i, j)}).second) << "pair reported twice";
  });
  return pairs;
}

Pairs overlapping(const std::vector<WorldBox>& boxes) {
  Pairs pairs;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i)
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j) {
      const WorldBox &a = boxes[size_t(i)], &b = boxes[size_t(j)];
      if ((a.min.array() <= b.max.array()).all() && (b.min.array() <= a.max.array()).all())
        pairs.insert({i, j});
    }
  return pairs;
}

TEST(PrimitiveBroadphase, ReportsExactlyTheOverlappingPairsAsBoxesMove) {
  // 60 boxes drifting through a 2 m cube, two planes among them: after each move the sweep (its
  // order kept from the move before) reports every overlapping pair once and no other.
  std::mt19937 random(7);
  std::uniform_real_distribution<double> place(0.0, 2.0), size(0.02, 0.3), drift(-0.05, 0.05);
  std::vector<WorldBox> boxes(60);
  for (WorldBox& b : boxes) {
    b.min = Vec3(place(random), place(random), place(random));
    b.max = b.min + Vec3(size(random), size(random), size(random));
  }
  const WorldBox plane = primitiveBox(shape(ShapeType::Plane), {}, 0.05);
  boxes[10] = plane;
  boxes[41] = plane;
  PrimitiveBroadphase broadphase;
  size_t total = 0;
  for (int step = 0; step < 20; ++step) {
    broadphase.setBoxes(boxes);
    const Pairs expected = overlapping(boxes);
    ASSERT_EQ(reported(broadphase), expected) << "step " << step;
    total += expected.size();
    for (WorldBox& b : boxes) {
      if (!std::isfinite(b.min.x())) continue;
      const Vec3 move(drift(random), drift(random), drift(random));
      b.min += move;
      b.max += move;
    }
  }
  // The planes pair with everything (2 x 58 + 1 a step); the rest is the boxes' own overlaps.
  EXPECT_GT(total, 20u * (2u * 58u + 1u));
}

TEST(PrimitiveBroadphase, NewItemsJoinTheSweep) {
  PrimitiveBroadphase broadphase;
  std::vector<WorldBox> boxes(2);
  boxes[0] = {Vec3::Zero(), Vec3::Ones()};
  boxes[1] = {Vec3::Constant(0.5), Vec3::Constant(1.5)};
  broadphase.setBoxes(boxes);
  EXPECT_EQ(reported(broadphase), (Pairs{{0, 1}}));
  boxes.push_back({Vec3::Constant(1.2), Vec3::Constant(2.0)});
  broadphase.reset();
  broadphase.setBoxes(boxes);
  EXPECT_EQ(reported(broadphase), (Pairs{{0, 1}, {1, 2}}));
}

}  // namespace
}  // namespace impetus
