#pragma once
// The kinematic tree of a World (seed 004's view of a maximal-coordinate scene): the ground and
// other static or kinematic bodies are the root; each joint reached depth first from it becomes
// 1-DOF links (spherical: x, y, z; universal: x then the child's y; cylindrical: slide then turn
// about x); fixed joints merge their child into the parent's link; a dynamic body no joint leads
// to gets a floating base; joints that close a loop are listed, not followed.

#include <string>
#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/tree/tree_kinematics.h"

namespace impetus::tree {

struct WorldTree {
  KinematicTree tree;
  /// Per world body: the link that carries it (-1: the root) and the placement of the body frame
  /// in that link's frame (x_link = bodyRotation x_body + bodyOffset).
  std::vector<int> bodyLink;
  std::vector<Mat3> bodyRotation;
  std::vector<Vec3> bodyOffset;
  /// Per world joint: its first tree link and how many (0 for fixed joints and loop closures).
  std::vector<int> jointFirstLink;
  std::vector<int> jointLinkCount;
  /// Per world body: the first of its floating base's six links, or -1.
  std::vector<int> floatingBaseFirstLink;
  /// World joints left out of the tree because they close a loop (constraints of the tree).
  std::vector<int> loopClosures;

  /// The link of the world joint's primary DOF (revolute angle, prismatic slide), or -1.
  int linkOfJoint(int worldJoint) const;
};

/// Builds the tree of `world` at its assembly configuration (all joint coordinates 0).
WorldTree treeFromWorld(const World& world);

/// Generalized coordinates and rates of the world's current state (measured from body poses).
void coordinatesFromWorld(const WorldTree& wt, const World& world, VectorX& q, VectorX& qd);

/// Moves the world's dynamic bodies to the tree state in `kinematics` (poses and velocities) and
/// refreshes the joint coordinates: the tree drives the maximal-coordinate model.
void applyToWorld(const WorldTree& wt, const TreeKinematics& kinematics, World& world);

}  // namespace impetus::tree
