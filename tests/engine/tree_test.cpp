// Kinematic trees in generalized coordinates (seed 004): topology, inverse dynamics against the
// inertia matrix, closed forms, floating base momentum, constraints and impacts, the ZMP.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include <Eigen/Eigenvalues>

#include "impetus/dynamics/world.h"
#include "impetus/joints/fixed_joint.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/joints/spherical_joint.h"
#include "impetus/scenes/closed_loop.h"
#include "impetus/scenes/hinge_chain.h"
#include "impetus/tree/tree_dynamics.h"
#include "impetus/tree/tree_from_world.h"
#include "impetus/tree/zero_moment_point.h"

namespace impetus::tree {
namespace {

constexpr double kG = 9.81;
const Vec3 kGravity(0, 0, -kG);

Mat3 randomInertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.01, 0.5);
  // Principal moments satisfying the triangle inequality, in a random orientation.
  const double a = u(rng), b = u(rng);
  const double c = std::abs(a - b) + 0.5 * (a + b - std::abs(a - b)) * u(rng) / 0.5;
  const Mat3 r = Quat::UnitRandom().toRotationMatrix();
  return r * Vec3(a, b, std::min(c, a + b)).asDiagonal() * r.transpose();
}

/// A branching tree of revolute and prismatic joints with random placements and mass properties.
KinematicTree randomTree(std::mt19937& rng, int links) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  KinematicTree t;
  for (int i = 0; i < links; ++i) {
    TreeLink l;
    l.name = "l" + std::to_string(i);
    l.parent = i == 0 ? -1 : std::uniform_int_distribution<int>(std::max(-1, i - 3), i - 1)(rng);
    l.joint = (i % 4 == 2) ? TreeJointType::Prismatic : TreeJointType::Revolute;
    l.axis = Vec3(u(rng), u(rng), u(rng));
    l.placementOffset = 0.3 * Vec3(u(rng), u(rng), u(rng));
    l.placementRotation = Quat::UnitRandom().toRotationMatrix();
    l.mass = 0.5 + 2.0 * std::abs(u(rng));
    l.centreOfMass = 0.2 * Vec3(u(rng), u(rng), u(rng));
    l.inertia = randomInertia(rng);
    t.addLink(l);
  }
  return t;
}

