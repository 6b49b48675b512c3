#include "impetus/math/convex_hull_2d.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace impetus {
namespace {

using Vec2 = Eigen::Vector2d;

/// The hull of `points` written into room for points.size() + 1, with guard slots behind it
/// that must come back untouched.
struct GuardedHull {
  static constexpr int kGuards = 4;
  std::vector<Vec2> buffer;
  int count = 0;

  explicit GuardedHull(std::vector<Vec2> points)
      : buffer(points.size() + 1 + kGuards, Vec2(42.0, 42.0)) {
    count = convexHull2d(points, std::span(buffer.data(), points.size() + 1));
  }
  bool guardsIntact() const {
    for (size_t i = buffer.size() - kGuards; i < buffer.size(); ++i)
      if (buffer[i] != Vec2(42.0, 42.0)) return false;
    return true;
  }
};

double cross(const Vec2& o, const Vec2& a, const Vec2& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

TEST(ConvexHull2d, ASquareWithPointsInsideAndOnItsEdgesIsItsFourCornersCounterClockwise) {
  std::vector<Vec2> points = {{0.5, 0.5}, {1, 1},     {0, 1}, {0.5, 0}, {1, 0.5},
                              {0, 0},     {0.2, 0.7}, {1, 0}, {0, 0.3}, {0.5, 1}};
  const GuardedHull hull(points);
  ASSERT_EQ(hull.count, 4);
  EXPECT_EQ(hull.buffer[0], Vec2(0, 0));
  EXPECT_EQ(hull.buffer[1], Vec2(1, 0));
  EXPECT_EQ(hull.buffer[2], Vec2(1, 1));
  EXPECT_EQ(hull.buffer[3], Vec2(0, 1));
  EXPECT_TRUE(hull.guardsIntact());
}

TEST(ConvexHull2d, RandomCloudsLieInsideTheirConvexCounterClockwiseHull) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<Vec2> points(size_t(3 + trial % 20));
    for (Vec2& p : points) p = Vec2(u(rng), u(rng));
    const GuardedHull hull(points);
    ASSERT_TRUE(hull.guardsIntact());
    ASSERT_GE(hull.count, 3);
    const auto vertex = [&](int i) { return hull.buffer[size_t(i % hull.count)]; };
    for (int i = 0; i < hull.count; ++i) {
      // Convex and counter-clockwise: every turn strictly left, every point on the inner side.
      EXPECT_GT(cross(vertex(i), vertex(i + 1), vertex(i + 2)), 0.0);
      for (const Vec2& p : points) EXPECT_GE(cross(vertex(i), vertex(i + 1), p), -1e-15);
    }
  }
}

TEST(ConvexHull2d, ANearlyStraightRowOfPointsStaysInItsRoom) {
  // Three contact points along a track, collinear up to rounding: the textbook monotone chain
  // kept the middle one in both chains and wrote a fifth vertex into room for four.
  const GuardedHull row({{0.25668334329737524, -1.0053741935726155},
                         {0.2431055327094592, -0.9665991998889113},
                         {0.10838801277908984, -0.5818780439587119}});
  EXPECT_TRUE(row.guardsIntact());
  EXPECT_LE(row.count, 3);
  // Rows of 3-8 points on random lines, exact up to the rounding of y = a x + b.
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200000; ++trial) {
    std::vector<Vec2> points(size_t(3 + trial % 6));
    const double a = 3.0 * u(rng), b = u(rng), x0 = u(rng);
    for (Vec2& p : points) {
      const double x = x0 + 0.1 * u(rng);
      p = Vec2(x, a * x + b);
    }
    const GuardedHull hull(points);
    ASSERT_TRUE(hull.guardsIntact()) << "trial " << trial;
    ASSERT_LE(hull.count, int(points.size()));
  }
}

TEST(ConvexHull2d, ANonFinitePointIsLeftOutWithoutWritingPastTheRoom) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (size_t at = 0; at < 5; ++at) {
    std::vector<Vec2> points = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    points.insert(points.begin() + std::ptrdiff_t(at), Vec2(nan, 0.5));
    const GuardedHull hull(points);
    EXPECT_TRUE(hull.guardsIntact()) << "NaN at " << at;
    EXPECT_LE(hull.count, int(points.size()));
  }
}

}  // namespace
}  // namespace impetus
