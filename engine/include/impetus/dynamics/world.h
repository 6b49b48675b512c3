#pragma once
// The world: bodies, joints and the fixed-step integrator. One step (seed 002's semi-implicit
// Euler, in the order of the paper):
//
//   integrateVelocities  v += dt (g + F/m),  L += dt tau,  w = I(t + dt/2)^-1 L
//   prepareRows          joints write constraint/friction/limit rows at the start-of-step poses
//   preProjectJoints     remove the joint errors the last step left, with the rows' factorisation
//   warmStart            apply last step's accumulated impulses (seed 000)
//   solveVelocities      sequential impulses until tolerance / iteration cap / time budget
//   storeImpulses        joints keep impulses (warm start, reaction readout)
//   integratePositions   r += dt v,  q = exp(w dt) q (renormalised),  w = I(t+dt)^-1 L
//   solvePositions       project anchors/axes/limits back with pseudo-velocities (no KE added)
//   finish               joint coordinates, clear force accumulators, NaN check

#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "impetus/contact/compliant_contacts.h"
#include "impetus/contact/contact_point.h"
#include "impetus/contact/material.h"
#include "impetus/contact/ray_hit.h"
#include "impetus/contact/shape.h"
#include "impetus/dynamics/body_islands.h"
#include "impetus/dynamics/rigid_body.h"
#include "impetus/dynamics/sleep_settings.h"
#include "impetus/dynamics/solver_islands.h"
#include "impetus/dynamics/step_statistics.h"
#include "impetus/joints/grapple.h"
#include "impetus/joints/joint.h"
#include "impetus/sensors/sensor.h"
#include "impetus/solver/row_buffer.h"
#include "impetus/solver/sequential_impulse_solver.h"
#include "impetus/solver/solver_settings.h"

namespace impetus {

struct WorldSettings {
  Vec3 gravity{0.0, 0.0, -9.81};  ///< (unit: m/s^2)
  SolverSettings solver;
  /// Impacts closing faster than this bounce with the restitution coefficient (seed 002 eq. 19);
  /// slower contacts rest (unit: m/s).
  double restitutionThreshold = 0.2;
  /// Penetration tolerated without position correction, so resting contacts do not jitter (m).
  double contactSlop = 0.0001;
  /// Share of a contact's penetration the position pass removes per step: full correction lifts a
  /// sliding block's rear off the ground and it rocks (contacts are one-sided, joints are not).
  double contactCorrectionFactor = 0.5;
  SleepSettings sleep;
  /// Step trees of bodies joined only by revolute and spherical joints (no motor, no joint
  /// friction; one root, free or jointed to a static body) in joint coordinates (Articulation):
  /// their joints then hold exactly and cost no rows. A tree touching another moving body, or a
  /// contact with rolling or spinning friction, steps with the rows that step.
  bool articulations = true;
  /// ... whose deepest DOF has at most this many DOF on its path from the root (a free root
  /// counts 6, a ball 3, a hinge 1): the joint-space factor and each contact's response cost
  /// grow with its square, where the rows' exact tree solve grows linearly. A ragdoll is 14
  /// deep; a 30-link chain, 30, steps faster with the rows.
  int articulationMaxDepth = 20;
  /// Step a fixed-base tree of undamped hinges too deep for an articulation (or with the
  /// articulations off) with its joints exact while nothing touches it and no stop is within
  /// reach: the rows' step, each part in linear time by the articulated-body recursion - the
  /// momenta projected onto the joints (the curvature targets of the rows' anchors included),
  /// the bodies moved, and their poses put back onto the joints at the pose the joint
  /// coordinates give nearest, in the mass metric, to the moved ones (Newton's method with the
  /// offsets' geometric stiffness). Other untouched fixed-base trees the rows step (balls,
  /// damped hinges, a stop within reach) get that pose projection before the position pass.
  /// Chain100: joints exact (the rows leave up to 0.14 mm), 0.65 of E0 kept after 10 s (the rows
  /// 0.56), 0.68 of the rows' instructions a step. Needs directJoints and a
  /// position pass.
  bool projectTreesInJointSpace = true;
};

class CollisionWorld;
class ContinuousCollision;
class Articulation;
class ArticulationRows;
class StateWriter;
class StateReader;

/// Outcome of a step: a simulation that meets non-finite numbers stops and says where.
struct StepStatus {
  bool ok = true;
  std::string message;
};

/// The pair of joint frames that puts a joint at world `anchor` with world `axis` (x axis) on the
/// bodies' current poses, so that the joint coordinate is 0 there.
std::pair<JointFrame, JointFrame> jointFramesFromWorld(const RigidBody& parent,
                                                       const RigidBody& child, const Vec3& anchor,
                                                       const Vec3& axis);

class World {
 public:
  static constexpr BodyId kGround = 0;  ///< the static ground body every world has

