#pragma once
// The humanoid's walking controller (seeds 002 and 004): a divergent-component-of-motion
// (capture point) pattern generator on the linear inverted pendulum (Englsberger et al. 2015),
// footsteps from the operator's velocity command, swing-foot trajectories, whole-body inverse
// kinematics to leg joint references, and a stabiliser that moves the commanded ZMP from the
// measured capture point (IMU attitude + encoders). Runs once per 10 ms step from simulation
// time only, allocation-free; its state saves and loads bit-exactly.

#include <array>

#include "footstep_planner.h"
#include "whole_body_model.h"

namespace impetus {
class StateWriter;
class StateReader;
}  // namespace impetus

namespace impetus::walking {

enum class GaitState { Standing = 0, Walking = 1, Stopping = 2, Fallen = 3 };

struct WalkingParams {
  /// Short steps: a DCM error grows by exp(w T) over a step, 5.5 at 0.5 s against 15 at 0.8 s.
  double stepTime = 0.5;                       ///< one step, double support included (s)
  double doubleSupportTime = 0.1;              ///< both feet down at the start of each step (s)
  double firstDoubleSupport = 0.5;             ///< the weight shift before the first step (s)
  double swingHeight = 0.06;                   ///< foot clearance at mid-swing (m)
  double ankleHeight = 0.10;                   ///< ankle axes above the sole (m)
  double soleLength = 0.24, soleWidth = 0.13;  ///< (m)
  double soleForward = 0.025;                  ///< sole centre ahead of the ankle (m)
  double zmpMargin = 0.02;                     ///< commanded ZMP kept this far inside the soles (m)
  double dcmGain = 2.0;  ///< DCM tracking gain k (1/s), ZMP = p_ref + (1 + k/w) e
  /// The ankles are asked for the ZMP p = p_model + g (1 + k/w) (xi_measured - xi_model): with
  /// g (1 + k/w) > 1 the measured error decays (below 1 the pendulum still outruns the ankles).
  double stabiliserGain = 2.0;
  /// Low-pass on the measured CoM velocity: a landing's impact spikes the joint rates.
  double velocityFilterTime = 0.04;  ///< (s)
  /// A landed foot is held where it touched down, in the measured pelvis frame, and handed back
  /// to the planned frame over this: a body leaning at touchdown is brought upright gently,
  /// not over the double support (that launched the robot off both feet).
  double landingHandover = 0.35;                                    ///< (s)
  double topForward = 0.40, topBackward = 0.20, topLateral = 0.10;  ///< (m/s)
  double topTurn = 0.30;                                            ///< (rad/s)
  /// On a slope the commanded speed is cut so that no step lands lower than maxStepDown below
  /// the stance foot or higher than maxStepUp above it (0.17 m/s down and 0.28 m/s up 10
  /// degrees, as a person slows on a steep ramp): at full speed the climbs of the 10 degree
  /// ramp fell on its top, and the knees take a 3.5 cm drop each step badly.
  double maxStepDown = 0.015;        ///< (m); 0: no limit
  double maxStepUp = 0.025;          ///< (m); 0: no limit
  double commandAcceleration = 0.4;  ///< command slew (m/s^2; turn: rad/s^2 at the same value)
  double fallTilt = 0.5;             ///< pelvis tilt that means fallen (rad)
  /// Foot force difference control (Kajita et al. 2010): the feet's heights are moved apart
  /// until their measured loads split as the commanded ZMP asks; position-controlled legs in
  /// double support otherwise share the weight by their stiffness alone.
  double forceGain = 0.0;          ///< (m/s per N); 0: off (see scenes/README.md, "walking")
  double forceTimeConstant = 1.0;  ///< the height difference leaks back over this (s)
  /// Foot damping control (Kajita et al. 2010): a loaded sole turns at (measured - wanted
  /// ground moment about the ankle) / damping, so that it lies flat and its centre of pressure
  /// goes where the commanded ZMP asks, whatever the legs' posture error.
  double ankleDamping = 400.0;  ///< (N m s/rad); 0: off
  /// Scales the swing leg's modelled ZMP shift (the rigid model's momentum, 1, misses the
  /// compliant upper body's share: the soles measured about twice it).
  double swingMomentumGain = 2.0;
  double ankleTimeConstant = 0.25;  ///< the tilt leaks back over this (s)
  double ankleMaxTilt = 0.15;       ///< (rad)
  FootstepLimits limits;
};

/// What an ankle's 6-axis cell reads, turned to the world: the leg's push on the foot and its
/// moment about the cell's centre (the ankle point of the joint axes).
struct AnkleWrench {
  Vec3 force = Vec3::Zero();   ///< (N)
  Vec3 torque = Vec3::Zero();  ///< (N m)
  Vec3 centre = Vec3::Zero();  ///< world (m)
};

/// What the controller reports each step (the scheme's signals).
struct WalkingOutputs {
  std::array<double, 12> legAngles{};  ///< joint references (rad), hip to ankle, left, right
  GaitState state = GaitState::Standing;
  bool drivesEnabled = true;
  Vec2 comMeasured = Vec2::Zero(), capturePoint = Vec2::Zero(), zmpCommanded = Vec2::Zero();
  Vec2 comPlanned = Vec2::Zero(), capturePointPlanned = Vec2::Zero();
  std::array<FootPlacement, 2> feet;  ///< where the feet are (or land)
  FootPlacement nextStep;             ///< the planned landing of the swing foot
};

class WalkingController {
 public:
  WalkingController(const World& world, const LeggedRobotNames& names, const WalkingParams& p);