VectorX randomVector(std::mt19937& rng, int n, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VectorX v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

TEST(KinematicTree, TopologyHelpersOfSeed004) {
  // 0 - 1 - 2        root -> 0, children of 0: 1 and 3; 1 -> 2; 3 -> 4
  //  \- 3 - 4
  KinematicTree t;
  for (int parent : {-1, 0, 1, 0, 3}) {
    TreeLink l;
    l.parent = parent;
    l.name = "l" + std::to_string(t.size());
    t.addLink(l);
  }
  EXPECT_EQ(t.children(0), (std::vector<int>{1, 3}));
  EXPECT_EQ(t.children(-1), (std::vector<int>{0}));
  EXPECT_EQ(t.child(0, 1), 3);
  EXPECT_EQ(t.child(0, 2), -1);
  EXPECT_TRUE(t.isDepthFirst());
  EXPECT_EQ(t.subtreeEnd(0), 5);
  EXPECT_EQ(t.subtreeEnd(1), 3);
  EXPECT_TRUE(t.reachable(4, 0));
  EXPECT_TRUE(t.reachable(2, 2));
  EXPECT_FALSE(t.reachable(2, 3));
  EXPECT_EQ(t.path(2, 4), (std::vector<int>{2, 1, 0, 3, 4}));
  EXPECT_EQ(t.path(4, 0), (std::vector<int>{4, 3, 0}));
  // Breadth-first numbering is not depth first: 0 -> {1, 2}, 1 -> 3.
  KinematicTree b;
  for (int parent : {-1, 0, 0, 1}) {
    TreeLink l;
    l.parent = parent;
    b.addLink(l);
  }
  EXPECT_FALSE(b.isDepthFirst());
  // Bad links are refused with the reason.
  TreeLink bad;
  bad.parent = 7;
  EXPECT_THROW(t.addLink(bad), std::invalid_argument);
  bad.parent = 0;
  bad.axis = Vec3::Zero();
  EXPECT_THROW(t.addLink(bad), std::invalid_argument);
}

TEST(TreeKinematics, ASubtreeUpdateEqualsTheFullOne) {
  // A random tree (parents up to three links back: several subtrees interleave in the
  // numbering); moving the coordinates of one subtree only, the subtree update must pose every
  // link exactly as a full update does (a descendant it missed would keep its old pose).
  std::mt19937 rng(7);
  const KinematicTree t = randomTree(rng, 24);
  TreeKinematics full(t), partial(t);
  VectorX q = randomVector(rng, t.size(), 1.0);
  partial.updatePositions(q);
  for (int root : {0, 3, 9, 17, 23}) {
    VectorX moved = q;
    for (int i = root; i < t.size(); ++i)
      if (t.reachable(i, root)) moved[i] += 0.3 + 0.01 * i;
    partial.updateSubtreePositions(moved, root);
    full.updatePositions(moved);
    for (int i = 0; i < t.size(); ++i) {
      EXPECT_EQ(partial.link(i).origin, full.link(i).origin) << "root " << root << " link " << i;
      EXPECT_EQ(partial.link(i).rotation, full.link(i).rotation) << "root " << root;
      EXPECT_EQ(partial.link(i).centreOfMass, full.link(i).centreOfMass) << "root " << root;
    }
    q = moved;
  }
  EXPECT_THROW(partial.updateSubtreePositions(q, t.size()), std::invalid_argument);
}

TEST(TreeDynamics, InverseDynamicsEqualsInertiaMatrixTimesAccelerationPlusBias) {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 20; ++trial) {
    const KinematicTree t = randomTree(rng, 12);
    TreeDynamics d(t);
    d.setState(randomVector(rng, 12, 2.0), randomVector(rng, 12, 3.0));
    const VectorX qdd = randomVector(rng, 12, 5.0);
    VectorX tau, bias;
    MatrixX crba, unit;
    d.inverseDynamics(qdd, kGravity, tau);
    d.biasForces(kGravity, bias);
    d.inertiaMatrix(crba);
    d.inertiaMatrixFromUnitAccelerations(unit);
    const double scale = 1.0 + tau.cwiseAbs().maxCoeff();
    EXPECT_LT((crba * qdd + bias - tau).cwiseAbs().maxCoeff(), 1e-9 * scale) << "trial " << trial;
    EXPECT_LT((crba - unit).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + crba.norm()));
    EXPECT_LT((crba - crba.transpose()).cwiseAbs().maxCoeff(), 1e-12 * crba.norm());
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatrixX>(crba).eigenvalues().minCoeff(), 0.0);
    // Forward dynamics inverts inverse dynamics.
    VectorX back;
    d.forwardDynamics(tau, kGravity, back);
    EXPECT_LT((back - qdd).cwiseAbs().maxCoeff(), 1e-8 * (1.0 + qdd.norm()));
    // The kinetic energy of the links equals 1/2 q'^T I q'.
    const VectorX& qd = d.kinematics().qd();
    EXPECT_NEAR(d.kinematics().kineticEnergy(), 0.5 * qd.dot(crba * qd),
                1e-12 * (1.0 + qd.dot(crba * qd)));
  }
}

