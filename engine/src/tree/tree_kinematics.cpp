#include "impetus/tree/tree_kinematics.h"

#include <stdexcept>
#include <string>

namespace impetus::tree {

TreeKinematics::TreeKinematics(const KinematicTree& tree)
    : tree_(&tree),
      links_(static_cast<size_t>(tree.size())),
      q_(VectorX::Zero(tree.size())),
      qd_(VectorX::Zero(tree.size())),
      inSubtree_(static_cast<size_t>(tree.size()), 0) {}

void TreeKinematics::update(const VectorX& q, const VectorX& qd) {
  if (q.size() != tree_->size() || qd.size() != tree_->size())
    throw std::invalid_argument("TreeKinematics: q and q' must have one entry per link");
  q_ = q;
  qd_ = qd;
  forward(true);
}

void TreeKinematics::updatePositions(const VectorX& q) {
  if (q.size() != tree_->size())
    throw std::invalid_argument("TreeKinematics: q must have one entry per link");
  q_ = q;
  qd_.setZero();
  forward(false);
}

void TreeKinematics::updateSubtreePositions(const VectorX& q, int root) {
  if (q.size() != tree_->size())
    throw std::invalid_argument("TreeKinematics: q must have one entry per link");
  if (root < 0 || root >= tree_->size())
    throw std::invalid_argument("TreeKinematics: no link " + std::to_string(root));
  // Links are numbered parents first, so a subtree's links all follow its root.
  inSubtree_.assign(inSubtree_.size(), 0);
  inSubtree_[static_cast<size_t>(root)] = 1;
  for (int i = root; i < tree_->size(); ++i) {
    const int parent = tree_->parent(i);
    if (i != root && (parent < root || !inSubtree_[static_cast<size_t>(parent)])) continue;
    inSubtree_[static_cast<size_t>(i)] = 1;
    q_[i] = q[i];
    qd_[i] = 0.0;
    pose(i);
    links_[static_cast<size_t>(i)].angularVelocity.setZero();
    links_[static_cast<size_t>(i)].originVelocity.setZero();
  }
}

void TreeKinematics::pose(int i) {
  const TreeLink& l = tree_->link(i);
  LinkState& s = links_[static_cast<size_t>(i)];
  Mat3 parentRotation = Mat3::Identity();
  Vec3 parentOrigin = Vec3::Zero();
  if (l.parent >= 0) {
    const LinkState& p = links_[static_cast<size_t>(l.parent)];
    parentRotation = p.rotation;
    parentOrigin = p.origin;
  }
  const double qi = q_[i];
  const Mat3 placement = parentRotation * l.placementRotation;
  s.axis = placement * l.axis;
  s.origin = parentOrigin + parentRotation * l.placementOffset;
  if (l.joint == TreeJointType::Revolute) {
    s.rotation = placement * Eigen::AngleAxisd(qi, l.axis).toRotationMatrix();
  } else {
    s.rotation = placement;
    s.origin += s.axis * qi;
  }
  s.centreOfMass = s.origin + s.rotation * l.centreOfMass;
  s.inertia = s.rotation * l.inertia * s.rotation.transpose();
}

void TreeKinematics::forward(bool withVelocities) {
  for (int i = 0; i < tree_->size(); ++i) {
    pose(i);
    const TreeLink& l = tree_->link(i);
    LinkState& s = links_[static_cast<size_t>(i)];
    if (!withVelocities) {
      s.angularVelocity.setZero();
      s.originVelocity.setZero();
      continue;
    }
    Vec3 parentOrigin = Vec3::Zero(), parentW = Vec3::Zero(), parentV = Vec3::Zero();
    if (l.parent >= 0) {
      const LinkState& p = links_[static_cast<size_t>(l.parent)];
      parentOrigin = p.origin;
      parentW = p.angularVelocity;
      parentV = p.originVelocity;
    }
    // Seed 004's forward recursion: w_i = w_f(i) + k_i q'_i (revolute), v_i = v_f(i) + w x r
    // (+ k_i q'_i, prismatic).
    const double rate = qd_[i];
    s.angularVelocity = parentW;
    s.originVelocity = parentV + parentW.cross(s.origin - parentOrigin);
    if (l.joint == TreeJointType::Revolute)
      s.angularVelocity += s.axis * rate;
    else
      s.originVelocity += s.axis * rate;
  }
}

Vec3 TreeKinematics::pointPosition(int i, const Vec3& local) const {
  const LinkState& s = link(i);
  return s.origin + s.rotation * local;
}

Vec3 TreeKinematics::pointVelocity(int i, const Vec3& worldPoint) const {
  const LinkState& s = link(i);
  return s.originVelocity + s.angularVelocity.cross(worldPoint - s.origin);
}

void TreeKinematics::pointJacobian(int i, const Vec3& worldPoint, Jacobian6& jacobian) const {
  jacobian.setZero(6, tree_->size());
  for (int j = i; j >= 0; j = tree_->parent(j)) {
    const LinkState& s = link(j);
    if (tree_->link(j).joint == TreeJointType::Revolute) {
      jacobian.col(j).head<3>() = s.axis;
      jacobian.col(j).tail<3>() = s.axis.cross(worldPoint - s.origin);
    } else {
      jacobian.col(j).tail<3>() = s.axis;
    }
  }
}

Vec3 TreeKinematics::centreOfMass() const {
  Vec3 sum = Vec3::Zero();
  double mass = 0.0;
  for (int i = 0; i < tree_->size(); ++i) {
    sum += tree_->link(i).mass * link(i).centreOfMass;
    mass += tree_->link(i).mass;
  }
  return mass > 0.0 ? Vec3(sum / mass) : Vec3::Zero();
}

Vec3 TreeKinematics::linearMomentum() const {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < tree_->size(); ++i)
    p += tree_->link(i).mass * pointVelocity(i, link(i).centreOfMass);
  return p;
}

