#include "impetus/dynamics/world.h"

#include "../articulation/articulation.h"
#include "../articulation/articulation_rows.h"
#include "../contact/collision_world.h"
#include "../contact/continuous_collision.h"
#include "impetus/drives/motor_rows.h"
#include "impetus/joints/beam_joint.h"
#include "impetus/util/headroom.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace impetus {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// A rotation whose x axis is the unit vector `axis`.
Quat frameWithXAxis(const Vec3& axis) {
  return Quat::FromTwoVectors(Vec3::UnitX(), axis);
}

}  // namespace

std::pair<JointFrame, JointFrame> jointFramesFromWorld(const RigidBody& parent,
                                                       const RigidBody& child, const Vec3& anchor,
                                                       const Vec3& axis) {
  const Quat world = frameWithXAxis(axis.normalized());
  JointFrame inParent{parent.orientation.inverse() * (anchor - parent.position),
                      parent.orientation.inverse() * world};
  JointFrame inChild{child.orientation.inverse() * (anchor - child.position),
                     child.orientation.inverse() * world};
  return {inParent, inChild};
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

World::World(WorldSettings settings)
    : settings_(settings),
      collision_(std::make_unique<CollisionWorld>()),
      continuous_(std::make_unique<ContinuousCollision>()) {
  rows_.setCacheActiveSets(true);  // the velocity rows are iterated; the position rows are not
  RigidBodyDesc ground;
  ground.name = "world";
  ground.type = BodyType::Static;
  bodies_.push_back(makeRigidBody(ground));
}

BodyId World::addBody(const RigidBodyDesc& desc) {
  if (findBody(desc.name) >= 0)
    throw std::invalid_argument("duplicate body name '" + desc.name + "'");
  bodies_.push_back(makeRigidBody(desc));
  articulationsDirty_ = true;
  return static_cast<BodyId>(bodies_.size() - 1);
}

void World::checkJointBodies(const std::string& name, BodyId parent, BodyId child,
                             const Vec3& axis) const {
  const auto valid = [&](BodyId id) { return id >= 0 && id < bodyCount(); };
  if (!valid(parent) || !valid(child))
    throw std::invalid_argument("joint '" + name + "': body index out of range");
  if (parent == child) throw std::invalid_argument("joint '" + name + "': joins a body to itself");
  if (!axis.allFinite() || axis.norm() < 1e-9)
    throw std::invalid_argument("joint '" + name + "': zero or non-finite axis");
  if (!body(parent).isDynamic() && !body(child).isDynamic())
    throw std::invalid_argument("joint '" + name + "': joins two non-dynamic bodies");
}

Joint& World::addJoint(std::unique_ptr<Joint> joint) {
  const Vec3 axis = joint->frameInParent().orientation * Vec3::UnitX();
  checkJointBodies(joint->name(), joint->parent(), joint->child(), axis);
  registerJoint(std::move(joint));
  return *joints_.back();
}

void World::registerJoint(std::unique_ptr<Joint> joint) {
  wake(joint->parent());  // a new link: both islands become one
  wake(joint->child());
  collision_->setPairEnabled(joint->parent(), joint->child(), false);
  for (const BodyId id : {joint->parent(), joint->child()})  // the ground is no link
    if (body(id).isDynamic()) collision_->markJointed(id);
  joints_.push_back(std::move(joint));
  articulationsDirty_ = true;
}

void World::addShape(BodyId body, const ShapeDesc& shape) {
  if (body < 0 || body >= bodyCount())
    throw std::invalid_argument("shape on a body index out of range");
  if (shape.material < 0 || shape.material >= materials_.size())
    throw std::invalid_argument("shape on body '" + this->body(body).name +
                                "': unknown material index");
  if (shape.trackMotor >= 0) {
    if (shape.trackMotor >= motorCount() || motors_[static_cast<size_t>(shape.trackMotor)].joint)
      throw std::invalid_argument("shape on body '" + this->body(body).name +
                                  "': trackMotor must name a motor added without a joint");
    if (!(shape.sprocketRadius > 0.0) || !(shape.trackDirection.norm() > 0.0))
      throw std::invalid_argument("shape on body '" + this->body(body).name +
                                  "': a track needs a sprocket radius > 0 and a direction");
    // The rotor sees the hull's mass through the belt: (R / r)^2 m per track (an estimate; the
    // characteristic row is exact only for a single rigid load).
    MotorEntry& m = motors_[static_cast<size_t>(shape.trackMotor)];
    const double k = shape.sprocketRadius / m.motor->params().gearRatio;
    m.loadInertia += k * k * this->body(body).mass;
  }
  try {
    collision_->addShape(body, this->body(body), shape);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("shape on body '" + this->body(body).name + "': " + e.what());
  }
}

void World::setCollision(BodyId a, BodyId b, bool enabled) {
  wake(a);  // a support taken away, or a new contact to find
  wake(b);
  collision_->setPairEnabled(a, b, enabled);
}

Vec3 World::contactForce(BodyId body) const {
  Vec3 f = Vec3::Zero();
  const double dt = lastSubstepDuration();
  for (const std::span<const ContactPoint> points : {contacts(), compliant_.points()})
    for (const ContactPoint& c : points) {
      if (c.bodyB == body) f += c.force(dt);
      if (c.bodyA == body) f -= c.force(dt);
    }
  return f;
}

std::optional<RayHit> World::castRay(const Vec3& from, const Vec3& to) const {
  return collision_->castRayStatic(from, to);
}

DcMotor& World::addMotor(std::string name, Joint& joint, const DcMotorParams& params) {
  if (findMotor(name)) throw std::invalid_argument("duplicate motor name '" + name + "'");
  if (joint.type() == JointType::Prismatic && !(params.lead > 0.0))
    throw std::invalid_argument("motor '" + name + "': a prismatic joint needs a lead (m/rad)");
  const double ratio =
      (joint.type() == JointType::Prismatic ? params.lead : 1.0) / params.gearRatio;
  // The rotor starts geared to the joint's present state.
  const double angle = joint.position() / ratio, speed = joint.rate() / ratio;
  auto motor = std::make_unique<DcMotor>(std::move(name), params, newRotor(params, angle, speed));
  motor->setRatio(ratio);
  motor->setState(angle, speed);
  joint.addDrive(*motor, ratio, true);
  articulationsDirty_ = true;
  motors_.push_back({std::move(motor), &joint});
  return *motors_.back().motor;
}

DcMotor& World::addMotor(std::string name, const DcMotorParams& params) {
  if (findMotor(name)) throw std::invalid_argument("duplicate motor name '" + name + "'");
  auto motor = std::make_unique<DcMotor>(std::move(name), params, newRotor(params, 0.0, 0.0));
  motors_.push_back({std::move(motor), nullptr});
  return *motors_.back().motor;
}

int World::newRotor(const DcMotorParams& params, double angle, double speed) {
  rotorSpeeds_.push_back(speed);
  rotorAngles_.push_back(angle);
  rotorInverseInertia_.push_back(1.0 / params.effectiveRotorInertia());
  return static_cast<int>(rotorSpeeds_.size()) - 1;
}

double World::motorEffectiveInertia(const MotorEntry& m) const {
  const DcMotor& motor = *m.motor;
  const double rotor = 1.0 / rotorInverseInertia_[static_cast<size_t>(motor.rotorSlot())];
  if (motor.params().compliantGear()) return rotor;  // the load is behind the gear's spring
  return rotor +
         (m.joint ? motor.ratio() * motor.ratio() * m.joint->loadInertia(bodies_) : m.loadInertia);
}

void World::addTrackMotorRows(double dt) {
  // A motor geared to a joint gets its rows from the joint; a track drive's come from here.
  const bool warm = settings_.solver.warmStart;
  for (const int index : solverIslands_.trackMotors(*island_)) {
    MotorEntry& m = motors_[static_cast<size_t>(index)];
    const DcMotor& motor = *m.motor;
    m.characteristicRow = m.brakeRow = -1;
    if (motor.params().electricalTimeConstant == 0.0) {
      m.characteristicRow = addCharacteristicRow(
          rows_, motor, dt, rotorSpeeds_[static_cast<size_t>(motor.rotorSlot())],
          motorEffectiveInertia(m));
      rows_.row(m.characteristicRow).impulse = warm ? m.cachedImpulses[0] : 0.0;
    }
    if (motor.params().brakeTorque > 0.0) {
      m.brakeRow = addBrakeRow(rows_, motor, dt);
      rows_.row(m.brakeRow).impulse = warm ? m.cachedImpulses[1] : 0.0;
    }
  }
}

void World::storeTrackMotorImpulses(double dt) {
  for (const int index : solverIslands_.trackMotors(*island_)) {
    MotorEntry& m = motors_[static_cast<size_t>(index)];
    m.cachedImpulses[0] = m.characteristicRow >= 0 ? rows_.row(m.characteristicRow).impulse : 0.0;
    m.cachedImpulses[1] = m.brakeRow >= 0 ? rows_.row(m.brakeRow).impulse : 0.0;
    if (m.characteristicRow >= 0) m.motor->setTorque(m.cachedImpulses[0] / dt);
  }
}

void World::addRepeater(DcMotor& motor, Joint& joint, double k) {
  if (!(k != 0.0) || !std::isfinite(k))
    throw std::invalid_argument("repeater on joint '" + joint.name() +
                                "': ratio k must be non-zero");
  joint.addDrive(motor, k * motor.ratio(), false);
  articulationsDirty_ = true;
}

DcMotor* World::findMotor(const std::string& name) {
  for (auto& m : motors_)
    if (m.motor->name() == name) return m.motor.get();
  return nullptr;
}

BodyId World::findBody(const std::string& name) const {
  for (size_t i = 0; i < bodies_.size(); ++i)
    if (bodies_[i].name == name) return static_cast<BodyId>(i);
  return -1;
}

Joint* World::findJoint(const std::string& name) {
  for (auto& j : joints_)
    if (j->name() == name) return j.get();
  return nullptr;
}

void World::updateDerived() {
  for (RigidBody& b : bodies_) {
    b.updateDerived();
    b.sleeping = false;
    b.restTime = 0.0;
  }
  sleepingCount_ = 0;
  collision_->searchAllPairs(true);
}

Sensor& World::addSensor(std::unique_ptr<Sensor> sensor) {
  if (findSensor(sensor->name()))
    throw std::invalid_argument("duplicate sensor name '" + sensor->name() + "'");
  sensor->update(*this, 0.0);
  sensors_.push_back(std::move(sensor));
  return *sensors_.back();
}

const Sensor* World::findSensor(const std::string& name) const {
  for (const auto& s : sensors_)
    if (s->name() == name) return s.get();
  return nullptr;
}

StepStatus World::step(double dt) {
  const StepStatus status = stepDynamics(dt);
  if (status.ok) {
    for (const auto& s : sensors_)
      s->update(*this, dt);  // ARCHITECTURE: "... positions -> sensors"
    if (substepObserver_) substepObserver_();
  }
  return status;
}

StepStatus World::stepDynamics(double dt) {
  if (failed_) return {false, failure_};
  if (!(dt > 0.0) || !std::isfinite(dt)) return {false, "step: dt must be positive and finite"};
  const int n = std::max(settings_.solver.substeps, 1);
  if (n == 1) return substep(dt);
  StepStatistics total;
  const double start = time_;
  for (int i = 0; i < n; ++i) {
    const StepStatus status = substep(dt / n);
    if (!status.ok) return status;
    if (substepObserver_ && i + 1 < n) {  // the last one is read by step()
      for (const auto& s : sensors_)
        if (!s->hasMemory()) s->update(*this, dt / n);
      substepObserver_();
    }
    const StepStatistics& s = statistics_;
    total.rows = s.rows;
    total.velocityIterations += s.velocityIterations;
    total.positionIterations += s.positionIterations;
    total.treeProjectionIterations =
        std::max(total.treeProjectionIterations, s.treeProjectionIterations);
    total.largestImpulseChange = s.largestImpulseChange;
    total.converged = s.converged;
    total.outOfTime = total.outOfTime || s.outOfTime;
    total.stalled = total.stalled || s.stalled;
    total.addSeconds(s);
  }
  time_ = start + dt;  // no rounding drift from the sub-steps
  statistics_ = total;
  return {};
}

StepStatus World::substep(double dt) {
  const SolverSettings& solver = settings_.solver;
  const auto t0 = Clock::now();
  lastDt_ = dt;

  if (!grapples_.empty()) updateGrapples();
  wakeDisturbedIslands();
  markArticulationCandidates();
  integrateVelocities(dt);
  const auto tc = Clock::now();
  if (!collision_->empty()) {
    contacts_.swap(previousContacts_);  // last step's points warm-start this step's
    compliant_.restore(previousContacts_);
    collision_->detect(bodies_, materials_, previousContacts_, contacts_, dt);
    wakeTouchedIslands();
    awakeContactCount_ -= compliant_.take(contacts_, awakeContactCount_);
    chooseArticulations();
    orderContactsFromTheGround();
    if (!compliant_.points().empty()) compliant_.prepare(bodies_, materials_, dt);
  } else {
    awakeContactCount_ = contacts_.size();
    chooseArticulations();
  }
  const auto t1 = Clock::now();

  // Island by island (solver_islands.h): rows prepared, then solved to that island's own
  // convergence.
  partitionIslands();
  jointBesideTree_.assign(joints_.size(), 0);
  preProjectionMoves_.resize(bodies_.size());
  pseudoVelocities_.resize(bodies_.size());
  pseudoRotorSpeeds_.assign(rotorSpeeds_.size(), 0.0);
  const bool adaptive = !solver.deterministic;
  SolveStop stop;
  stop.maxIterations = std::max(solver.velocityIterations, 1);
  stop.useTolerance = adaptive;
  stop.tolerance = solver.impulseTolerance;
  stop.relativeTolerance = solver.relativeImpulseTolerance;
  stop.velocityTolerance = solver.velocityTolerance;
  stop.stallVelocity = solver.stallVelocity;
  stop.closingVelocityTolerance = solver.closingVelocityTolerance;
  stop.extendedIterations = solver.extendedIterations;
  // A contact between two links of one mechanism with nothing else touching it (the space arm
  // stalled against its own link): swept with its bodies' own mass it converged at their share
  // of the arm's inertia, left the link closing at 1-10 mm/s for the position pass to undo, and
  // the stalled drive's work on that motion kept the arm ringing (7 J, 0.5 Hz).
  stop.jointTreeLoopRowShare = kJointTreeLoopRowShare;
  stop.useDeadline = adaptive && solver.timeBudget > 0.0;
  SolveResult velocityResult;
  velocityResult.converged = true;
  Clock::duration prepareTime{}, solveTime{};
  int rowCount = 0;
  for (size_t k = 0; k < solverIslands_.islands().size(); ++k) {
    const auto ta = Clock::now();
    enterIsland(k);
    prepareRows(dt, false);
    preProjectJoints(dt);
    const auto tb = Clock::now();
    if (k == 0)  // the budget is the whole velocity pass's, every island's solve
      stop.deadline = tb + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(solver.timeBudget));
    const SolveResult r = solveIslandVelocities(dt, stop);
    rowCount += rows_.rowCount();
    leaveIsland(k);
    velocityResult.iterations = std::max(velocityResult.iterations, r.iterations);
    velocityResult.largestImpulseChange =
        std::max(velocityResult.largestImpulseChange, r.largestImpulseChange);
    velocityResult.converged = velocityResult.converged && r.converged;
    velocityResult.outOfTime = velocityResult.outOfTime || r.outOfTime;
    velocityResult.stalled = velocityResult.stalled || r.stalled;
    prepareTime += tb - ta;
    solveTime += Clock::now() - tb;
  }
  const auto t2 = t1 + prepareTime;
  stepArticulations(dt);
  const auto t3 = Clock::now();

  continuous_->noteFastBodies(bodies_, velocities_, *collision_, dt);
  integratePositions(dt, velocities_);
  for (size_t slot = 1; slot < rotorSpeeds_.size(); ++slot)
    rotorAngles_[slot] += dt * rotorSpeeds_[slot];
  const int swept = collision_->empty() ? 0 : continuous_->sweep(bodies_, *collision_);
  const auto t4 = Clock::now();

  solvePositions(dt);
  for (auto& j : joints_) j->updateCoordinates(bodies_);
  for (MotorEntry& m : motors_) {
    const size_t slot = static_cast<size_t>(m.motor->rotorSlot());
    m.motor->setState(rotorAngles_[slot], rotorSpeeds_[slot]);
  }
  for (RigidBody& b : bodies_) {
    b.force.setZero();
    b.torque.setZero();
  }
  time_ += dt;
  updateSleep(dt);
  collision_->markStill(bodies_);
  const auto t5 = Clock::now();

  statistics_.rows = rowCount;
  statistics_.velocityIterations = std::max(velocityResult.iterations, articulationIterations_);
  statistics_.largestImpulseChange = velocityResult.largestImpulseChange;
  statistics_.converged = velocityResult.converged;
  statistics_.outOfTime = velocityResult.outOfTime;
  statistics_.stalled = velocityResult.stalled;
  statistics_.contacts = static_cast<int>(contacts_.size());
  statistics_.sweptBodies = swept;
  statistics_.sleepingBodies = sleepingCount_;
  statistics_.integrateVelocitySeconds = seconds(t0, tc);
  statistics_.collideSeconds = seconds(tc, t1);
  statistics_.prepareSeconds = seconds(t1, t2);
  statistics_.solveVelocitySeconds = seconds(t2, t3);
  statistics_.integratePositionSeconds = seconds(t3, t4);
  statistics_.solvePositionSeconds = seconds(t4, t5);
  statistics_.totalSeconds = seconds(t0, t5);

  if (!checkFinite()) return {false, failure_};
  return {};
}

