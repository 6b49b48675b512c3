#include "impetus/tree/kinematic_tree.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Eigenvalues>

namespace impetus::tree {

int KinematicTree::addLink(TreeLink link) {
  const int index = size();
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument("tree link '" + link.name + "': " + what);
  };
  if (link.parent < -1 || link.parent >= index) fail("parent must be an earlier link or -1");
  const double axisNorm = link.axis.norm();
  if (!std::isfinite(axisNorm) || axisNorm < 1e-12) fail("zero or non-finite joint axis");
  link.axis /= axisNorm;
  if (!(link.mass >= 0.0) || !std::isfinite(link.mass)) fail("mass must be finite and >= 0");
  if (!link.inertia.allFinite() || !link.centreOfMass.allFinite() ||
      !link.placementOffset.allFinite() || !link.placementRotation.allFinite())
    fail("non-finite placement or mass properties");
  const Mat3 sym = 0.5 * (link.inertia + link.inertia.transpose());
  if ((sym - link.inertia).norm() > 1e-9 * (1.0 + link.inertia.norm()))
    fail("inertia is not symmetric");
  const double smallest = Eigen::SelfAdjointEigenSolver<Mat3>(sym).eigenvalues().minCoeff();
  if (smallest < -1e-12 * (1.0 + sym.norm())) fail("inertia is not positive semidefinite");
  if (link.lower > link.upper) fail("joint range lower > upper");
  links_.push_back(std::move(link));
  subtreeEnd_.push_back(index + 1);
  for (int a = links_.back().parent; a >= 0; a = parent(a))
    subtreeEnd_[static_cast<size_t>(a)] = std::max(subtreeEnd_[static_cast<size_t>(a)], index + 1);
  return index;
}

std::vector<int> KinematicTree::children(int i) const {
  std::vector<int> result;
  for (int k = std::max(i + 1, 0); k < size(); ++k)
    if (parent(k) == i) result.push_back(k);
  return result;
}

int KinematicTree::child(int i, int k) const {
  const std::vector<int> c = children(i);
  return (k >= 0 && k < static_cast<int>(c.size())) ? c[static_cast<size_t>(k)] : -1;
}

bool KinematicTree::isDepthFirst() const {
  // Depth first <=> every link's subtree range holds only its descendants.
  for (int i = 0; i < size(); ++i)
    for (int k = i + 1; k < subtreeEnd(i); ++k)
      if (!reachable(k, i)) return false;
  return true;
}

bool KinematicTree::reachable(int i, int j) const {
  for (int a = i; a >= 0; a = parent(a))
    if (a == j) return true;
  return false;
}

std::vector<int> KinematicTree::path(int i, int j) const {
  std::vector<int> up, down;
  int a = i, b = j;
  // Lift the deeper (higher-numbered, as parents precede children) end until the ends meet.
  while (a != b) {
    if (a > b) {
      up.push_back(a);
      a = parent(a);
    } else {
      down.push_back(b);
      b = parent(b);
    }
  }
  if (a >= 0) up.push_back(a);
  up.insert(up.end(), down.rbegin(), down.rend());
  return up;
}

double KinematicTree::totalMass() const {
  double m = 0.0;
  for (const TreeLink& l : links_) m += l.mass;
  return m;
}

int KinematicTree::findLink(const std::string& name) const {
  for (int i = 0; i < size(); ++i)
    if (link(i).name == name) return i;
  return -1;
}

int addFloatingBase(KinematicTree& tree, const std::string& name, int parent, double mass,
                    const Mat3& inertia, const Vec3& centreOfMass) {
  static const char* const kSuffix[6] = {".x", ".y", ".z", ".yaw", ".pitch", ".roll"};
  const Vec3 axes[6] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(),
                        Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitX()};
  int last = parent;
  for (int k = 0; k < 6; ++k) {
    TreeLink l;
    l.name = name + kSuffix[k];
    l.parent = last;
    l.joint = k < 3 ? TreeJointType::Prismatic : TreeJointType::Revolute;
    l.axis = axes[k];
    if (k == 5) {
      l.name = name;
      l.mass = mass;
      l.inertia = inertia;
      l.centreOfMass = centreOfMass;
    }
    last = tree.addLink(std::move(l));
  }
  return last;
}

}  // namespace impetus::tree
