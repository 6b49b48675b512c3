#pragma once
// The walking controller's model of its robot (seed 004's tree of the scene): leg inverse
// kinematics for a pelvis pose and two foot poses, the whole-body centre of mass, and the same
// model posed from the encoders and the IMU (what the robot measures of itself).

#include <array>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "impetus/tree/tree_from_world.h"

namespace impetus::walking {

using Vec2 = Eigen::Vector2d;

enum Side { kLeft = 0, kRight = 1 };

/// A foot placement on flat ground: the point under the ankle on the sole plane and the heading.
struct FootPlacement {
  Vec3 position = Vec3::Zero();  ///< world (unit: m)
  double yaw = 0.0;              ///< (unit: rad)
  /// A small tilt of the sole about world x and y (rad) on top of the heading: the ankle
  /// damping control's correction, zero for a flat foot.
  Vec2 tilt = Vec2::Zero();
};

/// Names of the robot's parts the model needs.
struct LeggedRobotNames {
  std::string pelvis;
  std::array<std::string, 2> feet;
  std::array<std::array<std::string, 6>, 2> legJoints;  ///< hip to ankle, left then right
};

class WholeBodyModel {
 public:
  /// Throws std::invalid_argument naming what is missing or not a leg.
  /// `ankleHeight`: the ankle axes above the sole (m). The world must be at its assembly.
  WholeBodyModel(const World& world, const LeggedRobotNames& names, double ankleHeight);

  /// The leg joint angles (rad, from assembly) that put the feet at `feet` with the pelvis
  /// upright at heading `pelvisYaw`, its height `pelvisHeight`, and the whole-body centre of
  /// mass over `com` (x, y); other joints at their values in `q`. Starts from `legAngles`, which
  /// it overwrites. Returns false if a leg cannot reach (the closest reach is returned).
  /// `measuredFrame` (0..1 per foot): how much of that foot's target is taken relative to the
  /// pelvis where poseMeasured last found it rather than where this solve puts it - a swing
  /// foot aimed from the real pelvis lands flat and where planned however the stance leg gave.
  bool solve(const Vec2& com, double pelvisHeight, double pelvisYaw,
             const std::array<FootPlacement, 2>& feet, std::array<double, 12>& legAngles,
             const std::array<double, 2>& measuredFrame = {0.0, 0.0});

  /// Poses the model from measured joint angles (the world's encoders) and pelvis attitude (the
  /// IMU: roll, pitch, yaw), with the ankle point of foot `anchor` at `anchorPoint` (world).
  void poseMeasured(const World& world, const Vec3& rollPitchYaw, Side anchor,
                    const Vec3& anchorPoint);

  Vec3 centreOfMass() const { return kinematics_.centreOfMass(robotLinks_); }
  /// The centre of mass's velocity relative to the anchor foot at the last poseMeasured (m/s).
  const Vec3& measuredComVelocity() const { return measuredComVelocity_; }
  /// The point under the ankle on the sole plane, world, at the model's current pose.
  Vec3 footPoint(Side side) const;
  /// Rotation foot frame -> world at the current pose (identity: flat, facing +x).
  Mat3 footRotation(Side side) const;
  /// Where the `side` foot truly stands in the world (its sole point under the ankle and its
  /// heading), from its body's pose: the robot's localisation against its terrain map, which
  /// its own odometry (the poses above, anchored at a planted foot) drifts from.
  FootPlacement footInWorld(const World& world, Side side) const;
  /// Pelvis height above the ankle-point plane and centre of mass height at assembly (m).
  double assembledPelvisHeight() const { return assembledPelvisHeight_; }
  double assembledComHeight() const { return assembledComHeight_; }
  /// The pelvis's heading (yaw, rad) at assembly: where the robot faced as placed.
  double assembledHeading() const { return assembledHeading_; }
  /// World joint index of each leg joint (left 0-5, right 6-11).
  const std::array<int, 12>& legJoints() const { return legJoints_; }
  /// Centroidal angular momentum (kg m^2/s, heading frame) per unit velocity (m/s) of the `side`
  /// foot forward (column 0) and to the left (column 1) of the robot's heading, the other foot, the
  /// pelvis height and attitude and the centre of mass held, at the assembled posture: what a
  /// swinging leg does to the ZMP that the inverted pendulum does not see.
  const Eigen::Matrix<double, 3, 2>& swingAngularMomentum(Side side) const {
    return swingAngularMomentum_[size_t(side)];
  }
  double mass() const { return mass_; }  ///< (kg)

 private:
  bool solveLeg(Side side, const Vec3& position, const Mat3& rotation);
  void setBase(const Vec3& position, const Vec3& yawPitchRoll);
  void measureSwingMomentum();

  tree::WorldTree tree_;
  tree::TreeKinematics kinematics_;
  tree::VectorX q_, qd_;
  int base_ = -1;                    ///< first floating-base coordinate
  std::array<int, 12> legLinks_{};   ///< tree link of each leg joint
  std::array<int, 12> legJoints_{};  ///< world joint of each leg joint
  std::array<int, 2> footLinks_{};
  std::array<Vec3, 2> footPointLocal_;  ///< ankle point on the sole, foot link frame
  std::array<Mat3, 2> footRotationAssembled_;
  std::array<BodyId, 2> footBodies_{};
  std::array<Vec3, 2> footPointInBody_;  ///< the sole point, foot body frame
  std::array<Mat3, 2> footBodyRotationAssembled_;
  double assembledPelvisHeight_ = 0.0, assembledComHeight_ = 0.0, assembledHeading_ = 0.0;
  std::array<Eigen::Matrix<double, 3, 2>, 2> swingAngularMomentum_{};
  Vec3 measuredPelvisPosition_ = Vec3::Zero();
  Vec3 measuredComVelocity_ = Vec3::Zero();
  Mat3 measuredPelvisRotation_ = Mat3::Identity();
  double mass_ = 0.0;
  std::vector<int> robotLinks_;  ///< the pelvis's subtree: this robot's links of the world's tree
};

}  // namespace impetus::walking
