// The articulation's contact rows (articulation/articulation_rows.h): the exact active-set step
// on a free box landing on one edge. Its four bottom corners touch the floor, all four carrying
// last step's impulses, but the box turns so that one edge leaves the floor: the equality solve
// of all four asks those corners to pull. The step must then go as far as the bounds allow -
// the contact problem's energy, here the box's kinetic energy, falls - and repeated steps reach
// the complementary solution (pushing corners stop, the others lift off with no impulse).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "articulation/articulation.h"
#include "articulation/articulation_rows.h"

namespace impetus {
namespace {

constexpr double kMass = 2.0;                 // kg
const Vec3 kHalfExtents{0.5, 0.4, 0.1};       // m
const Vec3 kLandingVelocity{0.0, 0.0, -0.1};  // m/s
const Vec3 kLandingSpin{3.0, 0.0, 0.0};       // rad/s: the corners at y > 0 rise at 1.1 m/s
constexpr double kWarmImpulse = 0.25;         // N s a corner, last step's
constexpr double kDt = 0.01;                  // s

/// A free body as an articulation of one link, its factor and velocity (the body's) ready.
Articulation freeBody(const std::vector<RigidBody>& bodies) {
  Articulation articulation({ArticulationLinkDesc{0, -1, LinkJoint::Free, -1, nullptr}}, bodies);
  articulation.readConfiguration(bodies);
  const std::vector<Mat3> midpoint{bodies[0].rotation};
  articulation.projectMomentum(kDt, bodies, midpoint);
  return articulation;
}

struct LandingBox {
  std::vector<RigidBody> bodies;
  Articulation articulation;
  ArticulationRows rows;
  std::vector<Vec3> corners;  // world, bottom face

  static std::vector<RigidBody> makeBodies() {
    RigidBodyDesc d;
    d.mass = kMass;
    const Vec3 e = 2.0 * kHalfExtents;
    d.inertia = (kMass / 12.0 *
                 Vec3(e.y() * e.y() + e.z() * e.z(), e.x() * e.x() + e.z() * e.z(),
                      e.x() * e.x() + e.y() * e.y()))
                    .asDiagonal();
    d.position = Vec3(0.0, 0.0, kHalfExtents.z());
    d.linearVelocity = kLandingVelocity;
    d.angularVelocity = kLandingSpin;
    return {makeRigidBody(d)};
  }

  LandingBox() : bodies(makeBodies()), articulation(freeBody(bodies)) {
    rows.begin(articulation);
    for (const double x : {-1.0, 1.0})
      for (const double y : {-1.0, 1.0}) {
        const Vec3 p(x * kHalfExtents.x(), y * kHalfExtents.y(), 0.0);
        corners.push_back(p);
        const int row = rows.add(ArticulationRowKind::Normal, kWarmImpulse);
        const Vec3 n = Vec3::UnitZ();
        const Vec6 force = spatialVector((p - articulation.motionOrigin()).cross(n), n);
        rows.addLinkForces(row, 1, 0, &force, articulation);
        rows.setTarget(row, 0.0);
      }
    rows.prepare(articulation);
  }