TEST(TreeDynamics, DoublePendulumMatchesTheClosedForm) {
  // Planar double pendulum in the x-y plane, joints about z, gravity -y; link i has length l_i,
  // centre of mass at lc_i along the link, moment of inertia I_i about it (Spong's textbook form).
  const double m1 = 1.3, m2 = 0.7, l1 = 0.6, lc1 = 0.25, lc2 = 0.3, I1 = 0.05, I2 = 0.02;
  KinematicTree t;
  TreeLink a;
  a.mass = m1;
  a.axis = Vec3::UnitZ();
  a.centreOfMass = Vec3(lc1, 0, 0);
  a.inertia = Vec3(0.01, I1, I1).asDiagonal();
  t.addLink(a);
  TreeLink b = a;
  b.parent = 0;
  b.mass = m2;
  b.placementOffset = Vec3(l1, 0, 0);
  b.centreOfMass = Vec3(lc2, 0, 0);
  b.inertia = Vec3(0.01, I2, I2).asDiagonal();
  t.addLink(b);
  TreeDynamics d(t);
  const Vec3 gravity(0, -kG, 0);
  std::mt19937 rng(2);
  for (int trial = 0; trial < 10; ++trial) {
    const VectorX q = randomVector(rng, 2, 3.0), qd = randomVector(rng, 2, 4.0);
    d.setState(q, qd);
    MatrixX inertia;
    VectorX bias;
    d.inertiaMatrix(inertia);
    d.biasForces(gravity, bias);
    const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
    const double m11 = m1 * lc1 * lc1 + I1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I2;
    const double m12 = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2;
    const double m22 = m2 * lc2 * lc2 + I2;
    const double hc = m2 * l1 * lc2 * s2;
    const double g1 =
        (m1 * lc1 + m2 * l1) * kG * std::cos(q[0]) + m2 * lc2 * kG * std::cos(q[0] + q[1]);
    const double g2 = m2 * lc2 * kG * std::cos(q[0] + q[1]);
    const double h1 = -hc * (2 * qd[0] * qd[1] + qd[1] * qd[1]) + g1;
    const double h2 = hc * qd[0] * qd[0] + g2;
    EXPECT_NEAR(inertia(0, 0), m11, 1e-12);
    EXPECT_NEAR(inertia(0, 1), m12, 1e-12);
    EXPECT_NEAR(inertia(1, 1), m22, 1e-12);
    EXPECT_NEAR(bias[0], h1, 1e-11);
    EXPECT_NEAR(bias[1], h2, 1e-11);
  }
}

/// Three links: a floating box and two hinged limbs on different axes.
KinematicTree floatingThreeLinks() {
  KinematicTree t;
  const int base = addFloatingBase(t, "base", -1, 4.0, Vec3(0.08, 0.1, 0.12).asDiagonal());
  TreeLink arm;
  arm.name = "arm";
  arm.parent = base;
  arm.axis = Vec3(0, 1, 0.3);
  arm.placementOffset = Vec3(0.2, 0.05, 0);
  arm.mass = 1.5;
  arm.centreOfMass = Vec3(0.15, 0, 0);
  arm.inertia = Vec3(0.002, 0.012, 0.012).asDiagonal();
  const int armLink = t.addLink(arm);
  TreeLink hand = arm;
  hand.name = "hand";
  hand.parent = armLink;
  hand.axis = Vec3(1, 0, 0.2);
  hand.placementOffset = Vec3(0.3, 0, 0);
  hand.mass = 0.5;
  hand.centreOfMass = Vec3(0.05, 0.02, 0);
  hand.inertia = Vec3(0.001, 0.002, 0.002).asDiagonal();
  t.addLink(hand);
  return t;
}

