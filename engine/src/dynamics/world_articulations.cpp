// World's articulations (WorldSettings::articulations): trees of bodies joined by revolute and
// spherical joints stepped in joint coordinates (articulation/articulation.h), their contacts
// and joint stops solved over the joint velocities.
#include <algorithm>
#include <cmath>

#include "../articulation/articulation.h"
#include "../articulation/articulation_rows.h"
#include "impetus/dynamics/world.h"

namespace impetus {
namespace {

/// The joint qualifies for an articulation this step: revolute or spherical, no motor or
/// repeater geared to it, no joint friction (a dry-friction row the joint space does not carry).
bool articulable(const Joint& j) {
  return (j.type() == JointType::Revolute || j.type() == JointType::Spherical) &&
         j.drives().empty() && j.friction.torque == 0.0 && j.friction.force == 0.0;
}

/// A joint stop `gap` (rad) away from a joint turning at `rate` (rad/s) is given its row this
/// step: it could be reached (twice the step's turn, and 0.02 rad for what the contacts' split
/// impulses may add).
bool stopWithinReach(double gap, double rate, double dt) {
  return gap <= 2.0 * std::abs(rate) * dt + 0.02;
}

/// Newton steps of a tree's joint-space projection (Articulation::projectOntoJoints) and the
/// joint-coordinate step (rad) after which it stops, or which it foresees the next step within:
/// near the nearest pose Newton squares the step (5.6e-3, 6.7e-4, 8.5e-6 rad in a whip), so the
/// pose is left within ~1e-3 rad of it at most. Chain100 keeps the same energy stopping there as
/// at 1e-7 (0.647 of E0 after 10 s) in 4.1 steps a step against 6.1; chain30 in 1.4 against 2.7.
/// Cut short the pose is still on the joints, only not the nearest.
constexpr int kTreeProjectionIterations = 20;
constexpr double kTreeProjectionTolerance = 1e-3;

}  // namespace

void World::buildArticulations() {
  articulationsDirty_ = false;
  articulations_.clear();
  const size_t n = bodies_.size();
  articulationOfBody_.assign(n, -1);
  if (!articulationRows_) articulationRows_ = std::make_unique<ArticulationRows>();
  // The joint each dynamic body hangs from, and whether its tree can be an articulation.
  std::vector<int> parentJoint(n, -1);
  std::vector<char> bad(n, 0);
  std::vector<std::vector<int>> children(n);
  std::vector<char> visited(n, 0);
  for (size_t k = 0; k < joints_.size(); ++k) {
    const Joint& j = *joints_[k];
    const auto p = static_cast<size_t>(j.parent()), c = static_cast<size_t>(j.child());
    const bool parentDynamic = bodies_[p].isDynamic(), childDynamic = bodies_[c].isDynamic();
    if (!childDynamic) {  // hung the wrong way round (or between fixed bodies)
      if (parentDynamic) bad[p] = 1;
      continue;
    }
    if (!articulable(j) || parentJoint[c] >= 0 ||
        (!parentDynamic && bodies_[p].type != BodyType::Static))
      bad[c] = 1;
    if (parentJoint[c] < 0) parentJoint[c] = static_cast<int>(k);
    if (parentDynamic) children[p].push_back(static_cast<int>(c));
  }
  // Roots: jointed dynamic bodies that hang from nothing dynamic. Walk each tree; a bad body
  // anywhere (or a loop: a body with two parents is bad) leaves the whole tree to the rows.
  for (size_t root = 1; root < n; ++root) {
    if (!bodies_[root].isDynamic()) continue;
    const int pj = parentJoint[root];
    if (pj >= 0 &&
        bodies_[static_cast<size_t>(joints_[static_cast<size_t>(pj)]->parent())].isDynamic())
      continue;
    if (pj < 0 && children[root].empty()) continue;  // a lone body
    std::vector<ArticulationLinkDesc> links;
    bool ok = true;
    std::vector<std::pair<size_t, int>> stack{{root, -1}};
    while (ok && !stack.empty()) {
      const auto [body, parentLink] = stack.back();
      stack.pop_back();
      if (bad[body] || visited[body]) {  // a loop reaches a body twice
        ok = false;
        break;
      }
      visited[body] = 1;
      ArticulationLinkDesc d;
      d.body = static_cast<BodyId>(body);
      d.parent = parentLink;
      const int jk = parentJoint[body];
      if (jk >= 0) {
        Joint& j = *joints_[static_cast<size_t>(jk)];
        d.source = &j;
        d.joint = j.type() == JointType::Revolute ? LinkJoint::Revolute : LinkJoint::Spherical;
        if (parentLink < 0) d.staticParent = j.parent();
      }
      const int self = static_cast<int>(links.size());
      links.push_back(d);
      for (auto it = children[body].rbegin(); it != children[body].rend(); ++it)
        stack.emplace_back(static_cast<size_t>(*it), self);
    }
    if (!ok) continue;
    const int index = static_cast<int>(articulations_.size());
    articulations_.push_back(std::make_unique<Articulation>(std::move(links), bodies_));
    for (const BodyId b : articulations_.back()->bodies())
      articulationOfBody_[static_cast<size_t>(b)] = index;
  }
  articulationCandidate_.assign(articulations_.size(), 0);
  articulationActive_.assign(articulations_.size(), 0);
  articulationFree_.assign(articulations_.size(), 0);
  articulationProjected_.assign(articulations_.size(), 0);
}

void World::markArticulationCandidates() {
  if (articulationsDirty_) buildArticulations();
  statistics_.treeProjectionIterations = 0;
  articulated_.assign(bodies_.size(), 0);
  articulationIterations_ = 0;
  for (size_t a = 0; a < articulations_.size(); ++a) {
    const Articulation& x = *articulations_[a];
    bool ok = settings_.articulations && x.depth() <= settings_.articulationMaxDepth &&
              !bodies_[static_cast<size_t>(x.body(0))].sleeping;
    for (int l = 0; ok && l < x.linkCount(); ++l)
      if (x.sourceJoint(l) != nullptr && !articulable(*x.sourceJoint(l))) ok = false;
    // Too deep for the joint-space factor (or the articulations off), a fixed-base tree of
    // undamped hinges steps with its joints exact all the same when nothing touches it
    // (stepProjectedTree).
    const SolverSettings& solver = settings_.solver;
    bool projected = !ok && settings_.projectTreesInJointSpace && solver.directJoints &&
                     solver.positionIterations > 0 && x.hingesOnly() && x.fixedBase() &&
                     !bodies_[static_cast<size_t>(x.body(0))].sleeping;
    for (int l = 0; projected && l < x.linkCount(); ++l) {
      const Joint* j = x.sourceJoint(l);
      projected = j != nullptr && articulable(*j) && j->damping == 0.0;
    }
    articulationCandidate_[a] = ok || projected;
    articulationProjected_[a] = projected;
    articulationActive_[a] = 0;
  }
}

void World::chooseArticulations() {
  articulationContactEnd_ = awakeContactCount_;
  if (articulations_.empty()) return;
  for (size_t a = 0; a < articulations_.size(); ++a)
    articulationActive_[a] = articulationCandidate_[a] &&
                             !bodies_[static_cast<size_t>(articulations_[a]->body(0))].sleeping;
  // A contact with another moving body, or with rolling, spinning or track friction, needs the
  // rows: its articulation (both, between two) falls back.
  const auto articulationOf = [&](BodyId b) { return articulationOfBody_[static_cast<size_t>(b)]; };
  for (size_t i = 0; i < awakeContactCount_; ++i) {
    const ContactPoint& c = contacts_[i];
    const int xa = articulationOf(c.bodyA), xb = articulationOf(c.bodyB);
    if (xa < 0 && xb < 0) continue;
    const bool plain = c.rolling == 0.0 && c.spinning == 0.0 && c.trackMotor < 0;
    const auto check = [&](int x, BodyId other, int xOther) {
      if (x < 0) return;
      const bool fixedOther = !body(other).isDynamic();
      if (!plain || !(xOther == x || fixedOther)) articulationActive_[static_cast<size_t>(x)] = 0;
    };
    check(xa, c.bodyB, xb);
    check(xb, c.bodyA, xa);
  }
  // A compliant contact is rows, as one with another moving body.
  for (const ContactPoint& c : compliant_.points())
    for (const BodyId b : {c.bodyA, c.bodyB})
      if (const int x = articulationOf(b); x >= 0) articulationActive_[static_cast<size_t>(x)] = 0;
  markFreeArticulations(lastDt_);
  markProjectedTrees(lastDt_);
  bool any = false;
  for (size_t a = 0; a < articulations_.size(); ++a) {
    const bool active = articulationActive_[a];
    any = any || active;
    for (const BodyId b : articulations_[a]->bodies()) {
      const auto i = static_cast<size_t>(b);
      articulated_[i] = active;
      if (active) {  // immovable to the rows
        masses_[i] = {};
        velocities_[i] = {};
      }
    }
  }
  if (!any) return;
  // Their contacts behind the rows' (stable, no allocation once warm).
  contactScratch_.clear();
  size_t kept = 0;
  for (size_t i = 0; i < awakeContactCount_; ++i) {
    const ContactPoint& c = contacts_[i];
    if (articulated_[static_cast<size_t>(c.bodyA)] || articulated_[static_cast<size_t>(c.bodyB)])
      contactScratch_.push_back(c);
    else
      contacts_[kept++] = c;
  }
  std::copy(contactScratch_.begin(), contactScratch_.end(),
            contacts_.begin() + static_cast<std::ptrdiff_t>(kept));
  awakeContactCount_ = kept;
  articulationContactEnd_ = kept + contactScratch_.size();
}

void World::markFreeArticulations(double dt) {
  for (size_t a = 0; a < articulations_.size(); ++a)
    articulationFree_[a] = articulationActive_[a] && articulations_[a]->freeStepSuits();
  for (size_t i = 0; i < awakeContactCount_; ++i)
    for (const BodyId b : {contacts_[i].bodyA, contacts_[i].bodyB}) {
      const int x = articulationOfBody_[static_cast<size_t>(b)];
      if (x >= 0) articulationFree_[static_cast<size_t>(x)] = 0;
    }
  for (size_t a = 0; a < articulations_.size(); ++a) {
    const Articulation& x = *articulations_[a];
    // A stop within reach (or one still pushing) needs the rows.
    for (int l = 0; articulationFree_[a] && l < x.linkCount(); ++l) {
      const Joint* j = x.sourceJoint(l);
      if (j == nullptr || x.jointKind(l) != LinkJoint::Revolute || !j->limit.enabled) continue;
      if (stopWithinReach(j->position() - j->limit.lower, j->rate(), dt) ||
          stopWithinReach(j->limit.upper - j->position(), j->rate(), dt) || j->limitForce() != 0.0)
        articulationFree_[a] = 0;
    }
  }
}

void World::markProjectedTrees(double dt) {
  // Untouched, no stop within reach (the projection knows no stops or contacts): else the rows.
  for (size_t i = 0; i < awakeContactCount_; ++i)
    for (const BodyId b : {contacts_[i].bodyA, contacts_[i].bodyB}) {
      const int x = articulationOfBody_[static_cast<size_t>(b)];
      if (x >= 0 && articulationProjected_[static_cast<size_t>(x)])
        articulationActive_[static_cast<size_t>(x)] = 0;
    }
  for (size_t a = 0; a < articulations_.size(); ++a) {
    if (!articulationProjected_[a] || !articulationActive_[a]) continue;
    const Articulation& x = *articulations_[a];
    for (int l = 0; articulationActive_[a] && l < x.linkCount(); ++l) {
      const Joint* j = x.sourceJoint(l);
      if (!j->limit.enabled) continue;
      if (stopWithinReach(j->position() - j->limit.lower, j->rate(), dt) ||
          stopWithinReach(j->limit.upper - j->position(), j->rate(), dt) || j->limitForce() != 0.0)
        articulationActive_[a] = 0;
    }
  }
}

void World::stepProjectedTree(Articulation& x, double dt) {
  // The rows' step with the tree's joints exact, each part in linear time: the momenta
  // projected onto the joints (the velocity solve), the bodies moved as free bodies
  // (integratePositions), their poses projected onto the joints (the position pass). The
  // configuration is read from the bodies every step, not kept from the last: a world saved
  // and loaded then continues bit for bit.
  x.readHingeConfiguration(bodies_);
  x.projectVelocities(dt, bodies_, midpointRotation_);
  linkImpulses_.assign(static_cast<size_t>(x.linkCount()), Vec6::Zero());  // nothing touched it
  linkStopImpulses_.assign(static_cast<size_t>(x.linkCount()), 0.0);
  storeArticulatedJointImpulses(x, dt);
  for (const BodyId id : x.bodies()) {
    RigidBody& b = bodies_[static_cast<size_t>(id)];
    b.position += dt * b.linearVelocity;
    b.orientation = integrateOrientation(b.orientation, b.angularVelocity, dt);
    b.updateDerived();
  }
  statistics_.treeProjectionIterations = std::max(
      statistics_.treeProjectionIterations,
      x.projectOntoJoints(bodies_, kTreeProjectionIterations, kTreeProjectionTolerance, dt));
  for (int l = 0; l < x.linkCount(); ++l)
    x.sourceJoint(l)->storeArticulatedCoordinates(x.angle(l), x.velocity()[x.dofIndex(l)]);
}

bool World::stepFreeArticulation(Articulation& x, double dt) {
  x.readConfiguration(bodies_);
  if (!x.stepFree(dt, settings_.gravity, bodies_)) return false;
  linkImpulses_.assign(static_cast<size_t>(x.linkCount()), Vec6::Zero());  // nothing touched it
  linkStopImpulses_.assign(static_cast<size_t>(x.linkCount()), 0.0);
  storeArticulatedJointImpulses(x, dt);
  for (int l = 0; l < x.linkCount(); ++l)
    if (x.jointKind(l) == LinkJoint::Revolute)
      x.sourceJoint(l)->storeArticulatedCoordinates(x.angle(l), x.velocity()[x.dofIndex(l)]);
  return true;
}

void World::addArticulationContactRows(const Articulation& x, ArticulationRows& rows, double dt) {
  const SolverSettings& solver = settings_.solver;
  // Contacts: the normal row J q' >= target (speculative while apart, the correction factor's
  // share of a penetration beyond the slop when in), its friction pair J q' = 0 within the
  // disk; a static or kinematic other body's point velocity moves the targets.
  for (size_t i = awakeContactCount_; i < articulationContactEnd_; ++i) {
    const ContactPoint& c = contacts_[i];
    const int la = x.linkOf(c.bodyA), lb = x.linkOf(c.bodyB);
    if (la < 0 && lb < 0) continue;
    // This step's rows, if any: the numbers the point carries from last step are another
    // contact's now (storeArticulationImpulses reads its impulses back through them).
    contacts_[i].normalRow = contacts_[i].frictionRow = -1;
    const RigidBody& ba = body(c.bodyA);
    const RigidBody& bb = body(c.bodyB);
    const Vec3 pa = ba.toWorld(c.localA), pb = bb.toWorld(c.localB);
    // Velocity of the fixed side's point, what the row's J q' must be measured against.
    const Vec3 fixedVelocity = la < 0   ? ba.pointVelocity(pa)
                               : lb < 0 ? Vec3(-bb.pointVelocity(pb))
                                        : Vec3::Zero();
    // A speculative point (5 cm margin) that cannot close within the step at twice its
    // bodies' approach speed costs no rows (two in three of a lying ragdoll's), nor does a
    // point's friction before it touches: its bound, mu times a zero normal impulse, is 0.
    const double approachBound =
        std::max(-c.normal.dot(bb.pointVelocity(pb) - ba.pointVelocity(pa)), 0.0) +
        settings_.gravity.norm() * dt;
    const double warm1 = c.tangentImpulse1, warm2 = c.tangentImpulse2;
    contacts_[i].tangentImpulse1 = contacts_[i].tangentImpulse2 = 0.0;
    if (c.separation > 2.0 * approachBound * dt && c.normalImpulse == 0.0) continue;
    const int normal = rows.add(ArticulationRowKind::Normal, c.normalImpulse);
    contacts_[i].normalRow = normal;
    const bool friction = c.friction > 0.0 && (c.separation <= 0.0 || c.normalImpulse > 0.0);
    if (friction) {
      contacts_[i].frictionRow = rows.add(ArticulationRowKind::Friction, warm1, normal, c.friction);
      rows.add(ArticulationRowKind::Friction, warm2, normal, c.friction);
    }
    // J q' = d . (v_B(p_B) - v_A(p_A)) for d = n, t1, t2: a force d at p_B on B and -d at p_A
    // on A; the fixed side's point velocity is what J q' is measured against.
    const int count = friction ? 3 : 1;
    const Vec3 directions[3] = {c.normal, c.tangent1, c.tangent2};
    Vec6 forces[3];
    for (const int side : {1, -1}) {
      const int link = side > 0 ? lb : la;
      if (link < 0) continue;
      const Vec3 arm = (side > 0 ? pb : pa) - x.motionOrigin();  // moments about it
      for (int k = 0; k < count; ++k)
        forces[k] = side * spatialVector(arm.cross(directions[k]), directions[k]);
      rows.addLinkForces(normal, count, link, forces, x);
    }
    const double carried = c.normal.dot(fixedVelocity);
    if (friction) {
      rows.setTarget(normal + 1, c.tangent1.dot(fixedVelocity));
      rows.setTarget(normal + 2, c.tangent2.dot(fixedVelocity));
    }
    // Apart: the speculative row lets the gap close within the step, no further. In: the
    // velocities only stop approaching, the correction factor's share of the depth beyond
    // the slop is a split impulse (solveCorrection).
    double target = 0.0;
    if (c.separation > 0.0) {
      target = -c.separation / dt;
    } else {
      const double depth = std::max(-c.separation - settings_.contactSlop, 0.0);
      rows.setCorrection(normal, std::min(settings_.contactCorrectionFactor * depth / dt,
                                          solver.maxCorrectionSpeed));
    }
    const double approach = rows.velocity(normal, x) - carried;
    if (c.restitution > 0.0 && approach < -settings_.restitutionThreshold)
      target = std::max(target, -c.restitution * approach);
    rows.setTarget(normal, target + carried);
    contacts_[i].approachSpeed = approach;
  }
}

void World::storeArticulationImpulses(Articulation& x, const ArticulationRows& rows, double dt) {
  // The impulses back to the contacts (warm start, force read-out), and what they did to
  // each link (world, moment about the origin) for the joints' read-outs.
  linkImpulses_.assign(static_cast<size_t>(x.linkCount()), Vec6::Zero());
  for (size_t i = awakeContactCount_; i < articulationContactEnd_; ++i) {
    ContactPoint& c = contacts_[i];
    const int la = x.linkOf(c.bodyA), lb = x.linkOf(c.bodyB);
    if (la < 0 && lb < 0) continue;
    c.normalImpulse = c.normalRow >= 0 ? rows.impulse(c.normalRow) : 0.0;
    if (c.frictionRow >= 0) {
      c.tangentImpulse1 = rows.impulse(c.frictionRow);
      c.tangentImpulse2 = rows.impulse(c.frictionRow + 1);
    }
    const Vec3 onB = c.normalImpulse * c.normal + c.tangentImpulse1 * c.tangent1 +
                     c.tangentImpulse2 * c.tangent2;
    if (lb >= 0) {
      const Vec3 p = body(c.bodyB).toWorld(c.localB);
      linkImpulses_[static_cast<size_t>(lb)] += spatialVector(p.cross(onB), onB);
    }
    if (la >= 0) {
      const Vec3 p = body(c.bodyA).toWorld(c.localA);
      linkImpulses_[static_cast<size_t>(la)] -= spatialVector(p.cross(onB), onB);
    }
  }
  x.finishVelocities();
  linkStopImpulses_.assign(static_cast<size_t>(x.linkCount()), 0.0);
  for (const StopRow& s : stopRows_)
    linkStopImpulses_[static_cast<size_t>(s.link)] += s.side * rows.impulse(s.row);
  storeArticulatedJointImpulses(x, dt);
}

void World::storeArticulatedJointImpulses(Articulation& x, double dt) {
  x.jointImpulses(linkImpulses_);
  for (int l = 0; l < x.linkCount(); ++l) {
    Joint* source = x.sourceJoint(l);
    if (source == nullptr) continue;
    const Vec6& p = linkImpulses_[static_cast<size_t>(l)];
    const double stopImpulse = linkStopImpulses_[static_cast<size_t>(l)];
    const Vec3 anchor = body(source->child()).toWorld(source->frameInChild().anchor);
    source->storeArticulatedImpulses(p.tail<3>(), p.head<3>() - anchor.cross(p.tail<3>()),
                                     stopImpulse, bodies_, dt);
  }
}

void World::stepArticulations(double dt) {
  const SolverSettings& solver = settings_.solver;
  for (size_t a = 0; a < articulations_.size(); ++a) {
    if (!articulationActive_[a]) continue;
    Articulation& x = *articulations_[a];
    if (articulationFree_[a] && stepFreeArticulation(x, dt)) continue;
    if (articulationProjected_[a]) {
      stepProjectedTree(x, dt);
      continue;
    }
    x.readConfiguration(bodies_);
    x.projectMomentum(dt, bodies_, midpointRotation_);
    ArticulationRows& rows = *articulationRows_;
    rows.begin(x);
    addArticulationContactRows(x, rows, dt);
    stopRows_.clear();
    // Joint stops, last in each sweep so that it ends with them held; speculative (the row lets
    // the joint reach its stop within the step, no further) or, past it, held and pushed back
    // by the correction factor's share as a split impulse.
    const auto addStop = [&](int l, double side, double gap, double warm) {
      const int r = rows.add(ArticulationRowKind::Stop, warm);
      stopRows_.push_back({r, l, side});
      rows.setStop(r, l, side, x);
      rows.setTarget(r, gap >= 0.0 ? -gap / dt : 0.0);
      if (gap < 0.0)
        rows.setCorrection(
            r, std::min(-solver.positionCorrectionFactor * gap / dt, solver.maxCorrectionSpeed));
    };
    const auto stopGap = [&](int l, double side) {
      const JointLimit& limit = x.sourceJoint(l)->limit;
      return side > 0 ? x.angle(l) - limit.lower : limit.upper - x.angle(l);
    };
    const auto limited = [&](int l) {
      return x.jointKind(l) == LinkJoint::Revolute && x.sourceJoint(l)->limit.enabled;
    };
    for (int l = 0; l < x.linkCount(); ++l) {
      if (!limited(l)) continue;
      const double rate = x.velocity()[x.dofIndex(l)];
      for (const double side : {1.0, -1.0}) {
        const double gap = stopGap(l, side);
        // Warm start from the joint's stop read-out (saved with its state, so a loaded world
        // continues bit for bit): only one stop of a range pushes at a time.
        const double warm = std::max(side * x.sourceJoint(l)->limitForce() * dt, 0.0);
        // The nearer stop always has its row: the contacts' split impulses may swing the joint
        // further than its velocity says (a foot pushed out of the floor turns its ankle).
        const bool nearer = gap <= stopGap(l, -side);
        if (nearer || stopWithinReach(gap, rate, dt) || warm > 0.0) addStop(l, side, gap, warm);
      }
    }
    rows.prepare(x);
    const int budget = std::max(solver.velocityIterations, 1);
    const double tolerance = solver.deterministic ? -1.0 : solver.velocityTolerance;
    const double stall = solver.deterministic ? 0.0 : solver.stallVelocity;
    ArticulationSolveResult result = rows.solve(budget, tolerance, stall);
    rows.applyImpulses(x);
    // A stop the solve's velocities would pass that had no row (the contacts swung its joint
    // further than the step's start suggested) gets one, and the rows iterate again.
    for (int pass = 0; pass < 2; ++pass) {
      bool added = false;
      for (int l = 0; l < x.linkCount(); ++l) {
        if (!limited(l)) continue;
        const double rate = x.velocity()[x.dofIndex(l)];
        for (const double side : {1.0, -1.0}) {
          const double gap = stopGap(l, side);
          if (gap + side * rate * dt >= 0.0) continue;
          bool present = false;
          for (const StopRow& s : stopRows_) present = present || (s.link == l && s.side == side);
          if (present) continue;
          addStop(l, side, gap, 0.0);
          added = true;
        }
      }
      if (!added) break;
      rows.prepare(x);
      const ArticulationSolveResult more = rows.solve(budget, tolerance, stall);
      rows.applyImpulses(x);
      result.iterations += more.iterations;
    }
    articulationIterations_ = std::max(articulationIterations_, result.iterations);
    storeArticulationImpulses(x, rows, dt);
    pseudoVelocity_.resize(static_cast<size_t>(x.dof()));
    rows.solveCorrection(x, budget, tolerance, pseudoVelocity_.data());
    // The hinges' rates (before the split impulses join q') and, once integrated, angles: what
    // their joints would measure from the bodies, without measuring them.
    articulatedRates_.resize(static_cast<size_t>(x.linkCount()));
    for (int l = 0; l < x.linkCount(); ++l)
      if (x.jointKind(l) == LinkJoint::Revolute)
        articulatedRates_[static_cast<size_t>(l)] = x.velocity()[x.dofIndex(l)];
    x.integrateAndWrite(dt, bodies_, pseudoVelocity_.data());
    for (int l = 0; l < x.linkCount(); ++l)
      if (x.jointKind(l) == LinkJoint::Revolute)
        x.sourceJoint(l)->storeArticulatedCoordinates(x.angle(l),
                                                      articulatedRates_[static_cast<size_t>(l)]);
  }
}

void World::projectTreesOntoJoints() {
  if (!settings_.projectTreesInJointSpace || articulations_.empty()) return;
  // A touched tree keeps the position pass: the contacts' corrections share its metric.
  treeTouched_.assign(articulations_.size(), 0);
  for (size_t i = 0; i < awakeContactCount_; ++i)
    for (const BodyId b : {contacts_[i].bodyA, contacts_[i].bodyB}) {
      const int x = articulationOfBody_[static_cast<size_t>(b)];
      if (x >= 0) treeTouched_[static_cast<size_t>(x)] = 1;
    }
  for (size_t a = 0; a < articulations_.size(); ++a) {
    Articulation& x = *articulations_[a];
    if (articulationActive_[a] || treeTouched_[a] || !x.fixedBase() ||
        bodies_[static_cast<size_t>(x.body(0))].sleeping)
      continue;
    statistics_.treeProjectionIterations =
        std::max(statistics_.treeProjectionIterations,
                 x.projectOntoJoints(bodies_, kTreeProjectionIterations, kTreeProjectionTolerance));
  }
}

}  // namespace impetus