  explicit World(WorldSettings settings = {});
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  BodyId addBody(const RigidBodyDesc& desc);

  /// Adds a joint of type JointT at world anchor/axis (current poses); throws on bad arguments.
  template <class JointT>
  JointT& addJoint(std::string name, BodyId parent, BodyId child, const Vec3& anchor,
                   const Vec3& axis = Vec3::UnitX()) {
    checkJointBodies(name, parent, child, axis);
    auto [inParent, inChild] = jointFramesFromWorld(body(parent), body(child), anchor, axis);
    auto joint = std::make_unique<JointT>(std::move(name), parent, child, inParent, inChild);
    JointT& ref = *joint;
    registerJoint(std::move(joint));
    return ref;
  }
  Joint& addJoint(std::unique_ptr<Joint> joint);

  /// Attaches collision geometry to a body (throws std::invalid_argument on bad shapes).
  void addShape(BodyId body, const ShapeDesc& shape);
  MaterialTable& materials() { return materials_; }
  const MaterialTable& materials() const { return materials_; }
  /// Turns contacts between two bodies on or off (bodies joined by a joint start off).
  void setCollision(BodyId a, BodyId b, bool enabled);
  /// The contact points of the last step, with their impulses.
  std::span<const ContactPoint> contacts() const { return contacts_; }
  /// The compliant pairs' points of the last (sub)step and their forces (not in contacts()).
  const CompliantContacts& compliantContacts() const { return compliant_; }
  /// Sum of contact forces on a body over the last step (world frame, N).
  Vec3 contactForce(BodyId body) const;
  /// Duration of the last (sub)step (s): ContactPoint::force(dt) of contacts() needs it.
  double lastSubstepDuration() const { return lastDt_ > 0.0 ? lastDt_ : 0.01; }
  /// The first shape of a fixed body that the segment `from` -> `to` (world, m) meets: the
  /// terrain as a robot's map or camera knows it. Moving and kinematic bodies are not seen.
  std::optional<RayHit> castRay(const Vec3& from, const Vec3& to) const;

  /// Adds a DC gearmotor driving `joint` (revolute, or prismatic with params.lead > 0).
  DcMotor& addMotor(std::string name, Joint& joint, const DcMotorParams& params);
  /// Adds a DC gearmotor not geared to a joint: its rotor drives tracks (ShapeDesc::trackMotor).
  DcMotor& addMotor(std::string name, const DcMotorParams& params);
  /// Repeater (seed 001 eq. 12): `joint`'s coordinate = (k / r) * the motor's rotor angle, k != 0.
  void addRepeater(DcMotor& motor, Joint& joint, double k);
  int motorCount() const { return static_cast<int>(motors_.size()); }
  DcMotor& motor(int i) { return *motors_.at(static_cast<size_t>(i)).motor; }
  const DcMotor& motor(int i) const { return *motors_.at(static_cast<size_t>(i)).motor; }
  DcMotor* findMotor(const std::string& name);

  /// Advances the world by dt seconds (in settings().solver.substeps internal steps).
  StepStatus step(double dt);
  /// Called after every sub-step of step() with the sensors that keep no memory (all but the
  /// IMU) read at that instant - a fine-grained record of a fast event (an impact resolved in
  /// sub-steps) without changing the step; empty: none. Not part of the saved state.
  void setSubstepObserver(std::function<void()> observer) {
    substepObserver_ = std::move(observer);
  }

  /// Adds a latching end effector (world_grapples.cpp); throws std::invalid_argument on a bad
  /// description or a duplicate name.
  Grapple& addGrapple(GrappleDesc desc);
  int grappleCount() const { return static_cast<int>(grapples_.size()); }
  Grapple& grapple(int i) { return *grapples_.at(static_cast<size_t>(i)); }
  const Grapple& grapple(int i) const { return *grapples_.at(static_cast<size_t>(i)); }
  Grapple* findGrapple(const std::string& name);  ///< nullptr if absent