TEST(TreeDynamics, FloatingBaseConservesMomentumWithZeroJointTorques) {
  const KinematicTree t = floatingThreeLinks();
  TreeDynamics d(t);
  VectorX q = VectorX::Zero(8), qd(8);
  q.head<3>() = Vec3(0.1, -0.2, 0.5);
  q.segment<3>(3) = Vec3(0.3, -0.2, 0.4);
  qd << 0.3, -0.1, 0.2, 0.8, -0.5, 1.1, 2.0, -3.0;
  d.setState(q, qd);
  const Vec3 p0 = d.kinematics().linearMomentum();
  const Vec3 h0 = d.kinematics().angularMomentum(Vec3::Zero());
  const double e0 = d.kinematics().kineticEnergy();
  const VectorX tau = VectorX::Zero(8);
  double worstP = 0.0, worstH = 0.0;
  for (int k = 0; k < 2000; ++k) {
    stepRungeKutta4(d, q, qd, tau, Vec3::Zero(), 0.001);
    d.setState(q, qd);
    worstP = std::max(worstP, (d.kinematics().linearMomentum() - p0).norm());
    worstH = std::max(worstH, (d.kinematics().angularMomentum(Vec3::Zero()) - h0).norm());
  }
  RecordProperty("linear_momentum_drift", std::to_string(worstP));
  RecordProperty("angular_momentum_drift", std::to_string(worstH));
  EXPECT_GT(qd.tail<2>().norm(), 0.5);  // the limbs really moved relative to the base
  EXPECT_LT(worstP, 1e-10 * p0.norm());
  EXPECT_LT(worstH, 1e-10 * h0.norm());
  EXPECT_NEAR(d.kinematics().kineticEnergy(), e0, 1e-9 * e0);
}

/// A uniform rod of length L as a floating body: its frame at the centre, along x.
struct Rod {
  double mass = 2.0, length = 0.8;
  KinematicTree tree;
  int link = 0;
  Rod() {
    link = addFloatingBase(
        tree, "rod", -1, mass,
        Vec3(1e-4, mass * length * length / 12, mass * length * length / 12).asDiagonal());
  }
  /// The three linear rows of the point Jacobian of the rod's end at x = -L/2.
  MatrixX endJacobian(const TreeKinematics& k) const {
    Jacobian6 j;
    k.pointJacobian(link, k.pointPosition(link, Vec3(-length / 2, 0, 0)), j);
    return j.bottomRows<3>();
  }
};

TEST(TreeDynamics, PinnedRodConstraintGivesThePendulumAccelerationAndReaction) {
  // A horizontal rod at rest pinned at one end: alpha = 3 g / (2 L), the pin carries m g / 4.
  Rod rod;
  TreeDynamics d(rod.tree);
  VectorX q = VectorX::Zero(6), qd = VectorX::Zero(6), bias;
  d.setState(q, qd);
  MatrixX inertia;
  d.inertiaMatrix(inertia);
  d.biasForces(kGravity, bias);
  const MatrixX jacobian = rod.endJacobian(d.kinematics());
  Vec3 angularBias, linearBias;
  d.pointAccelerationBias(rod.link, d.kinematics().pointPosition(rod.link, Vec3(-0.4, 0, 0)),
                          angularBias, linearBias);
  const ConstrainedMotion m = solveConstrained(inertia, -bias, jacobian, -linearBias);
  // Pitch (about y, link 4) accelerates nose-down: alpha_y = +3 g / (2 L) with x towards the tip.
  EXPECT_NEAR(m.qdd[4], 3 * kG / (2 * rod.length), 1e-9);
  EXPECT_NEAR(m.lambda[2], rod.mass * kG / 4, 1e-9);
  EXPECT_NEAR(m.lambda[0], 0.0, 1e-9);
  // The pinned end does not accelerate.
  EXPECT_LT((jacobian * m.qdd + linearBias).norm(), 1e-9);
}