void World::integrateVelocities(double dt) {
  const size_t n = bodies_.size();
  masses_.resize(n);
  velocities_.resize(n);
  angularBeforeSolve_.resize(n);
  midpointRotation_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const RigidBody& b = bodies_[i];
    if (b.sleeping) {  // immovable to the solver until something wakes it
      masses_[i] = {};
      velocities_[i] = {};
      angularBeforeSolve_[i].setZero();
      midpointRotation_[i] = b.rotation;
      continue;
    }
    integrateBodyVelocity(i, dt);
  }
  // Motors with armature inductance: the torque state advances over the step (seed 002
  // eq. 17-18) and acts as a rotor impulse; the others are rows (see DcMotor).
  for (MotorEntry& m : motors_) {
    DcMotor& motor = *m.motor;
    if (!motor.torqueIsState()) continue;
    const size_t slot = static_cast<size_t>(motor.rotorSlot());
    const double impulse =
        motor.electricalImpulse(dt, rotorSpeeds_[slot], motorEffectiveInertia(m));
    rotorSpeeds_[slot] += impulse * rotorInverseInertia_[slot];
    motor.setTorque(impulse / dt);
  }
}

void World::integrateBodyVelocity(size_t i, double dt) {
  RigidBody& b = bodies_[i];
  Mat3 inverseInertia = b.inverseInertiaWorld;
  if (b.isDynamic()) {
    // Seed 002 eq. 11-12: v += dt (g + f/m); L += dt tau; w = I^-1 L. The inertia is taken at
    // the step's MIDPOINT orientation (fixed point of q_mid = exp(w dt/2) q, w = I(q_mid)^-1 L):
    // the symmetric rule keeps the energy of free rotation bounded, where I(t) makes it grow
    // and drives even a major-axis spin away from its axis. The solver uses the same inertia.
    b.linearVelocity += dt * (settings_.gravity + b.inverseMass * b.force);
    b.angularMomentum += dt * b.torque;
    // Two fixed-point passes; the first needs only w = R I^-1 R^T L, not the tensor.
    const Vec3 w0 = b.inverseInertiaWorld * b.angularMomentum;
    Mat3 rotation = (rotationFromVector(0.5 * dt * w0) * b.orientation).toRotationMatrix();
    const Vec3 w1 = rotation * (b.inverseInertiaBody * (rotation.transpose() * b.angularMomentum));
    rotation = (rotationFromVector(0.5 * dt * w1) * b.orientation).toRotationMatrix();
    inverseInertia = b.inverseInertiaAt(rotation);
    const Vec3 w = inverseInertia * b.angularMomentum;
    b.angularVelocity = w;
    midpointRotation_[i] = rotation;
  } else {
    midpointRotation_[i] = b.rotation;
  }
  masses_[i] = {b.inverseMass, inverseInertia};
  velocities_[i] = {b.linearVelocity, b.angularVelocity};
  angularBeforeSolve_[i] = b.angularVelocity;
}

