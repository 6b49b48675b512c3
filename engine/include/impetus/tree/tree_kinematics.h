#pragma once
// The forward recursion of seed 004 in the world frame: link poses from q, link velocities from
// q', point Jacobians from the joints on the path root -> link, centre of mass and momentum.

#include <span>
#include <vector>

#include <Eigen/Core>

#include "impetus/math/types.h"
#include "impetus/tree/kinematic_tree.h"

namespace impetus::tree {

using VectorX = Eigen::VectorXd;
using MatrixX = Eigen::MatrixXd;
/// Point Jacobian: rows 0-2 angular velocity, rows 3-5 linear velocity of the point.
using Jacobian6 = Eigen::Matrix<double, 6, Eigen::Dynamic>;

/// One link's world-frame state after TreeKinematics::update.
struct LinkState {
  Mat3 rotation = Mat3::Identity();     ///< link frame -> world
  Vec3 origin = Vec3::Zero();           ///< link frame origin, on the joint axis (unit: m)
  Vec3 axis = Vec3::UnitX();            ///< joint axis k_i, world
  Vec3 centreOfMass = Vec3::Zero();     ///< world (unit: m)
  Mat3 inertia = Mat3::Zero();          ///< about the centre of mass, world (kg m^2)
  Vec3 angularVelocity = Vec3::Zero();  ///< (unit: rad/s)
  Vec3 originVelocity = Vec3::Zero();   ///< of the frame origin (unit: m/s)
};

class TreeKinematics {
 public:
  explicit TreeKinematics(const KinematicTree& tree);

  /// Poses and velocities at (q, q'); both of size tree().size().
  void update(const VectorX& q, const VectorX& qd);
  /// Poses only, velocities zero.
  void updatePositions(const VectorX& q);
  /// Poses only, of the subtree rooted at link `root` (its velocities zero): for a q that
  /// differs from the last update's only there, e.g. one leg's joints in an inverse-kinematics
  /// iteration. Links outside the subtree keep their state.
  void updateSubtreePositions(const VectorX& q, int root);

  const KinematicTree& tree() const { return *tree_; }
  const LinkState& link(int i) const { return links_[static_cast<size_t>(i)]; }
  const VectorX& q() const { return q_; }
  const VectorX& qd() const { return qd_; }

  /// World position of a point given in link i's frame.
  Vec3 pointPosition(int i, const Vec3& local) const;
  /// Velocity of a world point moving with link i (unit: m/s).
  Vec3 pointVelocity(int i, const Vec3& worldPoint) const;
  /// J (6 x n) with [w; v] = J q' for a world point moving with link i: columns of the joints on
  /// the path root -> i are k_j and k_j x (p - o_j) (revolute) or 0 and k_j (prismatic).
  void pointJacobian(int i, const Vec3& worldPoint, Jacobian6& jacobian) const;

  Vec3 centreOfMass() const;                      ///< (unit: m); the origin for a massless tree
  Vec3 linearMomentum() const;                    ///< (unit: kg m/s)
  Vec3 angularMomentum(const Vec3& about) const;  ///< (unit: kg m^2/s)
  double kineticEnergy() const;                   ///< (unit: J)
  /// The same over some of the links (one robot of a world's tree), summed in the order given.
  Vec3 centreOfMass(std::span<const int> links) const;
  Vec3 linearMomentum(std::span<const int> links) const;
  Vec3 angularMomentum(const Vec3& about, std::span<const int> links) const;

 private:
  void forward(bool withVelocities);
  void pose(int i);  ///< link i's pose from its parent's and q_[i]
  const KinematicTree* tree_;
  std::vector<LinkState> links_;
  VectorX q_, qd_;
  std::vector<char> inSubtree_;  ///< scratch of updateSubtreePositions
};

}  // namespace impetus::tree