  /// The box's velocity with the impulses solved so far: its centre's and its spin (world; the
  /// box is not turned, so its body frame is the world's).
  void velocities(Vec3& v, Vec3& w) {
    ArticulationRows copy = rows;
    Articulation moved = articulation;
    copy.applyImpulses(moved);
    w = moved.velocity().head<3>();
    v = moved.velocity().segment<3>(3);
  }
  double kineticEnergy() {
    Vec3 v, w;
    velocities(v, w);
    return 0.5 * kMass * v.squaredNorm() + 0.5 * w.dot(bodies[0].inertiaBody * w);
  }
  /// A corner's normal velocity (m/s) with the impulses solved so far.
  double cornerRate(int k) {
    Vec3 v, w;
    velocities(v, w);
    const Vec3 arm = corners[static_cast<size_t>(k)] - bodies[0].position;
    return (v + w.cross(arm)).z();
  }
};

TEST(ArticulationRows, AnActiveSetThatAsksACornerToPullStepsAsFarAsTheBoundsAllow) {
  LandingBox box;
  const double warmEnergy = box.kineticEnergy();
  // All four corners pushing is not the answer: the rising edge (y > 0) would have to pull.
  EXPECT_FALSE(box.rows.solveActiveSet(8));
  for (int k = 0; k < 4; ++k) EXPECT_GE(box.rows.impulse(k), 0.0) << "corner " << k;
  // The step stopped where a rising corner's impulse reached zero, exactly.
  EXPECT_TRUE(box.rows.impulse(1) == 0.0 || box.rows.impulse(3) == 0.0);
  // Undone, the step would leave the energy as the warm start had it; a step of the exact
  // solve's direction lowers it (the share of the full step is > 0.1 here: > 1 % of it).
  EXPECT_LT(box.kineticEnergy(), warmEnergy * (1.0 - 1e-2));
}

TEST(ArticulationRows, RepeatedActiveSetStepsReachTheLandingsComplementarySolution) {
  LandingBox box;
  bool whole = false;
  for (int step = 0; step < 4 && !whole; ++step) {
    const double before = box.kineticEnergy();
    whole = box.rows.solveActiveSet(8);
    EXPECT_LE(box.kineticEnergy(), before * (1.0 + 1e-12)) << "step " << step;
  }
  ASSERT_TRUE(whole);
  // The falling edge's corners (y < 0) push and stop; the rising ones are free and rise.
  // Tolerances: the regularised factor's (1e-9 of the Delassus diagonal) and rounding.
  for (const int k : {0, 2}) {
    EXPECT_GT(box.rows.impulse(k), 0.0) << "corner " << k;
    EXPECT_NEAR(box.cornerRate(k), 0.0, 1e-9) << "corner " << k;
  }
  for (const int k : {1, 3}) {
    EXPECT_EQ(box.rows.impulse(k), 0.0) << "corner " << k;
    EXPECT_GT(box.cornerRate(k), 0.0) << "corner " << k;
  }
}

TEST(ArticulationRows, SplitImpulsesLiftATiltedPenetrationExactlyWithinFiveSweeps) {
  // The box has sunk into the floor, tilted, on a 5 x 5 grid of points: their corrections
  // (pseudo-velocities that would lift them out, m/s) are a rigid motion's - a lift and two
  // tilts - so all can be met exactly, by 25 rows of rank 3 that Gauss-Seidel approaches only
  // slowly. After four sweeps short of the tolerance the exact active-set step meets them.
  std::vector<RigidBody> bodies = LandingBox::makeBodies();
  Articulation articulation = freeBody(bodies);
  ArticulationRows rows;
  rows.begin(articulation);
  std::vector<Vec3> points;
  std::vector<double> corrections;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      const Vec3 p((i - 2) * 0.5 * kHalfExtents.x(), (j - 2) * 0.5 * kHalfExtents.y(), 0.0);
      points.push_back(p);
      corrections.push_back(0.020 + 0.012 * p.x() - 0.015 * p.y());
      const int row = rows.add(ArticulationRowKind::Normal, 0.0);
      const Vec3 n = Vec3::UnitZ();
      const Vec6 force = spatialVector((p - articulation.motionOrigin()).cross(n), n);
      rows.addLinkForces(row, 1, 0, &force, articulation);
    }
  rows.prepare(articulation);
  for (int k = 0; k < rows.size(); ++k) rows.setCorrection(k, corrections[static_cast<size_t>(k)]);
  std::vector<double> pseudo(static_cast<size_t>(articulation.dof()));
  rows.solveCorrection(articulation, 5, 0.0, pseudo.data());
  const Vec3 w(pseudo[0], pseudo[1], pseudo[2]), v(pseudo[3], pseudo[4], pseudo[5]);
  for (size_t k = 0; k < points.size(); ++k) {
    const Vec3 arm = points[k] - bodies[0].position;
    // The regularised factor's 1e-9 of the Delassus diagonal; the sweeps alone were 6 % short.
    EXPECT_NEAR((v + w.cross(arm)).z(), corrections[k], 1e-9) << "point " << k;
  }
}

/// A box on one contact under its centre, held there last step by `normalImpulse` (N s), sliding
/// along x at `slide` (m/s) and sinking at 0.1 m/s, its friction pair's impulses zero.
struct SlidingBox {
  std::vector<RigidBody> bodies;
  Articulation articulation;
  ArticulationRows rows;
  int normal = 0;

