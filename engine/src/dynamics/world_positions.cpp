// The position pass of World::step: after the velocities are solved and the poses integrated,
// joints, limits, gears and penetrating contacts are projected back onto their constraint
// manifolds with pseudo-velocities that move positions only (no kinetic energy is added).
#include <algorithm>
#include <cmath>
#include <limits>

#include "impetus/dynamics/world.h"
#include "impetus/solver/sequential_impulse_solver.h"

namespace impetus {
namespace {

/// Gauss-Seidel sweeps of one Newton step when joints closing loops share the tree's bodies (a
/// forest alone is solved exactly in one).
constexpr int kPositionSweeps = 8;

/// Largest position error the rows of a position pass ask to remove (unit: m or rad): equality
/// rows both ways, one-sided rows (limits, p >= 0) only when violated. Rows hold it as their
/// target pseudo-velocity -error / dt (capped, which only understates an error already large).
double largestPositionError(const RowBuffer& rows, double dt, size_t firstBlock = 0) {
  double largest = 0.0;
  for (size_t b = firstBlock; b < rows.blocks().size(); ++b) {
    const RowBlock& block = rows.blocks()[b];
    const bool equality = block.kind == BlockKind::Equality;
    for (int i = block.first; i < block.first + block.count; ++i) {
      const ConstraintRow& r = rows.rows()[static_cast<size_t>(i)];
      const bool oneSided = r.lower == 0.0;
      if (equality || !oneSided)
        largest = std::max(largest, std::abs(r.target));
      else
        largest = std::max(largest, r.target);
    }
  }
  return largest * dt;
}

/// Largest turn one Newton step of the joint projection may give a body (unit: rad). The
/// linearisation holds for small turns; a fast whip can ask for more, and the full step would
/// then overshoot (links flip). The step is scaled as a whole, so its direction stays Newton's.
constexpr double kMaxNewtonTurn = 0.25;
/// Largest slide one Newton step or one block's correction may give a body (unit: m), for the
/// same reason: a near-singular block (an MF-4 jaw wedged between two hull boxes, its points'
/// normals turned against each other) asked for 0.94 m and pulled the turret's joint 190 mm open.
/// The contacts' own targets move a body a few centimetres at most.
constexpr double kMaxCorrectionSlide = 0.1;
/// Largest turn one block's correction may give a body (unit: rad): that jaw's block asked for
/// 16 rad. More than the Newton steps' cap: a humanoid's foot caught on a ramp's edge is turned
/// 0.28 rad flat in one correction, and needs to be.
constexpr double kMaxCorrectionTurn = 0.5;

/// The time (<= dt) a body's pseudo-velocity may be applied for without turning it more than
/// maxTurn (rad) or sliding it more than maxSlide (m).
double cappedStep(double dt, const SolverVelocity& p, double maxTurn, double maxSlide) {
  const double turn = dt * p.angular.norm(), slide = dt * p.linear.norm();
  double step = dt;
  if (turn > maxTurn) step = std::min(step, dt * maxTurn / turn);
  if (slide > maxSlide) step = std::min(step, dt * maxSlide / slide);
  return step;
}
/// How much dearer a Newton step of the joint projection makes a turn than the bodies' inertia
/// would, once the step in their own metric failed (cut short by kMaxNewtonTurn, or shrinking the
/// error less than kDearTurnsContraction): the rest of that position pass solves with the
/// rotational inertia of bodies that no contact touches times this. Any positive metric projects
/// onto the joints - it only picks which nearby pose - but the step is linear in the turns, and a
/// light link's inertia makes turning the cheap way to close any gap (a 0.1 m box turns 0.5 rad for
/// what a 2 cm shift does), past what the linearisation predicts. Chain100's whip then fell back to
/// joint-by-joint sweeps that left every joint 5-8 mm open, growing from step to step (peak 1.3 cm;
/// 926 steps in 1000 ran all six iterations). Measured over 24 chains each, gravity tilted by up to
/// 2.3e-4 rad: 20 keeps both chains whole (worst peak gap 2 mm for chain100, 0.13 mm median
/// for chain30, 3 mm before) with their energy (0.55, 0.53 after 10 s, as before). Made dearer
/// from the start instead, chain100 steps 1.4x faster, but both chains lose more energy (0.48,
/// 0.44), and a cost of 5 or 10 tore chain100 apart in 9 of 12 and 1 of 24 runs. A touching
/// body keeps its inertia: the contacts' corrections are in that metric, and a joint step in
/// another fights them (a lying ragdoll jittered at 1-3 cm/s).
constexpr double kNewtonTurnCost = 20.0;
/// Largest share of the joint error a Newton step on a forest may leave (the next step's error
/// over this one's) and the pass keep the bodies' own metric. Near its solution Newton leaves a
/// share of the order of the error over the arms (1e-3 m / 0.05 m); chain100's whip steps were
/// full and exact yet left 0.25-1.1 of a sub-millimetre error - closing a gap along a nearly
/// straight stretch of chain bends light links by far more than the linearisation holds for -
/// and ran into the six-iteration cap (184 steps in 1000). Made dear after such a step, the turns
/// stay small and the next steps converge. Over 24 chains each (gravity tilted by up to
/// 2.3e-4 rad): chain100 1.45x faster, peak gap 0.78 -> 0.14 mm (median), E(10 s)/E0 0.55 ->
/// 0.56; chain30 unchanged (0.13 mm, 0.52-0.53); 0.5 gained half as much, 0 to 0.3 the same.
constexpr double kDearTurnsContraction = 0.25;
/// Penetration left by a position iteration, relative to the one before, at which the pass
/// counts as stalled (contacts and joints asking for opposite corrections).
constexpr double kStallRatio = 0.8;
/// Least error reduction of a Newton step of the joint projection that keeps Newton going when
/// the step was not exact (joints closing loops, a gear's, swept with the tree: a slow series).
constexpr double kNewtonContraction = 0.5;
/// The same for a step on a forest cut short by kMaxNewtonTurn: in a whip (chain100, ~1 rad a
/// step) such steps shrink the error by 0.55-0.6 and the next ones converge; at 0.5 they fell
/// back to the sweeps, which tore the chain apart in 2 of 16 runs.
constexpr double kCutNewtonContraction = 0.8;
/// The same for a full, exact step (the tree held every row; no body turned past
/// kMaxNewtonTurn). Near a stretched-out stretch of chain a joint's gap is closed by bending
/// links, which the linearisation overstates: one step may shrink the error only a third while
/// the next ones converge fast. Falling back to joint-by-joint projection there left chain30
/// 3.4 mm open after its whip; Newton going on leaves 1.9 mm, in fewer iterations. A step that
/// does not shrink the error at all still falls back (to the dearer turns, then the sweeps).
constexpr double kExactNewtonContraction = 1.0;
/// Largest joint error the pre-projection removes, relative to what a position pass may leave:
/// a Newton step from there is exact to (error / arm)^2 (it cannot check that it converged).
constexpr double kPreProjectionReach = 10.0;

}  // namespace

void World::solvePositions(double dt) {
  // Joints: when they may be solved as a tree (SolverSettings::directJoints), each iteration is
  // one Newton step on ALL joint rows at once - relinearised at the current poses and solved
  // exactly by the EqualityTree - until the error is below the tolerance. Otherwise, or when a
  // Newton step fails to contract, nonlinear Gauss-Seidel: each joint in turn relinearises its
  // rows, solves them and moves its two bodies (robust far from the solution, but slow along a
  // chain: the error travels one joint a sweep).
  const SolverSettings& solver = settings_.solver;
  if (solver.positionIterations <= 0 || (joints_.empty() && awakeContactCount_ == 0)) return;
  if (solver.directJoints) projectTreesOntoJoints();
  int iterations = 0;
  for (size_t k = 0; k < solverIslands_.islands().size(); ++k) {
    enterIsland(k);
    solveIslandPositions(dt);
    leaveIsland(k);
    iterations = std::max(iterations, statistics_.positionIterations);
  }
  statistics_.positionIterations = iterations;
}

void World::solveIslandPositions(double dt) {
  const SolverSettings& solver = settings_.solver;
  statistics_.positionIterations = 0;
  if (islandJoints().empty() && islandContacts().empty()) return;
  // (pseudoVelocities_ and pseudoRotorSpeeds_ are zero here: each use zeroes what it moved.)
  const JointBuildContext ctx = buildContext(dt, true);
  // Newton steps take the whole error at once (their size is limited by the turn they give a
  // body, kMaxNewtonTurn); capping each row's target instead would bend the step's direction and
  // leave a joint that a contact push twisted 0.2 rad open for several steps.
  JointBuildContext newtonContext = ctx;
  newtonContext.maxCorrectionSpeed = std::numeric_limits<double>::infinity();
  JointBuildContext sweepContext = ctx;
  sweepContext.directJoints = false;  // one joint at a time: its gear and limits as one block
  JointProjection mode = solver.directJoints && !islandJoints().empty() ? JointProjection::Newton
                                                                        : JointProjection::Sweep;
  NewtonPass newton;
  double lastPenetration = std::numeric_limits<double>::infinity();
  int iterations = 0;
  for (int it = 0; it < solver.positionIterations; ++it) {
    if (mode == JointProjection::Newton) {
      // Penetrating contacts first, manifold by manifold; then the joints' Newton step, so that
      // what an unconverged pass leaves is a little sinking, not a joint opening. A contact push
      // raises the joints' error again: the Newton step is then judged afresh.
      // Contacts closing a loop through a mechanism's joints (a jaw jammed into its own hull)
      // are corrected in the Newton step instead, moving the mechanism through its joints:
      // pushed out with their two bodies' own mass they open the joints, which then push
      // them back in.
      double contactChange = 0.0;
      newton.iteration = it;
      const double contactPenetration =
          correctContactPositions(it, ctx, dt, contactChange, &newton);
      if (contactChange > 0.0)
        newton.errorBound = newton.lastError = std::numeric_limits<double>::infinity();
      mode = projectJoints(newtonContext, dt, newton);
      const double penetration = std::max(contactPenetration, newton.loopPenetration);
      iterations = it + 1;
      // Stalled: the joints put back what the contacts took out (a grasp squeezing, a limb
      // pressed into the ground by its stop); more iterations only repeat the compromise.
      const bool stalled =
          penetration > solver.positionTolerance && penetration > kStallRatio * lastPenetration;
      lastPenetration = penetration;
      if (mode != JointProjection::Sweep) {
        const bool done =
            (mode == JointProjection::Converged && penetration <= solver.positionTolerance) ||
            stalled;
        if (done && !solver.deterministic) break;
        mode = JointProjection::Newton;
        continue;
      }
    }
    double largest = 0.0;        // the largest position error met in this sweep (unit: m or rad)
    double largestChange = 0.0;  // and the largest pseudo-impulse change it made
    // Contacts first, then the joints, as in the Newton steps: what an unconverged pass leaves is
    // a little sinking, not a joint opening.
    largest = correctContactPositions(it, ctx, dt, largestChange);
    for (const int index : islandJoints()) {
      Joint* j = joints_[static_cast<size_t>(index)].get();
      positionRows_.clear();
      j->buildPositionRows(sweepContext, positionRows_);
      const double error = largestPositionError(positionRows_, dt);
      largest = std::max(largest, error);
      double step = dt;  // what correctPositions took of the block's move
      largestChange = std::max(largestChange, correctPositions(j->parent(), j->child(), dt, &step));
      for (const DriveCoupling& d : j->drives()) {  // gear drift moves the rotor angle
        double& pseudo = pseudoRotorSpeeds_[static_cast<size_t>(d.motor->rotorSlot())];
        rotorAngles_[static_cast<size_t>(d.motor->rotorSlot())] += step * pseudo;
        pseudo = 0.0;
      }
    }
    iterations = it + 1;
    // Done, or stalled: constraints that contradict each other (a limit pressing a limb into the
    // ground) settle at a compromise that more sweeps only repeat.
    if (!solver.deterministic &&
        (largest <= solver.positionTolerance || largestChange < solver.impulseTolerance))
      break;
  }
  statistics_.positionIterations = iterations;
}

World::JointProjection World::projectJoints(const JointBuildContext& ctx, double dt,
                                            NewtonPass& pass) {
  const SolverSettings& solver = settings_.solver;
  const double loopPenetration = addLoopContactRows(ctx, dt, pass, true);
  pass.loopPenetration = 0.0;
  // With contacts closing loops the mechanism moves as a rigid one: through its joints, not
  // through its springs (JointBuildContext::keepSpringDeflections).
  JointBuildContext jointContext = ctx;
  jointContext.keepSpringDeflections = loopPenetration > 0.0;
  // Most steps the joints already hold: measuring that is a fraction of building the rows.
  const double measured = measuredJointError(ctx);
  if (loopPenetration == 0.0 && measured >= 0.0 && measured <= 1.0)
    return JointProjection::Converged;
  jointPositionRows_.clear();
  jointPositionRows_.setDirectEqualities(true);
  double loopError = 0.0;  // of the joints the pre-projection leaves (jointBesideTree_)
  for (const int index : islandJoints()) {
    const size_t j = static_cast<size_t>(index);
    const size_t first = jointPositionRows_.blocks().size();
    joints_[j]->buildPositionRows(jointContext, jointPositionRows_);
    if (jointBesideTree_[j])
      loopError = std::max(loopError, largestPositionError(jointPositionRows_, dt, first));
  }
  // Equality rows and limits (a violated stop joins its joint's tree node, the others are swept
  // so that the step does not push a joint through its stop); anything else is swept joint by
  // joint.
  for (const RowBlock& b : jointPositionRows_.blocks())
    if (b.kind != BlockKind::Equality && b.treeRole != TreeRole::JointLimit)
      return JointProjection::Sweep;
  const double error = largestPositionError(jointPositionRows_, dt);
  if (error <= jointTolerance() && loopError <= solver.positionTolerance && loopPenetration == 0.0)
    return JointProjection::Converged;
  // Far from the solution the linearisation may not hold: when the last step did not shrink the
  // error enough (errorBound), joint-by-joint projection finishes.
  // On a forest, a step that did not contract in the bodies' own metric is tried with dearer
  // turns first (joints closing loops, swept beside the tree, converge worse in that metric: a
  // 50-link ring stepped 30 % slower), and one that shrank the error less than Newton near its
  // solution does (kDearTurnsContraction) leaves the rest of the pass to the dearer turns.
  double& turnCost = pass.turnCost;
  if (error > pass.errorBound) {
    if (turnCost >= kNewtonTurnCost || !pass.forest) return JointProjection::Sweep;
    turnCost = kNewtonTurnCost;
  }
  if (pass.forest && error > kDearTurnsContraction * pass.lastError) turnCost = kNewtonTurnCost;
  pass.lastError = error;
  if (!pass.touchingKnown) {  // once a pass: the contacts do not change within it
    touching_.assign(bodies_.size(), 0);
    for (const ContactPoint& c : islandContacts()) {
      touching_[static_cast<size_t>(c.bodyA)] = 1;
      touching_[static_cast<size_t>(c.bodyB)] = 1;
    }
    pass.touchingKnown = true;
  }
  // A forest of joints is solved exactly in one pass (solveBlocks stops there); joints closing
  // loops are swept with it.
  // The penetrating contacts closing loops, each stepped with the tree's answer to it.
  if (loopPenetration > 0.0) pass.loopPenetration = addLoopContactRows(ctx, dt, pass, false);
  SolveStop sweeps;
  sweeps.maxIterations = kPositionSweeps;
  sweeps.useTolerance = !solver.deterministic;  // limits clear of their stops: no work to do
  sweeps.tolerance = solver.impulseTolerance;
  sweeps.loopRowsWithTree = true;
  sweeps.redundantLoopRowShare = kJointTreeLoopRowShare;  // the tree holds joints and stops
  for (;;) {
    newtonMasses_.resize(bodies_.size());
    for (const BodyId body : islandReach_) {
      const size_t i = static_cast<size_t>(body);
      refreshSolverMass(i);
      const double cost = touching_[i] ? 1.0 : turnCost;
      newtonMasses_[i] = {masses_[i].inverseMass, masses_[i].inverseInertia / cost};
    }
    jointPositionRows_.finalize(newtonMasses_, rotorInverseInertia_);
    pass.forest = jointPositionRows_.treeHoldsAll();
    solveBlocks(jointPositionRows_, pseudoVelocities_, pseudoRotorSpeeds_, sweeps);
    if (pseudoVelocityStep(dt) == dt || turnCost >= kNewtonTurnCost || !pass.forest) break;
    // Cut short in the bodies' own metric: solved again with the dearer turns.
    turnCost = kNewtonTurnCost;
    for (ConstraintRow& r : jointPositionRows_.rows()) r.impulse = 0.0;
    for (const BodyId body : islandReach_) pseudoVelocities_[static_cast<size_t>(body)] = {};
    pseudoRotorSpeeds_.assign(rotorSpeeds_.size(), 0.0);
  }
  const bool fullStep = applyPseudoVelocities(dt) == dt;
  const bool exact = fullStep && pass.forest;
  const bool cutOnForest = !fullStep && pass.forest;
  pass.errorBound = (cutOnForest ? kCutNewtonContraction
                     : exact     ? kExactNewtonContraction
                                 : kNewtonContraction) *
                    error;
  return JointProjection::Newton;
}

double World::measuredJointError(const JointBuildContext& ctx) const {
  double largest = 0.0;  // in units of the joints' own tolerances
  for (const int index : islandJoints()) {
    const size_t j = static_cast<size_t>(index);
    const double error = joints_[j]->positionError(ctx);
    if (error < 0.0) return error;
    largest = std::max(largest, error / jointTolerance(j));
  }
  return largest;
}

double World::pseudoVelocityStep(double dt) const {
  double step = dt;  // (only the island's reach has pseudo-velocities)
  for (const BodyId body : islandReach_)
    step = std::min(step, cappedStep(dt, pseudoVelocities_[static_cast<size_t>(body)],
                                     kMaxNewtonTurn, kMaxCorrectionSlide));
  return step;
}

double World::applyPseudoVelocities(double dt) {
  const double step = pseudoVelocityStep(dt);
  for (const BodyId body : islandReach_) {
    const size_t i = static_cast<size_t>(body);
    SolverVelocity& p = pseudoVelocities_[i];
    if (bodies_[i].isDynamic() && (p.linear != Vec3::Zero() || p.angular != Vec3::Zero()))
      moveBody(bodies_[i], step * p.linear, step * p.angular);
    p = SolverVelocity{};
  }
  applyPseudoRotorSpeeds(step);
  return step;
}

void World::applyPseudoRotorSpeeds(double step) {
  for (size_t slot = 1; slot < pseudoRotorSpeeds_.size(); ++slot) {
    rotorAngles_[slot] += step * pseudoRotorSpeeds_[slot];
    pseudoRotorSpeeds_[slot] = 0.0;
  }
}

double World::jointTolerance() const {
  const SolverSettings& solver = settings_.solver;
  return jointsPreProjected_ ? std::max(solver.positionTolerance, solver.deferredJointError)
                             : solver.positionTolerance;
}

double World::jointTolerance(size_t joint) const {
  return jointBesideTree_[joint] ? settings_.solver.positionTolerance : jointTolerance();
}

void World::markJointsBesideTree() {
  // Blocks and joints both run in row order: one merge.
  const std::span<const RowBlock> blocks = rows_.blocks();
  size_t b = 0;
  for (const int index : islandJoints()) {
    const size_t j = static_cast<size_t>(index);
    const Joint& joint = *joints_[j];
    const int first = joint.firstVelocityRow(), end = first + joint.velocityRowCount();
    while (b < blocks.size() && blocks[b].first + blocks[b].count <= first) ++b;
    for (size_t k = b; k < blocks.size() && blocks[k].first < end; ++k)
      if (blocks[k].kind == BlockKind::Equality && !blocks[k].direct) jointBesideTree_[j] = 1;
  }
}

void World::preProjectJoints(double dt) {
  // The joint errors the last step's position pass left (below jointTolerance()), or that an
  // edit introduced, are removed here with the tree the velocity solve factorised anyway: at
  // these errors the Newton step is exact to ~(error / arm)^2, and the stale rows it leaves for
  // the velocity solve are off by the same tiny turn.
  EqualityTree* tree = rows_.equalityTree();
  jointsPreProjected_ = tree != nullptr && settings_.solver.positionIterations > 0;
  if (jointsPreProjected_ && !rows_.treeHoldsEqualities()) markJointsBesideTree();
  if (!jointsPreProjected_) return;
  double largest = 0.0;
  for (const ConstraintRow& r : rows_.rows()) largest = std::max(largest, std::abs(r.correction));
  // Larger errors than a position pass leaves (a body moved by hand, a scene's misplaced anchor)
  // are the position pass's: its Newton steps check that they converge, and this one could not.
  if (largest * dt <= settings_.solver.positionTolerance ||
      largest * dt > kPreProjectionReach * jointTolerance())
    return;
  tree->project(rows_.rows(), pseudoVelocities_, pseudoRotorSpeeds_);
  // The bodies move with the step's own motion (integratePositions); the rotors now.
  const double step = pseudoVelocityStep(dt);
  applyPseudoRotorSpeeds(step);
  for (const BodyId body : islandReach_) {
    const size_t i = static_cast<size_t>(body);
    SolverVelocity& p = pseudoVelocities_[i];
    if (movable_[i] && (p.linear != Vec3::Zero() || p.angular != Vec3::Zero()))
      preProjectionMoves_[i] = {step * p.linear, step * p.angular};
    p = SolverVelocity{};
  }
}

bool World::correctedInNewtonStep(size_t first, size_t last, NewtonPass& pass) {
  const ContactPoint& c = contacts_[first];
  if (c.bodyA == kGround || c.bodyB == kGround) return false;
  if (pass.iteration == 0)  // the bounce's shift is the contact pass's (addContactPositionRows)
    for (size_t k = first; k < last; ++k)
      if (contacts_[k].bounceShift < 0.0) return false;
  if (!pass.mechanismsKnown) {  // as EqualityTree::closesJointLoop: the ground joins no two
    mechanisms_.reset(bodies_.size());
    for (const int index : islandJoints()) {
      const Joint& j = *joints_[static_cast<size_t>(index)];
      if (j.parent() != kGround && j.child() != kGround) mechanisms_.join(j.parent(), j.child());
    }
    pass.mechanismsKnown = true;
  }
  return mechanisms_.root(c.bodyA) == mechanisms_.root(c.bodyB);
}

double World::addLoopContactRows(const JointBuildContext& ctx, double dt, NewtonPass& pass,
                                 bool measureOnly) {
  double deepest = 0.0;
  for (size_t first = island_->contactBegin; first < island_->contactEnd;) {
    const size_t last = manifoldEnd(first);
    if (correctedInNewtonStep(first, last, pass)) {
      positionRows_.clear();
      const double penetration = addContactPositionRows(positionRows_, first, last, 1, ctx, dt);
      if (penetration > 0.0 && !measureOnly)
        addContactPositionRows(jointPositionRows_, first, last, 1, ctx, dt);
      deepest = std::max(deepest, penetration);
    }
    first = last;
  }
  return deepest;
}

double World::correctContactPositions(int iteration, const JointBuildContext& ctx, double dt,
                                      double& largestChange, NewtonPass* newton) {
  double largest = 0.0;
  for (size_t first = island_->contactBegin; first < island_->contactEnd;) {
    const size_t last = manifoldEnd(first);
    if (newton && correctedInNewtonStep(first, last, *newton)) {
      first = last;
      continue;
    }
    positionRows_.clear();
    const double penetration =
        addContactPositionRows(positionRows_, first, last, iteration, ctx, dt);
    if (penetration > 0.0)
      largestChange = std::max(
          largestChange, correctPositions(contacts_[first].bodyA, contacts_[first].bodyB, dt));
    largest = std::max(largest, penetration);
    first = last;
  }
  return largest;
}

void World::refreshSolverMass(size_t body) {
  masses_[body] = solverMass(bodies_[body]);
}

bool World::needsPositionCorrection(double contactError) const {
  // Beyond the slop by less than the position tolerance is close enough (a resting stack sinks
  // some 10 nm a step into its slop; chasing that cost six block solves per manifold).
  return contactError < -settings_.solver.positionTolerance;
}

double World::addContactPositionRows(RowBuffer& rows, size_t first, size_t last, int iteration,
                                     const JointBuildContext& ctx, double dt) const {
  // Push penetrating points apart along their normal, re-measured at the current poses from the
  // points fixed on each body (a little penetration, the slop, is left alone). A manifold's
  // points are corrected together (one exact block): one at a time they would tilt a resting
  // face a little, the same way every step.
  int rowsAdded = 0;
  double largest = 0.0;
  // A bouncing manifold shifts as one: by its first point to touch (the smallest shift), every
  // point alike. Each point's own shift made a manifold's points on a line (dependent rows) ask
  // for different shifts, and the block pushed and pulled a million N s against itself (the MF-4
  // reversing into the bin's wall had its turret torn off).
  double bounceShift = -std::numeric_limits<double>::infinity();
  if (iteration == 0)
    for (size_t k = first; k < last; ++k)
      if (contacts_[k].bounceShift < 0.0)
        bounceShift = std::max(bounceShift, contacts_[k].bounceShift);
  const bool bouncing = bounceShift > -std::numeric_limits<double>::infinity();
  for (size_t k = first; k < last; ++k) {
    const ContactPoint& c = contacts_[k];
    const RigidBody& a = bodies_[static_cast<size_t>(c.bodyA)];
    const RigidBody& b = bodies_[static_cast<size_t>(c.bodyB)];
    const Vec3 pointA = a.toWorld(c.localA), pointB = b.toWorld(c.localB);
    const double separation = c.normal.dot(pointB - pointA);
    // The points that bounce are held to the shift; the manifold's others may follow it.
    const bool bounce = bouncing && c.bounceShift < 0.0;
    const double error = bouncing ? -bounceShift : separation + settings_.contactSlop;
    const bool penetrating = !bouncing && needsPositionCorrection(error);
    const int index =
        rows.addBlock(bounce ? BlockKind::Equality : BlockKind::Bounded, 1, c.bodyA, c.bodyB);
    ConstraintRow& row = rows.row(index);
    const Vec3 armA = pointA - a.position, armB = pointB - b.position;
    row.linearA = -c.normal;
    row.angularA = -armA.cross(c.normal);
    row.linearB = c.normal;
    row.angularB = armB.cross(c.normal);
    row.lower = bounce ? -1e300 : 0.0;
    // Points not penetrating beyond the slop only keep the others from pulling them in.
    row.target =
        bouncing
            ? bounceShift / dt
            : (penetrating ? ctx.correctionTarget(settings_.contactCorrectionFactor * error) : 0.0);
    if (bounce || penetrating) {
      ++rowsAdded;
      largest = std::max(largest, std::abs(error));
    }
  }
  if (rowsAdded > 0 && last - first > 1)
    rows.mergeLastBlocks(static_cast<int>(last - first), BlockKind::Limited);
  return largest;
}

double World::correctPositions(BodyId a, BodyId b, double dt, double* stepTaken) {
  const size_t ids[2] = {static_cast<size_t>(a), static_cast<size_t>(b)};
  for (size_t id : ids) refreshSolverMass(id);
  positionRows_.finalize(masses_, rotorInverseInertia_);
  const SolveResult r = solveBlocks(positionRows_, pseudoVelocities_, pseudoRotorSpeeds_, {});
  // Both bodies' moves scaled alike when either would go too far (kMaxCorrectionSlide,
  // kMaxCorrectionTurn): the block's direction kept, the rest left to the next iteration.
  double step = dt;
  for (size_t id : ids)
    step = std::min(step,
                    cappedStep(dt, pseudoVelocities_[id], kMaxCorrectionTurn, kMaxCorrectionSlide));
  for (size_t id : ids) {
    SolverVelocity& p = pseudoVelocities_[id];
    if (bodies_[id].isDynamic() && (p.linear != Vec3::Zero() || p.angular != Vec3::Zero()))
      moveBody(bodies_[id], step * p.linear, step * p.angular);
    p = SolverVelocity{};
  }
  if (stepTaken) *stepTaken = step;
  return r.largestImpulseChange;
}

void World::moveBody(RigidBody& body, const Vec3& displacement, const Vec3& turn) {
  body.position += displacement;
  // The correction turns the body and its motion together: L turns with it, so the body-frame
  // momentum and the kinetic energy are unchanged. (Holding L fixed in the world would let
  // w = I(q)^-1 L blow up through a slender link's small inertia.)
  const Quat rotation = rotationFromVector(turn);
  body.orientation = (rotation * body.orientation).normalized();
  body.angularMomentum = rotation * body.angularMomentum;
  body.updateDerived();
}

}  // namespace impetus