  /// Mounts a sensor (read after every step); throws std::invalid_argument on a duplicate name.
  Sensor& addSensor(std::unique_ptr<Sensor> sensor);
  int sensorCount() const { return static_cast<int>(sensors_.size()); }
  const Sensor& sensor(int i) const { return *sensors_.at(static_cast<size_t>(i)); }
  const Sensor* findSensor(const std::string& name) const;  ///< nullptr if absent

  int bodyCount() const { return static_cast<int>(bodies_.size()); }
  RigidBody& body(BodyId id) { return bodies_.at(static_cast<size_t>(id)); }
  const RigidBody& body(BodyId id) const { return bodies_.at(static_cast<size_t>(id)); }
  std::span<const RigidBody> bodies() const { return bodies_; }
  int jointCount() const { return static_cast<int>(joints_.size()); }
  Joint& joint(int i) { return *joints_.at(static_cast<size_t>(i)); }
  const Joint& joint(int i) const { return *joints_.at(static_cast<size_t>(i)); }
  BodyId findBody(const std::string& name) const;  ///< -1 if absent
  Joint* findJoint(const std::string& name);       ///< nullptr if absent

  /// Re-derives rotation/inertia/angular velocity after bodies were edited by hand, and wakes
  /// every body (a pose edit is not seen otherwise).
  void updateDerived();
  /// Wakes the island of `body` (every body linked to it by joints and contacts); no-op when it
  /// is awake. Forces, torques and velocities put on a sleeping body wake it at the next step.
  void wake(BodyId body);
  int sleepingBodyCount() const { return sleepingCount_; }

  WorldSettings& settings() { return settings_; }
  const WorldSettings& settings() const { return settings_; }
  double time() const { return time_; }
  const StepStatistics& statistics() const { return statistics_; }
  bool failed() const { return failed_; }
  const std::string& failure() const { return failure_; }

  /// Everything a step depends on - poses, velocities, momenta, motor and rotor states, joint and
  /// contact warm-start impulses, time - so that a world loaded from the same scene and given
  /// this state continues bit for bit as this one would (keyframes, take-over). loadState
  /// throws StateError when the state is truncated or from another scene.
  void saveState(StateWriter& out) const;
  void loadState(StateReader& in);

  double kineticEnergy() const;    ///< (unit: J)
  double potentialEnergy() const;  ///< -sum m g.x, zero at the origin (unit: J)
  /// In the beams' springs and the flexible joints' gears, from the last step's coordinates
  /// (unit: J).
  double elasticEnergy() const;
  double largestAnchorSeparation() const;  ///< over all joints (unit: m)

