#pragma once
// A joint between a parent body A and a child body B (A may be the ground, body 0). Each joint has
// a frame on each body; the frame's x axis is the joint axis (hinge axis, slide direction). At
// assembly the two frames coincide in the world; the joint's coordinate is 0 there.
//
// Joint types emit solver rows (see solver/constraint_row.h) in two phases:
//  - velocity rows: the holonomic constraint (seed 000 eq. 2), then Coulomb joint friction on the
//    free DOF (seed 000 eq. 8-10), limits (one-sided, speculative), viscous damping (soft row);
//  - position rows: the same constraints and limits, with targets that remove the position error
//    found after integrating positions (post-step projection with pseudo-velocities).

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "impetus/drives/dc_motor.h"
#include "impetus/dynamics/rigid_body.h"
#include "impetus/math/types.h"
#include "impetus/solver/row_buffer.h"

namespace impetus {

class StateWriter;
class StateReader;

enum class JointType { Fixed, Revolute, Prismatic, Spherical, Cylindrical, Universal, Beam };

const char* jointTypeName(JointType type);

/// A joint frame expressed in its body's frame (relative to the body's centre of mass).
struct JointFrame {
  Vec3 anchor = Vec3::Zero();           ///< (unit: m)
  Quat orientation = Quat::Identity();  ///< x axis = joint axis
};

/// Range of a joint coordinate (unit: rad for rotation, m for translation).
struct JointLimit {
  bool enabled = false;
  double lower = 0.0;
  double upper = 0.0;
};

/// Coulomb friction in the joint (seed 000): ||p_fr|| <= F_max dt over the free DOF.
struct JointFriction {
  double torque = 0.0;  ///< F_max for rotational free DOF (unit: N m)
  double force = 0.0;   ///< F_max for translational free DOF (unit: N)
};

/// A motor rotor geared to a joint: joint rate = ratio * rotor speed (seed 001). The motor's own
/// joint is `primary` (it also carries the characteristic and brake rows); repeaters are not.
struct DriveCoupling {
  DcMotor* motor = nullptr;
  double ratio = 0.0;  ///< 1/r, k/r for a repeater (seed 001 eq. 12), lead/r for prismatic joints
  bool primary = false;
  double angleOffset = 0.0;  ///< joint coordinate - ratio * rotor angle at assembly
  int gearRow = -1;          ///< offsets into this joint's rows, set while building
  int characteristicRow = -1;
  int brakeRow = -1;
};

/// World-frame pose of a joint's two frames at the current body poses.
struct JointPose {
  Vec3 anchorA, anchorB;            ///< world anchors (unit: m)
  Vec3 armA, armB;                  ///< anchor - centre of mass (unit: m)
  Mat3 frameA, frameB;              ///< columns: joint x, y, z axes in the world
  Quat orientationA, orientationB;  ///< joint frames -> world
};

/// What a joint needs to build its rows.
struct JointBuildContext {
  std::span<const RigidBody> bodies;
  std::span<const double> rotorSpeeds;  ///< by rotor slot (rad/s)
  std::span<const double> rotorAngles;  ///< by rotor slot (rad)
  std::span<const double> rotorInverseInertia;
  double dt = 0.01;                 ///< (unit: s)
  bool positionPhase = false;       ///< building position-projection rows
  double correctionFactor = 1.0;    ///< share of the position error removed this step
  double maxCorrectionSpeed = 5.0;  ///< cap on correction targets (unit: m/s or rad/s)
  /// Velocity rows go to an EqualityTree: a motor's gear row stays an equality block of its own
  /// (the tree solves it exactly with its joint) instead of joining the limits' small LCP.
  bool directJoints = false;
  /// Position rows also hold the springs' deflections (a beam joint's stretch, twist and bends, a
  /// compliant gear's twist) where they are: a correction moving a mechanism through its joints
  /// (a contact between two of its links) then moves it as a rigid one instead of through its
  /// springs' free deflections, which loads them (a boom stretched 13 mm holds 40 kJ).
  bool keepSpringDeflections = false;

  /// Target of a position-projection row for constraint error C (J v_pseudo = -factor C / dt).
  double correctionTarget(double error) const;
};

class Joint {
 public:
  Joint(std::string name, BodyId parent, BodyId child, JointFrame inParent, JointFrame inChild);
  virtual ~Joint() = default;
  Joint(const Joint&) = delete;
  Joint& operator=(const Joint&) = delete;

  virtual JointType type() const = 0;
  /// Number of degrees of freedom the joint leaves free.
  virtual int freeDof() const = 0;

