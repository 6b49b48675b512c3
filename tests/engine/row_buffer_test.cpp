// RowBuffer::finalize: which rows get their responses M^-1 J^T, and that a tree solved without
// them is still exact.
#include <gtest/gtest.h>

#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/joints/revolute_joint.h"
#include "impetus/scenes/hinge_chain.h"
#include "impetus/solver/row_buffer.h"
#include "impetus/solver/row_kernels.h"
#include "impetus/solver/sequential_impulse_solver.h"

namespace impetus {
namespace {

/// Two 1 kg, 0.4 m bars hinged to the ground and to each other (hinge axes along y), turning
/// and sliding a little so that the rows have work to do.
struct TwoBarChain {
  World world;
  std::vector<SolverBodyMass> masses;
  std::vector<SolverVelocity> velocities;
  std::vector<double> rotorInverseInertia{0.0};  // slot 0: no rotor
  std::vector<double> rotorSpeeds{0.0};

  TwoBarChain() {
    for (int i = 0; i < 2; ++i) {
      RigidBodyDesc d;
      d.name = "bar" + std::to_string(i);
      d.mass = 1.0;
      d.inertia = scenes::boxInertia(1.0, Vec3(0.4, 0.04, 0.04));
      d.position = Vec3(0.2 + 0.4 * i, 0, 0);
      world.addBody(d);
    }
    world.addJoint<RevoluteJoint>("shoulder", World::kGround, 1, Vec3::Zero(), Vec3::UnitY());
    world.addJoint<RevoluteJoint>("elbow", 1, 2, Vec3(0.4, 0, 0), Vec3::UnitY());
    for (const RigidBody& b : world.bodies()) {
      masses.push_back(b.isDynamic() ? SolverBodyMass{b.inverseMass, b.inverseInertiaWorld}
                                     : SolverBodyMass{});
      velocities.push_back({});
    }
    velocities[1] = {Vec3(0.3, -0.2, 0.5), Vec3(0.1, 2.0, -0.4)};
    velocities[2] = {Vec3(-0.6, 0.4, 1.1), Vec3(-0.3, -1.0, 0.2)};
  }

  void buildRows(RowBuffer& rows) {
    JointBuildContext ctx;
    ctx.bodies = world.bodies();
    ctx.rotorInverseInertia = rotorInverseInertia;
    ctx.directJoints = true;
    rows.clear();
    rows.setDirectEqualities(true);
    for (int j = 0; j < world.jointCount(); ++j) world.joint(j).buildVelocityRows(ctx, rows, false);
  }

  double largestRowResidual(const RowBuffer& rows) const {
    double largest = 0.0;
    for (const ConstraintRow& r : rows.rows())
      largest =
          std::max(largest, std::abs(rowVelocity(r, velocities[static_cast<size_t>(r.bodyA)],
                                                 velocities[static_cast<size_t>(r.bodyB)], 0.0) -
                                     r.target));
    return largest;
  }
};

TEST(RowBuffer, JointsAloneInTheTreeAreSolvedExactlyWithoutResponses) {
  TwoBarChain chain;
  RowBuffer rows;
  chain.buildRows(rows);
  rows.finalize(chain.masses, chain.rotorInverseInertia);
  ASSERT_TRUE(rows.treeHoldsAll());
  EXPECT_FALSE(rows.responsesFilled());  // the tree moves the bodies by its own solution
  ASSERT_GT(chain.largestRowResidual(rows), 0.1);
  solveBlocks(rows, chain.velocities, chain.rotorSpeeds, {});
  // Exact to rounding: the velocities are ~1 m/s, so 1e-12 m/s is a few hundred ulps.
  EXPECT_LT(chain.largestRowResidual(rows), 1e-12);

  // Filled on demand (a warm start applies impulses row by row): M^-1 J^T of each row.
  rows.fillResponses();
  EXPECT_TRUE(rows.responsesFilled());
  for (const ConstraintRow& r : rows.rows()) {
    const SolverBodyMass& a = chain.masses[static_cast<size_t>(r.bodyA)];
    const SolverBodyMass& b = chain.masses[static_cast<size_t>(r.bodyB)];
    EXPECT_TRUE(r.responseLinearA.isApprox(a.inverseMass * r.linearA, 1e-15) ||
                r.linearA.isZero() || a.inverseMass == 0.0);
    EXPECT_TRUE(r.responseAngularB.isApprox(b.inverseInertia * r.angularB, 1e-15));
    EXPECT_NEAR(sameBodiesCoupling(r, r), inverseMassAlong(r, a, b, 0.0),
                1e-14 * inverseMassAlong(r, a, b, 0.0));
  }
}

TEST(RowBuffer, RowsOutsideTheTreeGetEveryResponse) {
  // A pushing row beside the joints (a contact under the second bar's end) is swept with its own
  // response, and the sweep applies the tree's impulses row by row: every row needs its own.
  TwoBarChain chain;
  RowBuffer rows;
  chain.buildRows(rows);
  const int first = rows.addBlock(BlockKind::Bounded, 1, World::kGround, 2);
  ConstraintRow& contact = rows.row(first);
  contact.linearB = Vec3::UnitZ();
  contact.angularB = Vec3(0.2, 0, 0).cross(Vec3::UnitZ());
  contact.lower = 0.0;
  rows.finalize(chain.masses, chain.rotorInverseInertia);
  EXPECT_FALSE(rows.treeHoldsAll());
  EXPECT_TRUE(rows.responsesFilled());
  for (const ConstraintRow& r : rows.rows()) {
    const SolverBodyMass& b = chain.masses[static_cast<size_t>(r.bodyB)];
    EXPECT_TRUE(r.responseAngularB.isApprox(b.inverseInertia * r.angularB, 1e-15));
  }
}

}  // namespace
}  // namespace impetus