 private:
  /// Takes a checked joint: jointed bodies stop colliding (World::setCollision turns it back on).
  void registerJoint(std::unique_ptr<Joint> joint);
  void checkJointBodies(const std::string& name, BodyId parent, BodyId child,
                        const Vec3& axis) const;
  StepStatus substep(double dt);
  /// Catches and lets go as the grapples are commanded (before a substep moves anything).
  void updateGrapples();
  /// Puts the captured grapples' welds at the end of the joints, in grapple order.
  void placeGrappleWelds();
  StepStatus stepDynamics(double dt);
  void integrateVelocities(double dt);
  void prepareRows(double dt, bool positionPhase);
  void addContactRows(double dt);
  void orderContactsFromTheGround();
  /// One past the last point of the manifold that starts at contacts_[first].
  size_t manifoldEnd(size_t first) const;
  /// Seed 002 eq. 19's bounce; returns whether it moved a link of a jointed tree (the tree must
  /// then settle: settleOntoJoints).
  bool applyRestitution();
  void storeContactImpulses();
  /// One NGS correction of a single constraint's rows between two bodies (position pass);
  /// returns the largest pseudo-impulse change. stepTaken: the time the pseudo-velocities were
  /// applied for (dt, less when the move was capped), for the caller's rotors.
  double correctPositions(BodyId a, BodyId b, double dt, double* stepTaken = nullptr);
  enum class JointProjection { Newton, Sweep, Converged };
  /// What a position pass's Newton steps pass on to the next one.
  struct NewtonPass {
    /// The error the next step must start below, or the pass falls back (m or rad).
    double errorBound = std::numeric_limits<double>::infinity();
    double lastError = std::numeric_limits<double>::infinity();  ///< the last step's start
    double turnCost = 1.0;  ///< the turns' cost in the step's metric (kNewtonTurnCost, once raised)
    bool forest = false;    ///< the last step's tree held every joint row
    bool touchingKnown = false;    ///< touching_ holds this pass's contacts
    bool mechanismsKnown = false;  ///< mechanisms_ holds this island's jointed mechanisms
    int iteration = 0;             ///< of the position pass
    /// The deepest penetration beyond the slop of a contact closing a loop that the last step
    /// corrected (unit: m; 0 when none).
    double loopPenetration = 0.0;
  };
  /// One Newton step of the position pass on all joint rows (EqualityTree). Moves nothing and
  /// returns Converged when their error is below jointTolerance(), Sweep when it is above
  /// `pass.errorBound` once the turns are already dear, or when limits or penetrating contacts
  /// need correcting. Measures first (measuredJointError).
  JointProjection projectJoints(const JointBuildContext& ctx, double dt, NewtonPass& pass);
  /// Whether the Newton steps correct the manifold that starts at contacts_[first]: it joins two
  /// links of one mechanism (a loop through its joints) and does not bounce on this iteration.
  bool correctedInNewtonStep(size_t first, size_t last, NewtonPass& pass);
  /// Appends the rows of the penetrating manifolds correctedInNewtonStep to jointPositionRows_;
  /// returns their deepest penetration (m; 0 when none), appending nothing when `measureOnly`.
  double addLoopContactRows(const JointBuildContext& ctx, double dt, NewtonPass& pass,
                            bool measureOnly);
  /// One NGS sweep over the penetrating contact manifolds; returns the largest penetration
  /// beyond the slop and the position tolerance that it met (unit: m; 0 when none), and raises
  /// `largestChange` to the largest pseudo-impulse change it made.
  double correctContactPositions(int iteration, const JointBuildContext& ctx, double dt,
                                 double& largestChange, NewtonPass* newton = nullptr);
  /// Whether a contact point's error (separation + slop, unit: m) is a penetration beyond the
  /// position tolerance.
  bool needsPositionCorrection(double contactError) const;
  /// masses_[body] from the body's current pose (the position pass moves bodies).
  void refreshSolverMass(size_t body);
  /// Appends the position rows of the manifold contacts_[first, last) (the bounce shift on
  /// iteration 0); returns the largest error it asks to correct (unit: m), 0 when none of its
  /// points needs correcting (rows were still appended).
  double addContactPositionRows(RowBuffer& rows, size_t first, size_t last, int iteration,
                                const JointBuildContext& ctx, double dt) const;
  /// Moves a body by a displacement (m) and a turn (rotation vector, rad), its momentum with it.
  static void moveBody(RigidBody& body, const Vec3& displacement, const Vec3& turn);
  /// Moves the bodies and rotors by dt times their pseudo-velocities (scaled down as a whole when
  /// a body would turn by more than the linearisation holds) and zeroes them; returns the factor
  /// it moved by (pseudoVelocityStep).
  double applyPseudoVelocities(double dt);
  /// The factor applyPseudoVelocities moves by: dt, scaled down as a whole when a body would turn
  /// by more than the linearisation holds (unit: s).
  double pseudoVelocityStep(double dt) const;
  /// Moves the rotors by `step` (s) times their pseudo-velocities and zeroes them.
  void applyPseudoRotorSpeeds(double step);
  /// The largest joint error the position pass may leave for the next step (unit: m or rad).
  double jointTolerance() const;
  /// The largest position error of the joints' rows, measured without building them (m or rad;
  /// negative when a joint cannot measure its own).
  double measuredJointError(const JointBuildContext& ctx) const;
  /// Before the velocity solve: one Newton step on the joint errors at the start-of-step poses,
  /// solved with the velocity rows' own tree factorisation (their ConstraintRow::correction).
  void preProjectJoints(double dt);
  /// Fills jointBesideTree_ from the velocity rows' blocks.
  void markJointsBesideTree();
  /// The joint's own tolerance for the position pass (m or rad): jointTolerance(), or
  /// positionTolerance for a joint whose rows the pre-projection leaves.
  double jointTolerance(size_t joint) const;
  JointBuildContext buildContext(double dt, bool positionPhase) const;
  void integratePositions(double dt, std::span<const SolverVelocity> velocities);
  void solvePositions(double dt);
  /// The trees WorldSettings::projectTreesInJointSpace puts onto their joints this step.
  void projectTreesOntoJoints();
  /// After the velocity solve: no contact ends the step with friction past its Coulomb cone
  /// (world_friction.cpp); returns whether it moved a link of a jointed tree, as applyRestitution.
  bool keepFrictionInCones();