TEST(TreeDynamics, PinningAFallingRodIsAnImpactWithTheClosedFormJump) {
  // A rod falling flat at v is caught at one end: angular momentum about the pin is kept,
  // m v L/2 = (m L^2/3) w, so w = 3 v / (2 L), the centre keeps 3 v / 4, the pin impulse is m v/4.
  Rod rod;
  TreeDynamics d(rod.tree);
  const double v = 2.0;
  VectorX q = VectorX::Zero(6), qd = VectorX::Zero(6);
  qd[2] = -v;
  d.setState(q, qd);
  MatrixX inertia;
  d.inertiaMatrix(inertia);
  const ImpactJump jump = solveImpact(inertia, rod.endJacobian(d.kinematics()), qd);
  const VectorX after = qd + jump.velocityChange;
  EXPECT_NEAR(after[4], 3 * v / (2 * rod.length), 1e-12);
  EXPECT_NEAR(after[2], -3 * v / 4, 1e-12);
  EXPECT_NEAR(jump.impulse[2], rod.mass * v / 4, 1e-12);
  d.setState(q, after);
  const Vec3 end = d.kinematics().pointPosition(rod.link, Vec3(-0.4, 0, 0));
  EXPECT_LT(d.kinematics().pointVelocity(rod.link, end).norm(), 1e-12);
  // The plastic catch keeps 3/4 of the energy: (m (3v/4)^2 + (m L^2/12) w^2) / 2 = 3/4 m v^2/2.
  EXPECT_NEAR(d.kinematics().kineticEnergy(), 0.75 * rod.mass * v * v / 2, 1e-12);
}

TEST(TreeFromWorld, MapsJointsFixedMergesFloatingBasesAndLoops) {
  World world;
  RigidBodyDesc torso;
  torso.name = "torso";
  torso.mass = 10;
  torso.inertia = Vec3(0.3, 0.2, 0.1).asDiagonal();
  torso.position = Vec3(0.1, 0.2, 1.0);
  torso.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
  const BodyId t = world.addBody(torso);
  RigidBodyDesc limb;
  limb.name = "thigh";
  limb.mass = 3;
  limb.inertia = Vec3(0.05, 0.05, 0.01).asDiagonal();
  limb.position = Vec3(0.1, 0.3, 0.7);
  const BodyId thigh = world.addBody(limb);
  limb.name = "shin";
  limb.position = Vec3(0.1, 0.3, 0.3);
  const BodyId shin = world.addBody(limb);
  limb.name = "foot";
  limb.mass = 1;
  limb.position = Vec3(0.2, 0.3, 0.05);
  const BodyId foot = world.addBody(limb);
  world.addJoint<SphericalJoint>("hip", t, thigh, Vec3(0.1, 0.3, 0.9));
  world.addJoint<RevoluteJoint>("knee", thigh, shin, Vec3(0.1, 0.3, 0.5), Vec3::UnitY());
  world.addJoint<FixedJoint>("ankle", shin, foot, Vec3(0.1, 0.3, 0.1));
  const WorldTree wt = treeFromWorld(world);
  // torso: 6 floating links; hip: 3; knee: 1; ankle merges the foot into the shin's link.
  ASSERT_EQ(wt.tree.size(), 10);
  EXPECT_TRUE(wt.tree.isDepthFirst());
  EXPECT_TRUE(wt.loopClosures.empty());
  EXPECT_EQ(wt.floatingBaseFirstLink[static_cast<size_t>(t)], 0);
  EXPECT_EQ(wt.linkOfJoint(1), 9);
  EXPECT_EQ(wt.bodyLink[static_cast<size_t>(foot)], 9);
  EXPECT_NEAR(wt.tree.link(9).mass, 4.0, 1e-12);
  EXPECT_NEAR(wt.tree.totalMass(), 17.0, 1e-12);

  // Give the world a motion; the tree's q, q' from it reproduce every body's pose and velocity,
  // the total momentum and the kinetic energy.
  world.body(thigh).setAngularVelocity(Vec3(0.5, -0.2, 0.3));
  world.body(t).linearVelocity = Vec3(0.3, 0.1, -0.2);
  world.body(t).setAngularVelocity(Vec3(0.2, 0.4, -0.1));
  world.settings().gravity = Vec3::Zero();
  for (int k = 0; k < 20; ++k) world.step(0.01);
  VectorX q, qd;
  coordinatesFromWorld(wt, world, q, qd);
  TreeKinematics kin(wt.tree);
  kin.update(q, qd);
  Vec3 momentum = Vec3::Zero(), angular = Vec3::Zero();
  double energy = 0.0;
  for (BodyId b : {t, thigh, shin, foot}) {
    const RigidBody& body = world.body(b);
    const int link = wt.bodyLink[static_cast<size_t>(b)];
    const Vec3 position = kin.pointPosition(link, wt.bodyOffset[static_cast<size_t>(b)]);
    EXPECT_LT((position - body.position).norm(), 2e-4) << body.name;  // the joints' own error
    // The engine's velocity constraints hold to its solver residual (~2e-3 rad/s here).
    EXPECT_LT((kin.link(link).angularVelocity - body.angularVelocity).norm(), 5e-3) << body.name;
    momentum += body.mass * body.linearVelocity;
    angular += body.rotation * body.inertiaBody * body.rotation.transpose() * body.angularVelocity +
               body.position.cross(body.mass * body.linearVelocity);
    energy += body.kineticEnergy();
  }
  EXPECT_LT((kin.linearMomentum() - momentum).norm(), 2e-3 * momentum.norm());
  EXPECT_LT((kin.angularMomentum(Vec3::Zero()) - angular).norm(), 2e-3 * angular.norm());
  EXPECT_NEAR(kin.kineticEnergy(), energy, 2e-3 * energy);

  // A ring of 50 links closed on itself and pinned at two corners: 52 joints, 50 bodies, so two
  // joints close loops; they are reported, not followed.
  World ring;
  scenes::buildHingeRing(ring);
  const WorldTree rt = treeFromWorld(ring);
  EXPECT_EQ(rt.loopClosures.size(), 2u);
  EXPECT_EQ(rt.tree.size(), 50);
}