JointBuildContext World::buildContext(double dt, bool positionPhase) const {
  JointBuildContext ctx;
  ctx.bodies = bodies_;
  ctx.rotorSpeeds = rotorSpeeds_;
  ctx.rotorAngles = rotorAngles_;
  ctx.rotorInverseInertia = rotorInverseInertia_;
  ctx.dt = dt;
  ctx.positionPhase = positionPhase;
  ctx.correctionFactor = settings_.solver.positionCorrectionFactor;
  ctx.maxCorrectionSpeed = settings_.solver.maxCorrectionSpeed;
  ctx.directJoints = settings_.solver.directJoints;
  return ctx;
}

void World::prepareRows(double dt, bool positionPhase) {
  rows_.clear();
  rows_.setDirectEqualities(settings_.solver.directJoints);
  const JointBuildContext ctx = buildContext(dt, positionPhase);
  for (const int j : islandJoints()) {
    Joint& joint = *joints_[static_cast<size_t>(j)];
    if (positionPhase)
      joint.buildPositionRows(ctx, rows_);
    else
      joint.buildVelocityRows(ctx, rows_, settings_.solver.warmStart);
  }
  if (!positionPhase) {
    addTrackMotorRows(dt);
    addContactRows(dt);
    if (!compliant_.points().empty())
      compliant_.addRows(static_cast<int>(island_ - solverIslands_.islands().data()), rows_,
                         bodies_, settings_.solver.warmStart);
  }
  rows_.finalize(masses_, rotorInverseInertia_);
}