  /// One control step: `command` in [-1, 1] (forward, lateral left, turn counter-clockwise),
  /// the IMU's roll, pitch, yaw, and what each ankle F/T cell reads (left, right). Reads the
  /// encoders from `world`.
  const WalkingOutputs& step(const World& world, const Vec3& command, const Vec3& imuRollPitchYaw,
                             const std::array<AnkleWrench, 2>& ankles, double dt);
  const WalkingOutputs& outputs() const { return out_; }
  void reset();
  void saveState(StateWriter& out) const;
  void loadState(StateReader& in);

 private:
  void startStep(Side swing, const FootPlacement& target, double doubleSupport);
  void planZmp();
  Vec2 soleCentre(const FootPlacement& f) const;
  Vec2 clampToSupport(const Vec2& p) const;
  void measure(const World& world, const Vec3& imu, double dt);
  /// What the wanted walking velocity (heading frame, m/s) is scaled by on a slope.
  double slopeSpeedScale(const Vec2& velocity) const;
  Vec2 swingZmpShift(double clock) const;
  void dampAnkles(const std::array<AnkleWrench, 2>& ankles, const Vec2& zmp, double dt);
  Vec2 swingDcmShift(double clock) const;
  /// A planned foot put on the terrain under it (terrain.h); a step from `from` (where the
  /// foot lifts) to a foothold clear of edges. The plan's frame is the robot's odometry; the
  /// terrain is looked up where the foot will truly be (odometryYaw_, odometryShift_).
  FootPlacement onGround(const World& world, const FootPlacement& f,
                         const FootPlacement* from = nullptr) const;
  /// A horizontal point of the plan's odometry frame in the world, and back.
  Vec2 inWorld(const Vec2& p) const;
  Vec2 inOdometry(const Vec2& p) const;

  WholeBodyModel model_;
  WalkingParams p_;
  double omega_ = 3.4;      ///< sqrt(g / z_c) (1/s)
  double comHeight_ = 0.9;  ///< above the soles (m)
  double pelvisHeight_ = 0.9;
  WalkingOutputs out_;

  // State (saved).
  GaitState state_ = GaitState::Standing;
  WalkCommand command_;  ///< slewed command
  /// Planted feet (the swing foot: where it lifted), their tilt the ground's under them.
  std::array<FootPlacement, 2> feet_;
  Side swing_ = kLeft;
  FootPlacement target_;  ///< the swing foot's landing
  double stepClock_ = 0.0, doubleSupport_ = 0.2;
  Vec2 zmpAtStepStart_ = Vec2::Zero();
  Vec2 com_ = Vec2::Zero(), comVelocity_ = Vec2::Zero();  ///< the reference pendulum
  Vec2 measuredCom_ = Vec2::Zero(), measuredVelocity_ = Vec2::Zero();
  std::array<double, 12> legAngles_{};
  double time_ = 0.0;
  double footHeightDifference_ = 0.0;  ///< left minus right, from the force control (m)
  std::array<Vec2, 2> ankleTilt_{Vec2::Zero(), Vec2::Zero()};  ///< foot damping control (rad)

  // Scratch (not state): the ZMP plan from now on as segments, and the DCM reference.
  struct Segment {
    double duration;
    Vec2 start, end;  // linear ZMP over the segment
  };
  std::array<Segment, 12> segments_{};
  int segmentCount_ = 0;
  Vec2 dcmReference_ = Vec2::Zero();
  Vec2 zmpReference_ = Vec2::Zero();
  /// The odometry frame in the world, from the planted foot's plan against where it stands,
  /// each step: world = R(odometryYaw_) odometry + odometryShift_ (horizontal).
  double odometryYaw_ = 0.0;
  Vec2 odometryShift_ = Vec2::Zero();
};

}  // namespace impetus::walking