  const std::string& name() const { return name_; }
  BodyId parent() const { return parent_; }
  BodyId child() const { return child_; }
  const JointFrame& frameInParent() const { return inParent_; }
  const JointFrame& frameInChild() const { return inChild_; }

  JointFriction friction;  ///< Coulomb friction, 0 = none
  JointLimit limit;        ///< revolute and prismatic only
  double damping = 0.0;    ///< viscous: torque = -damping * rate (N m s/rad) or force (N s/m)

  /// Appends this step's velocity rows, warm-started from the last step's impulses.
  void buildVelocityRows(const JointBuildContext& ctx, RowBuffer& rows, bool warmStart);
  /// Appends the position-projection rows at the current (post-integration) poses.
  void buildPositionRows(const JointBuildContext& ctx, RowBuffer& rows);
  /// The largest position error those rows would ask to remove (m or rad, times the correction
  /// factor, as their targets), measured without building them; negative when only the rows can
  /// tell (a joint type without the measure, a drive's gear rows).
  double positionError(const JointBuildContext& ctx) const;
  /// Keeps the solved impulses for warm starting and the reaction readout.
  void storeImpulses(const RowBuffer& rows, std::span<const RigidBody> bodies, double dt);
  /// The read-outs when an articulation stepped the joint (no rows): the impulse it passed the
  /// child, world force (N s) and moment about the anchor (N m s), and its stops' impulse along
  /// the DOF (N m s or N s). The rows' warm-start impulses are left as they were.
  void storeArticulatedImpulses(const Vec3& force, const Vec3& momentAboutAnchor,
                                double stopImpulse, std::span<const RigidBody> bodies, double dt);
  /// The coordinate (rad or m, unwrapped) and rate an articulation stepped the joint to; the
  /// step's updateCoordinates keeps them instead of measuring the bodies again.
  void storeArticulatedCoordinates(double position, double rate) {
    position_ = position;
    rate_ = rate;
    coordinatesStored_ = true;
  }
  /// The joint's step-to-step state (warm-start impulses, coordinate, reactions), bit-exact.
  void saveState(StateWriter& out) const;
  void loadState(StateReader& in);
  /// Updates the cached coordinate and rate after a step (unwrapping revolute angles).
  void updateCoordinates(std::span<const RigidBody> bodies);

  /// The joint's frames at the bodies' current poses. Kept until either body moves: a step asks
  /// for them some four times (rows, error measure, coordinates, the next step's rows) at two or
  /// three distinct poses. The reference is valid until the next call.
  const JointPose& pose(std::span<const RigidBody> bodies) const;

  /// Primary coordinate: angle (rad) or displacement (m) along the joint axis; 0 for spherical.
  double position() const { return position_; }
  /// Its rate (rad/s or m/s).
  double rate() const { return rate_; }
  /// Reaction on the child at the anchor, child joint frame, from the last step (unit: N).
  const Vec3& reactionForce() const { return reactionForce_; }
  /// Reaction torque on the child about the anchor, child joint frame (unit: N m).
  const Vec3& reactionTorque() const { return reactionTorque_; }
  /// Generalised reaction along the primary DOF (torque about / force along the joint axis).
  double generalizedForce() const { return generalizedForce_; }
  /// The part of it the limit stops exert (N m or N), e.g. a gripper jaw's squeeze on its stop.
  double limitForce() const { return limitForce_; }
  /// The part the motors and repeaters geared to this joint exert (N m or N).
  double driveForce() const { return driveForce_; }
  /// Gears a motor rotor (or a repeater of it) to this joint's primary DOF; revolute and prismatic
  /// joints only (throws std::invalid_argument otherwise).
  void addDrive(DcMotor& motor, double ratio, bool primary);
  std::span<const DriveCoupling> drives() const { return drives_; }
  /// Inertia (kg m^2) or mass (kg) that the joint's DOF moves when only this joint's bodies count.
  double loadInertia(std::span<const RigidBody> bodies) const;

  /// Where buildVelocityRows put this joint's rows in its buffer: [first, first + count).
  int firstVelocityRow() const { return firstRow_; }
  int velocityRowCount() const { return rowCount_; }

  /// Anchor separation (m) at the current poses: the joint error benchmarks report.
  double anchorSeparation(std::span<const RigidBody> bodies) const;
  /// Angle between the two frames' joint axes (rad), for joints that align them.
  double axisMisalignment(std::span<const RigidBody> bodies) const;