void World::integratePositions(double dt, std::span<const SolverVelocity> velocities) {
  for (size_t i = 0; i < bodies_.size(); ++i) {
    RigidBody& b = bodies_[i];
    if (b.type == BodyType::Static || b.sleeping || articulated_[i]) continue;
    if (b.isDynamic()) {
      if (SolverVelocity& move = preProjectionMoves_[i];
          move.linear != Vec3::Zero() || move.angular != Vec3::Zero()) {
        // The pre-projection's move, before the step's own (as moveBody would have made it);
        // zeroed once taken.
        b.position += move.linear;
        if (move.angular != Vec3::Zero()) {
          const Quat turn = rotationFromVector(move.angular);
          b.orientation = turn * b.orientation;
          b.angularMomentum = turn * b.angularMomentum;
        }
        move = SolverVelocity{};
      }
      b.linearVelocity = velocities[i].linear;
      // The impulses changed L by I_mid dw; adding the change (not L = I w) keeps L of a body no
      // row touched bit-exact, so free-body momentum is conserved to rounding.
      const Vec3 dw = velocities[i].angular - angularBeforeSolve_[i];
      const Mat3& r = midpointRotation_[i];
      if (dw != Vec3::Zero()) b.angularMomentum += r * (b.inertiaBody * (r.transpose() * dw));
      b.angularVelocity = velocities[i].angular;
    }
    // Seed 002 eq. 13-14: r += dt v(t+dt); R += dt [w(t+dt)]x R, here the exact exponential.
    b.position += dt * b.linearVelocity;
    b.orientation = integrateOrientation(b.orientation, b.angularVelocity, dt);
    b.updateDerived();
  }
}