  // Solver islands (world_islands.cpp, solver_islands.h): after detection the rows' bodies and
  // rotors are split into islands, and the velocity and position passes run island by island.
  /// solverIslands_ for this step (reorders the awake contacts by island).
  void partitionIslands();
  /// Makes island k the one the passes see (its rows in rows_); leaveIsland puts them back.
  void enterIsland(size_t k);
  void leaveIsland(size_t k);
  /// The current island's joints (indices into joints_) and contacts.
  std::span<const int> islandJoints() const { return solverIslands_.joints(*island_); }
  /// Whether one of the island's joints holds the body: an impulse on it alone (its own mass)
  /// leaves that joint's velocity error.
  bool jointedInIsland(BodyId body) const;
  std::span<ContactPoint> islandContacts() {
    return {contacts_.data() + island_->contactBegin, island_->contactEnd - island_->contactBegin};
  }
  /// The current island's velocity pass after its rows are prepared: warm start, solve,
  /// restitution, cones, impulses stored.
  SolveResult solveIslandVelocities(double dt, const SolveStop& stop);
  /// The position pass of the current island (solvePositions runs it for each).
  void solveIslandPositions(double dt);
  bool checkFinite();

  // Sleep (world_sleep.cpp; SleepSettings).
  /// Start of a step: wakes islands with a force, torque or velocity put on a sleeping body, or
  /// jointed to a moving kinematic body (and everything when sleep was switched off).
  void wakeDisturbedIslands();
  /// After detection: wakes islands an active body touches, then puts the contacts that still
  /// touch a sleeping body after the others (awakeContactCount_).
  void wakeTouchedIslands();
  /// islands_ from every joint and the given contacts between two dynamic bodies.
  void buildIslands(std::span<const ContactPoint> contacts);
  /// Marks `sleeper` in wakeMarks_ when it sleeps and `other` moves (an active body); returns
  /// whether it did.
  bool markSleeperMovedBy(BodyId sleeper, BodyId other);
  /// Wakes every island holding a body marked in wakeMarks_ (and clears the marks); bodies woken
  /// mid-step get their solver mass and zero velocity.
  void wakeMarkedIslands();
  /// End of a step: rest timers, and islands at rest long enough go to sleep.
  void updateSleep(double dt);
  /// The rows leave the joint alone: neither body moves (both sleeping, or one sleeping and one
  /// static or kinematic), or an articulation steps it this step.
  bool jointIdle(const Joint& joint) const;

  // Articulations (world_articulations.cpp; WorldSettings::articulations).
  /// articulations_ from the joints, when they changed.
  void buildArticulations();
  /// Start of a step: which articulations may step in joint coordinates (their joints qualify,
  /// they are awake).
  void markArticulationCandidates();
  /// After detection: candidates touching another moving body fall back to the rows; the others'
  /// bodies are marked articulated_ (immovable to the rows) and their contacts moved behind the
  /// rows' to [awakeContactCount_, articulationContactEnd_).
  void chooseArticulations();
  /// Steps the chosen articulations: velocities, contacts, stops, positions.
  void stepArticulations(double dt);
  /// An articulation's rows for its contacts in [awakeContactCount_, articulationContactEnd_).
  void addArticulationContactRows(const Articulation& x, ArticulationRows& rows, double dt);
  /// The solved impulses back to its contacts (warm start, force read-out) and its joints'
  /// read-outs; finishes its velocities.
  void storeArticulationImpulses(Articulation& x, const ArticulationRows& rows, double dt);
  /// Which active articulations nothing touches and no joint stop can reach this step.
  void markFreeArticulations(double dt);
  /// A free articulation's step (Articulation::stepFree) and its joints' read-outs; false
  /// when it declined and the tree is to be stepped with its rows.
  bool stepFreeArticulation(Articulation& x, double dt);
  /// Which of this step's projected trees (WorldSettings::projectTreesInJointSpace) stay so:
  /// nothing touches them and no joint stop is within reach.
  void markProjectedTrees(double dt);
  /// A projected tree's step (its velocities, positions and joint read-outs).
  void stepProjectedTree(Articulation& x, double dt);
  /// The joints' read-outs of the articulation's step: reactions from the links' momentum
  /// changes less linkImpulses_ (what acted on them from outside), stops' from
  /// linkStopImpulses_.
  void storeArticulatedJointImpulses(Articulation& x, double dt);
  /// Seed 002 eq. 11-12 for one awake dynamic body (integrateVelocities).
  void integrateBodyVelocity(size_t i, double dt);