 protected:
  virtual void addVelocityRows(const JointBuildContext& ctx, const JointPose& pose,
                               RowBuffer& rows) = 0;
  virtual void addPositionRows(const JointBuildContext& ctx, const JointPose& pose,
                               RowBuffer& rows) = 0;
  /// The position errors C of addPositionRows' equality rows (m or rad), and how far a limit is
  /// past its stop: what those rows' targets carry, without building them.
  struct PositionErrors {
    double rows[kMaxBlockRows];
    int count = -1;  ///< -1: the type does not measure them (only its rows can tell)
    double limitViolation = 0.0;
  };
  virtual PositionErrors measurePositionErrors(const JointPose& /*pose*/) const { return {}; }
  /// Coordinate at the current poses, before unwrapping (rad or m); 0 if the type has none.
  virtual double measureCoordinate(const JointPose& /*pose*/) const { return 0.0; }
  /// Whether measureCoordinate and measureRate say anything (a ball, fixed or universal joint:
  /// no primary coordinate, both 0).
  virtual bool hasCoordinate() const { return false; }
  /// Rate of the primary coordinate (rad/s or m/s).
  virtual double measureRate(const JointPose& /*pose*/, const RigidBody& /*a*/,
                             const RigidBody& /*b*/) const {
    return 0.0;
  }
  virtual bool rotational() const { return true; }
  /// Appends one row whose J v is the rate of the primary coordinate; -1 if the type has none.
  virtual int addCoordinateRow(const JointPose& /*pose*/, RowBuffer& /*rows*/,
                               BlockKind /*kind*/) const {
    return -1;
  }
  /// Continuous coordinate near the last one (revolute angles unwrap across +-pi).
  double continuousCoordinate(const JointPose& pose) const;
  /// Subclasses report where they put their two limit rows (index from parts::limitRows).
  void markLimitRows(int firstIndex) { limitRowOffset_ = firstIndex - firstRow_; }
  /// The drive whose rotor this step's velocity-phase stop rows act on, or nullptr (they act on
  /// the joint's own motion): chosen by buildVelocityRows before addVelocityRows (stopDrive).
  const DriveCoupling* stopOnRotor() const { return stopOnRotor_; }
  /// A stop row on that drive's rotor: J = ratio on the rotor's speed, i.e. the joint's rate.
  static int addRotorStopRow(RowBuffer& rows, const DriveCoupling& drive);

 private:
  std::string name_;
  BodyId parent_;
  BodyId child_;
  JointFrame inParent_;
  JointFrame inChild_;
  Mat3 frameMatrixInParent_;  ///< inParent_.orientation as a matrix (constant)
  Mat3 frameMatrixInChild_;
  int firstRow_ = 0;
  int rowCount_ = 0;
  std::vector<double> impulseCache_;
  std::vector<DriveCoupling> drives_;
  void addDriveRows(const JointBuildContext& ctx, const JointPose& pose, RowBuffer& rows);
  void addDrivePositionRows(const JointBuildContext& ctx, const JointPose& pose, RowBuffer& rows);
  /// A gear's drift at joint coordinate q: q - offset - ratio * rotor angle (unit: rad or m).
  static double gearError(const DriveCoupling& d, double q, const JointBuildContext& ctx);
  double position_ = 0.0;
  bool coordinatesStored_ = false;  ///< this step's, from storeArticulatedCoordinates
  double rate_ = 0.0;
  Vec3 reactionForce_ = Vec3::Zero();
  Vec3 reactionTorque_ = Vec3::Zero();
  double generalizedForce_ = 0.0;
  double limitForce_ = 0.0;
  double driveForce_ = 0.0;
  int limitRowOffset_ = -1;  ///< offset of the lower limit row in this joint's rows, or -1
  const DriveCoupling* stopOnRotor_ = nullptr;  ///< this step's (velocity phase)
  /// A rigid gear ties the joint's rate to its rotor's, so a stop on the rotor is the same
  /// constraint; where the rotor's reflected inertia outweighs the links', a stop swept with the
  /// links' inertia gives way to it by a little every iteration (the MF-4's wrist crept 60
  /// degrees past its stop), swept with the rotor's it holds. Only when the joint's rows go to
  /// the equality tree (otherwise its stops and gear are one exact block).
  const DriveCoupling* stopDrive(const JointBuildContext& ctx) const;
  /// pose()'s cache and the body poses it was computed at.
  struct PoseKey {
    Vec3 positionA, positionB;
    Quat orientationA, orientationB;
  };
  mutable JointPose cachedPose_;
  mutable PoseKey cachedPoseKey_;
  mutable bool poseCached_ = false;
};

}  // namespace impetus