size_t World::manifoldEnd(size_t first) const {
  // A manifold: consecutive points of the same body pair, at most 4 (detection keeps them
  // together).
  size_t last = first + 1;
  while (last < island_->contactEnd && last - first < 4 &&
         contacts_[last].bodyA == contacts_[first].bodyA &&
         contacts_[last].bodyB == contacts_[first].bodyB)
    ++last;
  return last;
}

void World::orderContactsFromTheGround() {
  // Contact-graph levels: static and kinematic bodies 0, a body resting on level k gets k + 1.
  // Solving manifolds from the ground up lets a Gauss-Seidel sweep carry a pile's weight down in
  // one pass whatever order the bodies were created in (in the tests' stacks, built bottom-up,
  // detection order already was this order: no measured change there).
  const size_t n = bodies_.size();
  const std::span<const ContactPoint> awake = awakeContacts();
  // Each body's contacts as one flat list (both ends): the walk visits each contact twice, where
  // scanning every contact for every body it reached was O(bodies x contacts).
  contactStart_.assign(n + 1, 0);
  for (const ContactPoint& c : awake) {
    ++contactStart_[static_cast<size_t>(c.bodyA) + 1];
    ++contactStart_[static_cast<size_t>(c.bodyB) + 1];
  }
  for (size_t i = 0; i < n; ++i) contactStart_[i + 1] += contactStart_[i];
  contactNeighbour_.resize(static_cast<size_t>(contactStart_[n]));
  contactFill_.assign(contactStart_.begin(), contactStart_.end() - 1);
  for (const ContactPoint& c : awake) {
    contactNeighbour_[static_cast<size_t>(contactFill_[static_cast<size_t>(c.bodyA)]++)] = c.bodyB;
    contactNeighbour_[static_cast<size_t>(contactFill_[static_cast<size_t>(c.bodyB)]++)] = c.bodyA;
  }
  bodyLevel_.assign(n, -1);
  levelQueue_.clear();
  for (size_t i = 0; i < n; ++i)
    if (!bodies_[i].isDynamic()) {
      bodyLevel_[i] = 0;
      levelQueue_.push_back(static_cast<int>(i));
    }
  int deepest = 0;
  for (size_t head = 0; head < levelQueue_.size(); ++head) {
    const size_t body = static_cast<size_t>(levelQueue_[head]);
    for (int k = contactStart_[body]; k < contactStart_[body + 1]; ++k) {
      const size_t other = static_cast<size_t>(contactNeighbour_[static_cast<size_t>(k)]);
      if (bodyLevel_[other] >= 0) continue;
      bodyLevel_[other] = bodyLevel_[body] + 1;
      deepest = bodyLevel_[other];
      levelQueue_.push_back(static_cast<int>(other));
    }
  }
  // A contact's level is its lower body's; contacts no walk reached (between bodies touching no
  // ground) go last.
  const int unreached = deepest + 1;
  const auto level = [&](const ContactPoint& c) {
    const int la = bodyLevel_[static_cast<size_t>(c.bodyA)],
              lb = bodyLevel_[static_cast<size_t>(c.bodyB)];
    return std::min(la < 0 ? unreached : la, lb < 0 ? unreached : lb);
  };
  // Stable by (level, detection index), counted into place: a manifold's points share their
  // level and stay together. Only the awake contacts are ordered; the sleeping ones stay behind.
  levelStart_.assign(static_cast<size_t>(unreached) + 2, 0);
  for (const ContactPoint& c : awake) ++levelStart_[static_cast<size_t>(level(c)) + 1];
  for (size_t l = 0; l + 1 < levelStart_.size(); ++l) levelStart_[l + 1] += levelStart_[l];
  contactScratch_.resize(awake.size());
  for (const ContactPoint& c : awake)
    contactScratch_[static_cast<size_t>(levelStart_[static_cast<size_t>(level(c))]++)] = c;
  if (awake.size() == contacts_.size())
    contacts_.swap(contactScratch_);
  else
    std::copy(contactScratch_.begin(), contactScratch_.end(), contacts_.begin());
}