  /// The contacts the solver sees: those not touching a sleeping body (at the front).
  std::span<ContactPoint> awakeContacts() { return {contacts_.data(), awakeContactCount_}; }
  /// What the solver sees of a body: sleeping ones are immovable.
  SolverBodyMass solverMass(const RigidBody& body) const;

  WorldSettings settings_;
  std::vector<RigidBody> bodies_;
  std::vector<std::unique_ptr<Joint>> joints_;
  std::vector<std::unique_ptr<Sensor>> sensors_;
  std::function<void()> substepObserver_;
  std::vector<std::unique_ptr<Grapple>> grapples_;
  std::vector<char> grappleFreeCollides_;  ///< by grapple: its bodies collide while apart
  size_t grappleWeldCount_ = 0;            ///< the welds at the end of joints_
  struct MotorEntry {
    std::unique_ptr<DcMotor> motor;
    Joint* joint;              ///< nullptr for a track drive
    double loadInertia = 0.0;  ///< track drives: rotor-side inertia of the hull (kg m^2)
    double cachedImpulses[2] = {0.0, 0.0};  ///< track drives: characteristic and brake rows
    int characteristicRow = -1, brakeRow = -1;
  };
  void addTrackMotorRows(double dt);
  void storeTrackMotorImpulses(double dt);
  /// Adds a rotor slot (solver entity) for a motor; returns the slot.
  int newRotor(const DcMotorParams& params, double angle, double speed);
  /// Rotor-side inertia the motor drives: I_m + ratio^2 * joint load, or the track drive's hull.
  double motorEffectiveInertia(const MotorEntry& m) const;
  std::vector<MotorEntry> motors_;
  std::unique_ptr<CollisionWorld> collision_;
  std::unique_ptr<ContinuousCollision> continuous_;  ///< fast bodies swept (continuous_collision.h)
  MaterialTable materials_;
  std::vector<ContactPoint> contacts_;
  size_t awakeContactCount_ = 0;       ///< contacts_[0, this) involve no sleeping body
  size_t articulationContactEnd_ = 0;  ///< then [awakeContactCount_, this): articulations'
  std::vector<std::unique_ptr<Articulation>> articulations_;
  std::unique_ptr<ArticulationRows> articulationRows_;
  std::vector<int> articulationOfBody_;      ///< by body, -1 outside
  std::vector<char> articulationCandidate_;  ///< by articulation, this step
  std::vector<char> articulationActive_;     ///< by articulation, this step
  /// by articulation, this step: fixed-base, untouched, no stop within reach (stepFree)
  std::vector<char> articulationFree_;
  /// by articulation, this step: a fixed-base tree of hinges stepped with its joints exact by
  /// momentum and pose projections (stepProjectedTree), too deep for the articulation's factor
  std::vector<char> articulationProjected_;
  std::vector<char> articulated_;  ///< by body: stepped by an articulation this step
  std::vector<char> treeTouched_;  ///< by articulation: a contact on it (projectTreesOntoJoints)
  bool articulationsDirty_ = true;
  int articulationIterations_ = 0;  ///< the most any articulation took this step
  std::vector<Eigen::Matrix<double, 6, 1>> linkImpulses_;  ///< scratch of stepArticulations
  struct StopRow {
    int row, link;
    double side;  ///< +1 lower stop, -1 upper
  };
  std::vector<StopRow> stopRows_;         ///< scratch of stepArticulations
  std::vector<double> linkStopImpulses_;  ///< scratch: by link (N m s)
  std::vector<double> articulatedRates_;  ///< scratch: by link, the hinges' rates (rad/s)
  std::vector<double> pseudoVelocity_;    ///< scratch: an articulation's split-impulse motion
  int sleepingCount_ = 0;
  BodyIslands islands_;
  std::vector<char> wakeMarks_;    ///< per body (scratch of wakeMarkedIslands)
  std::vector<char> islandReady_;  ///< per island root (scratch of updateSleep)
  std::vector<int> restitutionBlocks_;
  std::vector<int> frictionBlocks_;  ///< scratch of keepFrictionInCones
  // Scratch of orderContactsFromTheGround.
  std::vector<int> bodyLevel_;
  std::vector<int> levelQueue_;
  std::vector<int> contactStart_;      ///< body i's neighbours: [start[i], start[i + 1])
  std::vector<int> contactNeighbour_;  ///< the other body of each of its contacts
  std::vector<int> contactFill_;
  std::vector<int> levelStart_;  ///< counting sort: where level l's contacts go next
  std::vector<ContactPoint> contactScratch_;
  std::vector<ContactPoint> previousContacts_;  ///< scratch: last step's points while detecting
  CompliantContacts compliant_;                 ///< compliant pairs' points (seed 003)
  std::vector<double> rotorAngles_{0.0};        ///< slot 0: "no rotor"
  double time_ = 0.0;
  double lastDt_ = 0.0;  ///< of the last (sub)step, for force read-outs
  StepStatistics statistics_;
  bool failed_ = false;
  std::string failure_;

