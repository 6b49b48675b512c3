// The closed-form contact points of primitive shape pairs (engine/src/contact/
// primitive_contacts.h) against hand-computed geometry.
#include <gtest/gtest.h>

#include <cmath>

#include "contact/primitive_contacts.h"

namespace impetus {
namespace {

constexpr double kMargin = 0.05;  // m, the collision world's speculative reach

ShapeDesc box(const Vec3& size) {
  ShapeDesc s;
  s.type = ShapeType::Box;
  s.size = size;
  return s;
}
ShapeDesc sphere(double r) {
  ShapeDesc s;
  s.type = ShapeType::Sphere;
  s.radius = r;
  return s;
}
ShapeDesc capsule(double r, double length) {
  ShapeDesc s;
  s.type = ShapeType::Capsule;
  s.radius = r;
  s.length = length;
  return s;
}
ShapeDesc plane() {
  ShapeDesc s;
  s.type = ShapeType::Plane;
  return s;
}
ShapePose at(const Vec3& p, const Mat3& r = Mat3::Identity()) {
  return {p, r};
}
Mat3 turn(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// Every point: normal unit, separation = n . (B - A), A and B differ only along n.
void expectConsistent(const PrimitiveContacts& c, int count) {
  for (int i = 0; i < count; ++i) {
    const PrimitiveContact& p = c[size_t(i)];
    EXPECT_NEAR(p.normal.norm(), 1.0, 1e-12);
    EXPECT_NEAR(p.normal.dot(p.pointB - p.pointA), p.separation, 1e-12);
    EXPECT_LT((p.pointB - p.pointA - p.separation * p.normal).norm(), 1e-12);
  }
}

TEST(PrimitiveContacts, BoxRestingOnAPlaneTouchesAtItsFourBottomCorners) {
  PrimitiveContacts c;
  const Mat3 yaw = turn(0.3, Vec3::UnitZ());
  const int n = collidePrimitives(plane(), at(Vec3::Zero()), box(Vec3(0.4, 0.2, 0.1)),
                                  at(Vec3(1, 2, 0.05 - 0.001), yaw), kMargin, c);
  ASSERT_EQ(n, 4);
  expectConsistent(c, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(c[size_t(i)].separation, -0.001, 1e-12);
    EXPECT_TRUE(c[size_t(i)].normal.isApprox(Vec3::UnitZ()));
    EXPECT_NEAR(c[size_t(i)].pointA.z(), 0.0, 1e-12);  // on the plane
    // A bottom corner: 0.2 / 0.1 from the centre in the box's own axes.
    const Vec3 local = yaw.transpose() * (c[size_t(i)].pointB - Vec3(1, 2, 0.049));
    EXPECT_NEAR(std::abs(local.x()), 0.2, 1e-12);
    EXPECT_NEAR(std::abs(local.y()), 0.1, 1e-12);
  }
}

TEST(PrimitiveContacts, BoxTiltedOnAnEdgeTouchesAtTwoCornersAndTheOrderSwaps) {
  // A 0.5 m cube turned 30 degrees about x, its lowest edge 1 cm above the ground.
  const double a = M_PI / 6, h = 0.25;
  const double lowest = h * (std::cos(a) + std::sin(a));  // centre height above its lowest edge
  PrimitiveContacts c;
  const ShapePose cube = at(Vec3(0, 0, lowest + 0.01), turn(a, Vec3::UnitX()));
  int n = collidePrimitives(plane(), at(Vec3::Zero()), box(Vec3::Constant(0.5)), cube, kMargin, c);
  ASSERT_EQ(n, 2);  // the next corners are 0.5 sin 30 = 25 cm up: beyond the margin
  for (int i = 0; i < n; ++i) EXPECT_NEAR(c[size_t(i)].separation, 0.01, 1e-12);
  n = collidePrimitives(box(Vec3::Constant(0.5)), cube, plane(), at(Vec3::Zero()), kMargin, c);
  ASSERT_EQ(n, 2);
  expectConsistent(c, n);
  EXPECT_TRUE(c[0].normal.isApprox(-Vec3::UnitZ()));  // from the box (A) down to the plane (B)
  EXPECT_NEAR(c[0].pointB.z(), 0.0, 1e-12);
}

TEST(PrimitiveContacts, BoxOnABoxFaceGetsTheCornersOfTheOverlap) {
  // A 1 m cube resting on a 1 m slab, shifted 0.7 m along x: the overlap is 0.3 x 1 m.
  PrimitiveContacts c;
  const int n = collidePrimitives(box(Vec3(1, 1, 0.2)), at(Vec3::Zero()), box(Vec3::Ones()),
                                  at(Vec3(0.7, 0, 0.6)), kMargin, c);
  ASSERT_EQ(n, 4);
  expectConsistent(c, n);
  double xs[2] = {1e9, -1e9}, ys[2] = {1e9, -1e9};
  for (int i = 0; i < n; ++i) {
    const PrimitiveContact& p = c[size_t(i)];
    EXPECT_NEAR(p.separation, 0.0, 1e-12);
    EXPECT_TRUE(p.normal.isApprox(Vec3::UnitZ()));
    xs[0] = std::min(xs[0], p.pointA.x()), xs[1] = std::max(xs[1], p.pointA.x());
    ys[0] = std::min(ys[0], p.pointA.y()), ys[1] = std::max(ys[1], p.pointA.y());
  }
  EXPECT_NEAR(xs[0], 0.2, 1e-12);  // the cube's left face
  EXPECT_NEAR(xs[1], 0.5, 1e-12);  // the slab's right edge
  EXPECT_NEAR(ys[0], -0.5, 1e-12);
  EXPECT_NEAR(ys[1], 0.5, 1e-12);
}

TEST(PrimitiveContacts, TwistedBoxOnABoxKeepsFourPointsSpanningTheOctagon) {
  // A cube turned 45 degrees on an equal cube: the overlap is an octagon; four of its corners
  // are kept, spread over it (each at least 0.35 m from the centre line).
  PrimitiveContacts c;
  const int n =
      collidePrimitives(box(Vec3::Ones()), at(Vec3::Zero()), box(Vec3::Ones()),
                        at(Vec3(0, 0, 1.0 - 0.002), turn(M_PI / 4, Vec3::UnitZ())), kMargin, c);
  ASSERT_EQ(n, 4);
  expectConsistent(c, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(c[size_t(i)].separation, -0.002, 1e-12);
    EXPECT_GT(c[size_t(i)].pointA.head<2>().norm(), 0.5);
  }
}

TEST(PrimitiveContacts, CrossedBoxEdgesMeetAtOnePoint) {
  // Two unit cubes, each turned 45 degrees so that an edge points at the other: A's top edge runs
  // along x, B's bottom edge along y, 1 cm apart.
  const double d = std::sqrt(0.5);  // centre to edge of a unit cube turned 45 degrees
  PrimitiveContacts c;
  const int n = collidePrimitives(
      box(Vec3::Ones()), at(Vec3::Zero(), turn(M_PI / 4, Vec3::UnitX())), box(Vec3::Ones()),
      at(Vec3(0, 0, 2 * d + 0.01), turn(M_PI / 4, Vec3::UnitY())), kMargin, c);
  ASSERT_EQ(n, 1);
  expectConsistent(c, n);
  EXPECT_NEAR(c[0].separation, 0.01, 1e-9);
  EXPECT_TRUE(c[0].normal.isApprox(Vec3::UnitZ(), 1e-9));
  EXPECT_LT((c[0].pointA - Vec3(0, 0, d)).norm(), 1e-9);
}

TEST(PrimitiveContacts, SpheresAndCapsules) {
  PrimitiveContacts c;
  // Sphere on a plane, 2 cm up.
  int n =
      collidePrimitives(plane(), at(Vec3::Zero()), sphere(0.1), at(Vec3(3, 0, 0.12)), kMargin, c);
  ASSERT_EQ(n, 1);
  EXPECT_NEAR(c[0].separation, 0.02, 1e-12);
  // Sphere beside a box face, 1 cm off; then sunk 3 cm into it (out through the nearest face).
  n = collidePrimitives(box(Vec3(1, 1, 1)), at(Vec3::Zero()), sphere(0.2), at(Vec3(0.71, 0.1, 0)),
                        kMargin, c);
  ASSERT_EQ(n, 1);
  expectConsistent(c, n);
  EXPECT_NEAR(c[0].separation, 0.01, 1e-12);
  EXPECT_TRUE(c[0].normal.isApprox(Vec3::UnitX()));
  n = collidePrimitives(sphere(0.2), at(Vec3(0, 0.47, 0.1)), box(Vec3(1, 1, 1)), at(Vec3::Zero()),
                        kMargin, c);
  ASSERT_EQ(n, 1);
  expectConsistent(c, n);
  EXPECT_NEAR(c[0].separation, -0.23, 1e-12);
  EXPECT_TRUE(c[0].normal.isApprox(-Vec3::UnitY()));  // from the sphere (A) into the box (B)
  // A capsule lying on the ground: both ends.
  n = collidePrimitives(capsule(0.05, 0.3), at(Vec3(0, 0, 0.05), turn(M_PI / 2, Vec3::UnitY())),
                        plane(), at(Vec3::Zero()), kMargin, c);
  ASSERT_EQ(n, 2);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(c[size_t(i)].separation, 0.0, 1e-12);
  // Crossed capsules: one point, axis distance minus both radii.
  n = collidePrimitives(capsule(0.05, 1.0), at(Vec3::Zero(), turn(M_PI / 2, Vec3::UnitY())),
                        capsule(0.04, 1.0), at(Vec3(0.2, 0.1, 0.1), turn(M_PI / 2, Vec3::UnitX())),
                        kMargin, c);
  ASSERT_EQ(n, 1);
  expectConsistent(c, n);
  EXPECT_NEAR(c[0].separation, 0.01, 1e-12);
  // Parallel capsules overlapping by 0.4 m along their axes: the two ends of the overlap.
  n = collidePrimitives(capsule(0.05, 1.0), at(Vec3::Zero()), capsule(0.05, 1.0),
                        at(Vec3(0.1, 0, 0.6)), kMargin, c);
  ASSERT_EQ(n, 2);
  expectConsistent(c, n);
  EXPECT_NEAR(std::abs(c[0].pointA.z() - c[1].pointA.z()), 0.4, 1e-12);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(c[size_t(i)].separation, 0.0, 1e-12);
}

TEST(PrimitiveContacts, CapsuleOnABoxRestsOnItsEndsAndAcrossAnEdgeOnItsMiddle) {
  PrimitiveContacts c;
  // Lying on a slab's top face (axis along y), 5 mm in: both end spheres.
  const ShapeDesc rod = capsule(0.1, 1.0);
  const Mat3 alongY = turn(M_PI / 2, Vec3::UnitX());
  int n = collidePrimitives(box(Vec3(2, 2, 1.2)), at(Vec3::Zero()), rod,
                            at(Vec3(0.3, 0, 0.6 + 0.1 - 0.005), alongY), kMargin, c);
  ASSERT_EQ(n, 2);
  expectConsistent(c, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(c[size_t(i)].separation, -0.005, 1e-12);
    EXPECT_TRUE(c[size_t(i)].normal.isApprox(Vec3::UnitZ()));
    EXPECT_NEAR(std::abs(c[size_t(i)].pointB.y()), 0.5, 1e-12);  // under each end
  }
  // Balanced across a box's top edge (the edge along y at x = 1, z = 0.6), axis along x, 2 cm
  // above it: the ends are 0.5 m out and far above the faces; the middle touches the edge.
  n = collidePrimitives(box(Vec3(2, 2, 1.2)), at(Vec3::Zero()), rod,
                        at(Vec3(1.0, 0, 0.6 + 0.1 + 0.02), turn(M_PI / 2, Vec3::UnitY())), kMargin,
                        c);
  ASSERT_GE(n, 1);
  expectConsistent(c, n);
  double least = 1e9;
  for (int i = 0; i < n; ++i) least = std::min(least, c[size_t(i)].separation);
  EXPECT_NEAR(least, 0.02, 1e-6);
}

TEST(PrimitiveContacts, NothingBeyondTheMargin) {
  PrimitiveContacts c;
  EXPECT_EQ(collidePrimitives(box(Vec3::Ones()), at(Vec3::Zero()), box(Vec3::Ones()),
                              at(Vec3(0, 0, 1.0 + kMargin + 0.001)), kMargin, c),
            0);
  EXPECT_EQ(collidePrimitives(plane(), at(Vec3::Zero()), capsule(0.1, 0.5),
                              at(Vec3(0, 0, 0.25 + 0.1 + kMargin + 0.001)), kMargin, c),
            0);
  EXPECT_EQ(collidePrimitives(sphere(0.1), at(Vec3::Zero()), box(Vec3::Ones()),
                              at(Vec3(0.6 + kMargin + 0.001, 0, 0)), kMargin, c),
            0);
  EXPECT_EQ(
      collidePrimitives(capsule(0.1, 1.0),
                        at(Vec3(0, 0, 0.6 + 0.1 + kMargin + 0.001), turn(M_PI / 2, Vec3::UnitX())),
                        box(Vec3(2, 2, 1.2)), at(Vec3::Zero()), kMargin, c),
      0);
  // Across a box's top edge (along y at x = 1, z = 0.6), inclined 0.1 rad so that its middle is
  // nearer the edge than either end: found just inside the margin and nothing just beyond it.
  for (const double beyond : {-0.001, 0.001}) {
    const double gap = kMargin + beyond, incline = 0.1;
    const Vec3 centre(1.0, 0.0, 0.6 + (0.1 + gap) / std::cos(incline));
    const int n = collidePrimitives(box(Vec3(2, 2, 1.2)), at(Vec3::Zero()), capsule(0.1, 1.0),
                                    at(centre, turn(M_PI / 2 + incline, Vec3::UnitY())), kMargin,
                                    c);
    ASSERT_EQ(n, beyond < 0 ? 1 : 0);
    if (n == 1) {
      EXPECT_NEAR(c[0].separation, gap, 1e-9);
    }
  }
  EXPECT_EQ(collidePrimitives(plane(), at(Vec3::Zero()), plane(), at(Vec3::Zero()), kMargin, c), 0);
  EXPECT_FALSE(isPrimitiveShape(ShapeType::ConvexHull));
  EXPECT_TRUE(isPrimitiveShape(ShapeType::Capsule) && isPrimitiveShape(ShapeType::Sphere));
}

}  // namespace
}  // namespace impetus