void World::addContactRows(double dt) {
  // Seed 002: one-sided normal rows (eq. 20), two friction rows per point under the circular
  // Coulomb cone ||p_t|| <= mu p_n (eq. 21), rolling/spinning rows bounded by their arm times p_n.
  // The normal rows of one manifold (same two bodies, <= 4 points) form one exact block.
  const bool warm = settings_.solver.warmStart;
  const auto arms = [&](const ContactPoint& c) {
    return std::pair(Vec3(bodies_[static_cast<size_t>(c.bodyA)].rotation * c.localA),
                     Vec3(bodies_[static_cast<size_t>(c.bodyB)].rotation * c.localB));
  };
  const auto linearRow = [&](int index, const Vec3& d, const Vec3& armA,
                             const Vec3& armB) -> ConstraintRow& {
    ConstraintRow& r = rows_.row(index);
    r.linearA = -d;
    r.angularA = -armA.cross(d);
    r.linearB = d;
    r.angularB = armB.cross(d);
    return r;
  };
  const auto angularRow = [&](int index, const Vec3& d) {
    rows_.row(index).angularA = -d;
    rows_.row(index).angularB = d;
  };
  for (size_t first = island_->contactBegin; first < island_->contactEnd;) {
    const size_t last = manifoldEnd(first);
    for (size_t k = first; k < last; ++k) {
      ContactPoint& c = contacts_[k];
      const auto [armA, armB] = arms(c);
      const SolverVelocity& va = velocities_[static_cast<size_t>(c.bodyA)];
      const SolverVelocity& vb = velocities_[static_cast<size_t>(c.bodyB)];
      c.approachSpeed =
          c.normal.dot(vb.linear + vb.angular.cross(armB) - va.linear - va.angular.cross(armA));
      c.normalRow = rows_.addBlock(BlockKind::Bounded, 1, c.bodyA, c.bodyB);
      ConstraintRow& normal = linearRow(c.normalRow, c.normal, armA, armB);
      normal.lower = 0.0;
      // Speculative: a gap closes this step, no more; penetration is left to the position pass.
      // Gaps within the slop count as touching, so that the points of a resting face ask for the
      // same (zero) normal velocity: their block is singular and must not see inconsistent targets.
      normal.target = c.separation > settings_.contactSlop ? -c.separation / dt : 0.0;
      // A gap that is opening cannot push this step. The sweeps beside a tree measure a light
      // body's correction by its own mass, not its mechanism's: a foot lifted by a stiffly servoed
      // leg was pushed by corners centimetres clear of the floor, alternately front and back,
      // and spun up from step to step (the exact solution has no impulse there).
      const bool opening = c.separation > settings_.contactSlop && c.approachSpeed > 0.0;
      normal.impulse = warm && !opening ? c.normalImpulse : 0.0;
      if (opening) normal.upper = 0.0;
    }
    if (last - first > 1) rows_.mergeLastBlocks(static_cast<int>(last - first), BlockKind::Limited);
    rows_.lastBlock().treeRole = TreeRole::Contact;
    const int manifoldBlock = static_cast<int>(rows_.blocks().size()) - 1;
    for (size_t k = first; k < last; ++k) {
      ContactPoint& c = contacts_[k];
      c.normalBlock = manifoldBlock;
      const auto [armA, armB] = arms(c);
      c.frictionRow = -1;
      c.frictionBlock = -1;
      if (c.friction > 0.0) {
        c.frictionRow = rows_.addBlock(BlockKind::NormBall, 2, c.bodyA, c.bodyB);
        c.frictionBlock = static_cast<int>(rows_.blocks().size()) - 1;
        linearRow(c.frictionRow, c.tangent1, armA, armB).impulse = warm ? c.tangentImpulse1 : 0.0;
        linearRow(c.frictionRow + 1, c.tangent2, armA, armB).impulse =
            warm ? c.tangentImpulse2 : 0.0;
        if (c.trackMotor >= 0) {
          // A track's ground-side belt moves against its hull at k w_m along -d (k = R / r): the
          // friction rows see the belt surface, so the ground's reaction drives the hull and loads
          // the motor. Row velocity is (B - A): the belt's term enters with the carrier's sign.
          const DcMotor& motor = *motors_[static_cast<size_t>(c.trackMotor)].motor;
          const RigidBody& carrier = bodies_[static_cast<size_t>(c.trackOnB ? c.bodyB : c.bodyA)];
          const Vec3 d = carrier.rotation * c.trackDirection;
          const double k = c.sprocketRadius / motor.params().gearRatio;
          const double sign = c.trackOnB ? -1.0 : 1.0;
          const Vec3 tangents[2] = {c.tangent1, c.tangent2};
          for (int i = 0; i < 2; ++i) {
            ConstraintRow& row = rows_.row(c.frictionRow + i);
            row.rotor = motor.rotorSlot();
            row.rotorJacobian = sign * k * tangents[i].dot(d);
          }
        }
        rows_.lastBlock().boundRow = c.normalRow;
        rows_.lastBlock().boundCoefficient = c.friction;
        // Sticking, it may be solved in the tree with the normal rows it is bounded by (a belt's
        // rows drive a rotor and stay in the sweep).
        if (c.trackMotor < 0) rows_.lastBlock().treeRole = TreeRole::Friction;
      }
      if (c.rolling > 0.0) {
        const int row = rows_.addBlock(BlockKind::NormBall, 2, c.bodyA, c.bodyB);
        angularRow(row, c.tangent1);
        angularRow(row + 1, c.tangent2);
        rows_.lastBlock().boundRow = c.normalRow;
        rows_.lastBlock().boundCoefficient = c.rolling;
      }
      if (c.spinning > 0.0) {
        angularRow(rows_.addBlock(BlockKind::Bounded, 1, c.bodyA, c.bodyB), c.normal);
        rows_.lastBlock().boundRow = c.normalRow;
        rows_.lastBlock().boundCoefficient = c.spinning;
      }
    }
    first = last;
  }
}