  // Per-step scratch, kept to avoid allocation.
  RowBuffer rows_;
  RowBuffer positionRows_;       ///< one joint's or manifold's rows in the position pass
  RowBuffer jointPositionRows_;  ///< all joints' rows in a Newton step of the position pass
  std::vector<SolverBodyMass> masses_;
  std::vector<SolverBodyMass> newtonMasses_;  ///< the metric of the joint projection's Newton step
  std::vector<char> touching_;                ///< by body: a contact touches it this step
  BodyIslands mechanisms_;  ///< the island's bodies linked by joints alone (position pass)
  /// By joint: some of its velocity rows are swept beside the tree (they close a loop, e.g. a
  /// repeater's gear to a rotor its primary joint already turns); their errors are not
  /// pre-projected, so the position pass holds them to positionTolerance.
  std::vector<char> jointBesideTree_;
  std::vector<SolverVelocity> velocities_;
  std::vector<SolverVelocity> pseudoVelocities_;
  /// The pre-projection's moves (its pseudo-velocities times its step, m and rad), applied by
  /// integratePositions together with the step's own motion: one pose update a step instead of
  /// two (nothing between the two reads the poses but the joints' reaction read-out).
  std::vector<SolverVelocity> preProjectionMoves_;
  /// This step's velocity rows put every joint equality in their tree: preProjectJoints removes
  /// what the position pass leaves, so that pass may defer errors (jointTolerance()).
  bool jointsPreProjected_ = false;
  std::vector<Vec3> angularBeforeSolve_;
  std::vector<Mat3> midpointRotation_;
  std::vector<double> rotorSpeeds_{0.0};  ///< slot 0: "no rotor"
  std::vector<double> rotorInverseInertia_{0.0};
  std::vector<double> pseudoRotorSpeeds_;

  SolverIslands solverIslands_;
  /// By island: its velocity rows and its Newton position rows (each keeps its tree's structure
  /// from step to step), and whether its velocity pass pre-projected its joints.
  struct IslandRows {
    RowBuffer velocity, jointPositions;
    bool jointsPreProjected = false;
  };
  std::vector<IslandRows> islandRows_;
  const SolverIslands::Island* island_ = nullptr;  ///< the island the passes see
  std::vector<char> movable_;                      ///< scratch: by body, moved by the rows
  /// The current island's bodies and every body its rows reach (joint and contact ends, which
  /// may repeat): what the position pass moves and re-weighs.
  std::vector<BodyId> islandReach_;
};

}  // namespace impetus
