#pragma once
// A kinematic tree in generalized (joint) coordinates, seed 004: links are the graph's vertices,
// 1-DOF joints its edges. Link 0.. are numbered depth first, every link after its parent, so one
// pass in index order is the forward recursion and one in reverse order the backward recursion,
// and the descendants of link i are the contiguous range [i, subtreeEnd(i)).
//
// Each link's frame moves relative to its parent's frame by a constant placement (the joint frame
// at q = 0) followed by the joint motion: rotation about, or translation along, `axis` by q.
// Joints with several DOF are split into 1-DOF joints through massless links; a floating base is
// a fictitious chain of 3 prismatic + 3 revolute joints whose joint forces are zero (seed 004).

#include <limits>
#include <string>
#include <vector>

#include "impetus/math/types.h"

namespace impetus::tree {

enum class TreeJointType { Revolute, Prismatic };

struct TreeLink {
  std::string name;
  int parent = -1;  ///< f(i); -1 = the fixed root (the world)
  TreeJointType joint = TreeJointType::Revolute;
  Vec3 axis = Vec3::UnitX();            ///< joint axis, link frame (= parent placement frame), unit
  Vec3 placementOffset = Vec3::Zero();  ///< joint frame origin in the parent frame (unit: m)
  Mat3 placementRotation = Mat3::Identity();  ///< joint frame orientation in the parent frame
  double mass = 0.0;                          ///< (unit: kg); 0 for a massless fictitious link
  Vec3 centreOfMass = Vec3::Zero();           ///< link frame (unit: m)
  Mat3 inertia = Mat3::Zero();                ///< about the centre of mass, link frame (kg m^2)
  double lower = -std::numeric_limits<double>::infinity();  ///< joint range (rad or m)
  double upper = std::numeric_limits<double>::infinity();
};

class KinematicTree {
 public:
  /// Appends a link; its parent must already exist (depth-first numbering is the caller's, and
  /// isDepthFirst() checks it). Throws std::invalid_argument on a bad parent, axis or inertia.
  int addLink(TreeLink link);

  int size() const { return static_cast<int>(links_.size()); }  ///< links = DOF
  const TreeLink& link(int i) const { return links_.at(static_cast<size_t>(i)); }
  TreeLink& link(int i) { return links_.at(static_cast<size_t>(i)); }
  int parent(int i) const { return link(i).parent; }  ///< f(i)
  /// G(i): the children of link i (-1: of the root), in index order.
  std::vector<int> children(int i) const;
  /// s(i, k): the k-th child of i (k from 0), or -1.
  int child(int i, int k) const;
  /// True if every subtree occupies a contiguous index range (depth-first numbering).
  bool isDepthFirst() const;
  /// One past the last descendant of i (depth-first numbering).
  int subtreeEnd(int i) const { return subtreeEnd_.at(static_cast<size_t>(i)); }
  /// d_ij of the reachability matrix: link i is reachable from j (j on the path root -> i).
  bool reachable(int i, int j) const;
  /// p(i, j): the links of the path from i to j through their lowest common ancestor, in order
  /// (both ends included; the common ancestor once, or omitted when it is the root).
  std::vector<int> path(int i, int j) const;
  /// Total mass (unit: kg).
  double totalMass() const;
  int findLink(const std::string& name) const;  ///< -1 if absent

 private:
  std::vector<TreeLink> links_;
  std::vector<int> subtreeEnd_;
};

/// Appends the six fictitious links of a floating base under `parent` (seed 004): prismatic along
/// the parent frame's x, y, z, then revolute about z, y, x (q = position, then yaw, pitch, roll of
/// the base). The last link is the base body: its frame is the body frame at `centreOfMass` 0
/// unless given. Returns its index. Euler angles are singular at pitch = +-pi/2.
int addFloatingBase(KinematicTree& tree, const std::string& name, int parent, double mass,
                    const Mat3& inertia, const Vec3& centreOfMass = Vec3::Zero());

}  // namespace impetus::tree