Vec3 TreeKinematics::angularMomentum(const Vec3& about) const {
  Vec3 h = Vec3::Zero();
  for (int i = 0; i < tree_->size(); ++i) {
    const LinkState& s = link(i);
    const Vec3 vc = pointVelocity(i, s.centreOfMass);
    h += s.inertia * s.angularVelocity + (s.centreOfMass - about).cross(tree_->link(i).mass * vc);
  }
  return h;
}

Vec3 TreeKinematics::centreOfMass(std::span<const int> links) const {
  Vec3 sum = Vec3::Zero();
  double mass = 0.0;
  for (const int i : links) {
    sum += tree_->link(i).mass * link(i).centreOfMass;
    mass += tree_->link(i).mass;
  }
  return mass > 0.0 ? Vec3(sum / mass) : Vec3::Zero();
}

Vec3 TreeKinematics::linearMomentum(std::span<const int> links) const {
  Vec3 p = Vec3::Zero();
  for (const int i : links) p += tree_->link(i).mass * pointVelocity(i, link(i).centreOfMass);
  return p;
}

Vec3 TreeKinematics::angularMomentum(const Vec3& about, std::span<const int> links) const {
  Vec3 h = Vec3::Zero();
  for (const int i : links) {
    const LinkState& s = link(i);
    const Vec3 vc = pointVelocity(i, s.centreOfMass);
    h += s.inertia * s.angularVelocity + (s.centreOfMass - about).cross(tree_->link(i).mass * vc);
  }
  return h;
}

double TreeKinematics::kineticEnergy() const {
  double t = 0.0;
  for (int i = 0; i < tree_->size(); ++i) {
    const LinkState& s = link(i);
    const Vec3 vc = pointVelocity(i, s.centreOfMass);
    t += 0.5 * (tree_->link(i).mass * vc.squaredNorm() +
                s.angularVelocity.dot(s.inertia * s.angularVelocity));
  }
  return t;
}

}  // namespace impetus::tree