  static std::vector<RigidBody> makeBodies(double slide) {
    RigidBodyDesc d;
    d.mass = kMass;
    d.inertia = Mat3::Identity() * 0.1;
    d.position = Vec3(0.0, 0.0, kHalfExtents.z());
    d.linearVelocity = Vec3(slide, 0.0, -0.1);
    return {makeRigidBody(d)};
  }

  SlidingBox(double slide, double friction, double normalImpulse)
      : bodies(makeBodies(slide)), articulation(freeBody(bodies)) {
    rows.begin(articulation);
    normal = rows.add(ArticulationRowKind::Normal, normalImpulse);
    rows.add(ArticulationRowKind::Friction, 0.0, normal, friction);
    rows.add(ArticulationRowKind::Friction, 0.0, normal, friction);
    const Vec3 arm = Vec3::Zero() - articulation.motionOrigin();
    Vec6 forces[3];
    const Vec3 directions[3] = {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()};
    for (int k = 0; k < 3; ++k) forces[k] = spatialVector(arm.cross(directions[k]), directions[k]);
    rows.addLinkForces(normal, 3, 0, forces, articulation);
    for (int k = 0; k < 3; ++k) rows.setTarget(normal + k, 0.0);
    rows.prepare(articulation);
  }
};

TEST(ArticulationRows, ASlowlySlippingContactsStepStopsOnItsFrictionDisk) {
  // 5 mm/s: below kSlidingSpeed, a pair that may stick. Sticking would take ~0.01 N s of
  // friction, the disk allows mu p_n ~ 0.004 N s: the step goes as far as the disk.
  constexpr double kFriction = 0.02;
  SlidingBox box(0.005, kFriction, 0.1);
  EXPECT_FALSE(box.rows.solveActiveSet(8));
  const double radius = kFriction * box.rows.impulse(box.normal);
  const double pair =
      std::hypot(box.rows.impulse(box.normal + 1), box.rows.impulse(box.normal + 2));
  EXPECT_GT(box.rows.impulse(box.normal), 0.0);
  EXPECT_LE(pair, radius);
  EXPECT_GE(pair, radius * (1.0 - 1e-6));            // on the disk (bisected to 2^-30 of the step)
  EXPECT_LT(box.rows.impulse(box.normal + 1), 0.0);  // against the slip
}

TEST(ArticulationRows, ASlidingPairIsNotAskedToStick) {
  // 1 m/s: sliding, though its impulse (zero) is inside the disk. The step solves the normal
  // alone, whole, and leaves the friction to the sweeps; asked to stick, the pair would have
  // been pushed to its disk (and a sliding pair of boxes slid 2.6 % fast in one rounding).
  SlidingBox box(1.0, 0.5, 0.1);
  EXPECT_TRUE(box.rows.solveActiveSet(8));
  EXPECT_GT(box.rows.impulse(box.normal), 0.1);
  EXPECT_EQ(box.rows.impulse(box.normal + 1), 0.0);
  EXPECT_EQ(box.rows.impulse(box.normal + 2), 0.0);
}

}  // namespace
}  // namespace impetus