namespace {
/// Gauss-Seidel passes over the restitution blocks when there are several (applyRestitution).
constexpr int kRestitutionPasses = 8;
}  // namespace

bool World::applyRestitution() {
  // Seed 002 eq. 19: an impact (closing faster than the threshold, and actually pushed) leaves at
  // -e times its approach speed; one pass over those normal rows after the main solve.
  restitutionBlocks_.clear();
  // At most a block a contact: room for all, so the first impact after warm-up (a rare event:
  // restitution above the threshold) does not allocate.
  reserveWithHeadroom(restitutionBlocks_, awakeContactCount_);
  for (const ContactPoint& c : islandContacts()) {
    if (c.restitution <= 0.0 || c.approachSpeed > -settings_.restitutionThreshold) continue;
    ConstraintRow& row = rows_.row(c.normalRow);
    if (row.impulse <= 0.0) continue;
    row.target = -c.restitution * c.approachSpeed;
    if (restitutionBlocks_.empty() || restitutionBlocks_.back() != c.normalBlock)
      restitutionBlocks_.push_back(c.normalBlock);
  }
  for (ContactPoint& c : islandContacts()) c.bounceShift = 0.0;
  for (ContactPoint& c : islandContacts())
    if (c.restitution > 0.0 && c.approachSpeed <= -settings_.restitutionThreshold &&
        c.separation > 0.0 && rows_.row(c.normalRow).impulse > 0.0)
      c.bounceShift = -(1.0 + c.restitution) * c.separation;
  // Each block is exact; several (a body bouncing off two mesh faces at once, one point on
  // each) are swept to agreement: a single pass left a cylinder that struck two triangles
  // spinning and leaving at half e times its speed.
  const int passes = restitutionBlocks_.size() > 1 ? kRestitutionPasses : 1;
  for (int pass = 0; pass < passes; ++pass)
    solveBlockSubset(rows_, restitutionBlocks_, velocities_, rotorSpeeds_);
  // Those passes use the bodies' own masses: a robot's link that bounced needs its joints' help.
  for (const int b : restitutionBlocks_) {
    const ConstraintRow& r = rows_.row(rows_.block(b).first);
    if (jointedInIsland(r.bodyA) || jointedInIsland(r.bodyB)) return true;
  }
  return false;
}

