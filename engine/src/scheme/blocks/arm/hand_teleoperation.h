#pragma once
// Cartesian teleoperation of a hand (the tip of an arm chain): the operator steers the hand's
// pose by rates - linear (m/s) and angular (rad/s), in the robot's frame or the hand's own - and
// each step a damped-least-squares inverse kinematics turns the moved target into joint
// setpoints, within the joints' ranges and the drives' speeds, with the chain's redundancy pulled
// towards a rest posture. The robot frame is the floating base's (the pelvis): the target rides
// with the robot, as an operator in its cockpit expects; a chain on the ground steers in the
// world frame.

#include <memory>
#include <vector>

#include "impetus/math/types.h"
#include "impetus/tree/inverse_kinematics.h"
#include "impetus/tree/tree_from_world.h"

namespace impetus {
class StateWriter;
class StateReader;
}  // namespace impetus

namespace impetus::arm {

struct HandPose {
  Vec3 position = Vec3::Zero();         ///< (unit: m)
  Mat3 orientation = Mat3::Identity();  ///< hand link frame -> reference frame
};

struct HandRates {
  Vec3 linear = Vec3::Zero();   ///< (unit: m/s)
  Vec3 angular = Vec3::Zero();  ///< (unit: rad/s)
  bool inHandFrame = false;     ///< false: robot frame
  /// An orbit on top: the whole target pose turns at this angular velocity (rad/s, robot
  /// frame) about the line through `orbitCentre` (m, robot frame) - a hand following the rim of
  /// a wheel it holds. Zero: none.
  Vec3 orbit = Vec3::Zero();
  Vec3 orbitCentre = Vec3::Zero();
};

class HandTeleoperation {
 public:
  /// `tipLink`/`tipPoint`: the hand's link and its grasp point in that link's frame; `links`:
  /// the arm's joint links; `maxRates`: each joint's speed limit (rad/s or m/s); `posture`: the
  /// rest coordinates of `links`. `base`: the floating base's first link, -1 for the world.
  HandTeleoperation(tree::WorldTree tree, int base, int tipLink, const Vec3& tipPoint,
                    std::vector<int> links, std::vector<double> maxRates,
                    std::vector<double> posture);

  /// Moves the target by `rates` over `dt` and returns the joint setpoints (one per link).
  /// The first step takes the target from the measured pose. With `contactForce` (what the
  /// world pushes on the hand, world frame, N) the hand complies: an admittance adds
  /// `admittance` x that force to the commanded velocity, so a hand pushed on gives way and a
  /// hand steered into a wall at v settles where it presses with v / admittance. While the
  /// target orbits, the admittance acts across the orbit's path only: the hand gives way to
  /// what it holds, but still drives it round.
  const std::vector<double>& step(const World& world, const HandRates& rates, double dt,
                                  const Vec3* contactForce = nullptr, double admittance = 0.0);

  /// Joint mode: moves one joint's setpoint (index into `links`) at `rate` (in [-1, 1]) of its
  /// speed limit, the others holding theirs; the target follows the hand, so Cartesian steering
  /// resumes from where the joints put it.
  const std::vector<double>& stepJoint(const World& world, int joint, double rate, double dt);

  /// The hand's target in the robot frame (the base link's frame; world without a base).
  const HandPose& target() const { return target_; }
  /// A point of the robot frame in the world, as the floating base stands now.
  Vec3 toWorld(const World& world, const Vec3& robotPoint) const;
  /// The robot frame's axes in the world (the base link's: its body's, turned by the placement).
  Mat3 robotRotation(const World& world) const;
  /// The hand's pose at joint coordinates `q` of the whole tree, robot frame.
  HandPose poseAt(const tree::VectorX& q);
  /// The tree's coordinates with the base at the origin, as step() solves in.
  void measure(const World& world, tree::VectorX& q) const;
  const tree::WorldTree& worldTree() const { return *tree_; }
  const std::vector<int>& links() const { return links_; }

  void reset() { started_ = false; }
  void saveState(StateWriter& out) const;
  void loadState(StateReader& in);

 private:
  /// Measures the joints into q_; the first time, the setpoints and the target from them.
  void measureAndStart(const World& world);
  std::unique_ptr<tree::WorldTree> tree_;  // stable address: the solver keeps a pointer
  tree::InverseKinematics ik_;
  int base_;
  int baseBody_ = -1;  ///< the world body of the floating base, or -1
  std::vector<int> links_;
  std::vector<double> maxRates_;
  tree::VectorX q_, posture_;
  mutable tree::VectorX qd_;  ///< scratch of measure()
  std::vector<double> command_;
  HandPose target_;
  tree::IkOptions options_;
  bool started_ = false;
  bool settled_ = false;  ///< the last solve reached the target and nothing has moved it since
};

}  // namespace impetus::arm