TEST(ZeroMomentPoint, ClosedFormForTwoFeetAndARestingBox) {
  // Two vertical forces on the plane z = 0: the ZMP is their weighted mean; a horizontal push at
  // height h shifts it by F_x h / F_z.
  std::vector<PointForce> forces = {{Vec3(0, 0, 0), Vec3(0, 0, 300)},
                                    {Vec3(0.4, 0.2, 0), Vec3(0, 0, 100)}};
  auto zmp = zeroMomentPoint(forces, Vec3::Zero(), Vec3::UnitZ());
  ASSERT_TRUE(zmp.has_value());
  EXPECT_LT((*zmp - Vec3(0.1, 0.05, 0)).norm(), 1e-12);
  forces.push_back({Vec3(0, 0, 0.5), Vec3(40, 0, 0)});
  zmp = zeroMomentPoint(forces, Vec3::Zero(), Vec3::UnitZ());
  EXPECT_NEAR(zmp->x(), 0.1 - 40 * 0.5 / 400, 1e-12);
  EXPECT_FALSE(zeroMomentPoint(std::vector<PointForce>{{Vec3::Zero(), Vec3(0, 0, -5)}},
                               Vec3::Zero(), Vec3::UnitZ())
                   .has_value());

  // A box resting off-centre on the ground: its ZMP is under its centre of mass.
  World world;
  ShapeDesc ground;
  ground.type = ShapeType::Plane;
  world.addShape(World::kGround, ground);
  RigidBodyDesc box;
  box.name = "box";
  box.mass = 5;
  box.inertia = scenes::boxInertia(5, Vec3(0.3, 0.2, 0.1));
  box.position = Vec3(0.37, -0.21, 0.05);
  box.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3::UnitZ()));
  const BodyId id = world.addBody(box);
  ShapeDesc shape;
  shape.type = ShapeType::Box;
  shape.size = Vec3(0.3, 0.2, 0.1);
  world.addShape(id, shape);
  for (int k = 0; k < 100; ++k) world.step(0.01);
  const BodyId feet[] = {id};
  zmp = zeroMomentPoint(contactForcesOn(world, feet), Vec3::Zero(), Vec3::UnitZ());
  ASSERT_TRUE(zmp.has_value());
  const Vec3 com = world.body(id).position;
  EXPECT_LT((zmp->head<2>() - com.head<2>()).norm(), 1e-3);
}

}  // namespace
}  // namespace impetus::tree