void World::storeContactImpulses() {
  for (ContactPoint& c : islandContacts()) {
    c.normalImpulse = rows_.row(c.normalRow).impulse;
    if (c.frictionRow >= 0) {
      c.tangentImpulse1 = rows_.row(c.frictionRow).impulse;
      c.tangentImpulse2 = rows_.row(c.frictionRow + 1).impulse;
    } else {
      c.tangentImpulse1 = c.tangentImpulse2 = 0.0;
    }
  }
}

bool World::checkFinite() {
  for (const RigidBody& b : bodies_) {
    if (b.position.allFinite() && b.orientation.coeffs().allFinite() &&
        b.linearVelocity.allFinite() && b.angularMomentum.allFinite())
      continue;
    std::ostringstream msg;
    msg << "simulation stopped: non-finite state of body '" << b.name << "' at t = " << time_
        << " s";
    failed_ = true;
    failure_ = msg.str();
    return false;
  }
  return true;
}

double World::kineticEnergy() const {
  double e = 0.0;
  for (const RigidBody& b : bodies_) e += b.kineticEnergy();
  return e;
}

double World::elasticEnergy() const {
  double e = 0.0;
  for (const auto& j : joints_) {
    if (j->type() == JointType::Beam) {
      const auto& beam = static_cast<const BeamJoint&>(*j);
      const BeamJointSprings& k = beam.springs();
      const Eigen::Vector4d d = beam.deflection(bodies_);
      e += 0.5 * (k.axial * d[0] * d[0] + k.torsion * d[1] * d[1] + k.bendingY * d[2] * d[2] +
                  k.bendingZ * d[3] * d[3]);
    }
    for (const DriveCoupling& d : j->drives()) {
      if (!d.primary || !d.motor->params().compliantGear()) continue;
      const double twist = j->position() - d.angleOffset -
                           d.ratio * rotorAngles_[static_cast<size_t>(d.motor->rotorSlot())];
      e += 0.5 * d.motor->params().gearStiffness * twist * twist;
    }
  }
  return e;
}

double World::potentialEnergy() const {
  double e = 0.0;
  for (const RigidBody& b : bodies_)
    if (b.isDynamic()) e -= b.mass * settings_.gravity.dot(b.position);
  return e;
}

double World::largestAnchorSeparation() const {
  double worst = 0.0;
  for (const auto& j : joints_) worst = std::max(worst, j->anchorSeparation(bodies_));
  return worst;
}

}  // namespace impetus
