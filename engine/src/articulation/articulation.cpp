#include "articulation.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "impetus/joints/joint.h"

namespace impetus {
namespace {

/// Rotation child -> parent of a revolute joint at angle theta: Q_P Rot(x, theta) Q_C^-1.
Quat hingeRotation(const Quat& frameInParent, const Quat& frameInChild, double theta) {
  const Quat twist(Eigen::AngleAxisd(theta, Vec3::UnitX()));
  return frameInParent * twist * frameInChild.conjugate();
}

}  // namespace

Articulation::Articulation(std::vector<ArticulationLinkDesc> links,
                           std::span<const RigidBody> bodies) {
  links_.reserve(links.size());
  linkOfBody_.assign(bodies.size(), -1);
  for (size_t i = 0; i < links.size(); ++i) {
    const ArticulationLinkDesc& d = links[i];
    if (d.parent >= static_cast<int>(i))
      throw std::invalid_argument("articulation: link " + std::to_string(i) +
                                  " listed before its parent");
    if (d.joint != LinkJoint::Free && d.source == nullptr)
      throw std::invalid_argument("articulation: a jointed link without its joint");
    Link l;
    l.body = d.body;
    l.parent = d.parent;
    l.joint = d.joint;
    l.staticParent = d.staticParent;
    l.source = d.source;
    l.dof = dof_;
    l.dofCount = d.joint == LinkJoint::Free ? 6 : d.joint == LinkJoint::Spherical ? 3 : 1;
    const RigidBody& b = bodies[static_cast<size_t>(d.body)];
    l.mass = b.mass;
    l.inertia = b.inertiaBody;
    l.stepInertia = b.inertiaBody;
    if (d.source != nullptr) {
      l.anchorInParent = d.source->frameInParent().anchor;
      l.anchorInChild = d.source->frameInChild().anchor;
      l.frameInParent = d.source->frameInParent().orientation;
      l.frameInChild = d.source->frameInChild().orientation;
    }
    // S in the child's frame: a rotation about the anchor moves the child's centre of mass by
    // w x (0 - a_C) = a_C x w.
    switch (d.joint) {
      case LinkJoint::Free:
        l.motionSubspace.setIdentity();
        break;
      case LinkJoint::Spherical:
        l.motionSubspace.block<3, 3>(0, 0).setIdentity();
        l.motionSubspace.block<3, 3>(3, 0) = skew(l.anchorInChild);
        break;
      case LinkJoint::Revolute: {
        const Vec3 axis = l.frameInChild * Vec3::UnitX();
        l.motionSubspace.block<3, 1>(0, 0) = axis;
        l.motionSubspace.block<3, 1>(3, 0) = l.anchorInChild.cross(axis);
        break;
      }
    }
    // The path: the parent's path (parents are listed first), then the link's own DOFs.
    pathBegin_.push_back(static_cast<int>(pathDofs_.size()));
    if (d.parent >= 0) {
      l.pathOffset =
          pathBegin_[static_cast<size_t>(d.parent) + 1] - pathBegin_[static_cast<size_t>(d.parent)];
      for (int k = pathBegin_[static_cast<size_t>(d.parent)];
           k < pathBegin_[static_cast<size_t>(d.parent) + 1]; ++k) {
        const int dof = pathDofs_[static_cast<size_t>(k)];
        pathDofs_.push_back(dof);
      }
    }
    for (int k = 0; k < l.dofCount; ++k) {
      pathDofs_.push_back(dof_ + k);
      dofLink_.push_back(static_cast<int>(i));
      factorStart_.push_back(static_cast<int>(factor_.size()));
      // Padded to a multiple of 4: factorise updates a row in whole 4-wide vectors.
      factor_.resize(factor_.size() + static_cast<size_t>(l.pathOffset + k + 3) / 4 * 4, 0.0);
    }
    pathBegin_.push_back(static_cast<int>(pathDofs_.size()));  // the end, until the next link's
    depth_ = std::max(depth_, pathBegin_.back() - pathBegin_[i]);
    pathBegin_.pop_back();
    dof_ += l.dofCount;
    linkOfBody_[static_cast<size_t>(d.body)] = static_cast<int>(i);
    bodyIds_.push_back(d.body);
    links_.push_back(l);
  }
  pathBegin_.push_back(static_cast<int>(pathDofs_.size()));
  qd_ = Eigen::VectorXd::Zero(dof_);
  pivotInverseRoot_ = Eigen::VectorXd::Zero(dof_);
  pivot_ = Eigen::VectorXd::Zero(dof_);
  momentum_ = Eigen::VectorXd::Zero(dof_);
  composite_.resize(links_.size());
  worldMotion_.resize(static_cast<size_t>(dof_));
  momentumAbout_.resize(links_.size());
  inputMomentum_.resize(links_.size());
  finalVelocity_.resize(links_.size());
  aba_.resize(links_.size());
  offsetStiffness_.resize(links_.size());
  offsets_.resize(links_.size());
  targetRotation_.resize(links_.size());
  targetPosition_.resize(links_.size());
  linkInertia_.resize(links_.size());
  linkArm_.resize(links_.size());
  hingeAba_.resize(links_.size());
  driftVelocity_.resize(links_.size());
  hingeFrames_.resize(links_.size());
  hingeCos_.resize(links_.size());
  hingeSin_.resize(links_.size());
  stepStartCos_.resize(links_.size());
  stepStartSin_.resize(links_.size());
  hingesOnly_ = true;
  for (size_t i = 0; i < links_.size(); ++i) {
    Link& l = links_[i];
    hingesOnly_ = hingesOnly_ && l.joint == LinkJoint::Revolute;
    const Mat3 offDiagonal = l.inertia - Mat3(l.inertia.diagonal().asDiagonal());
    l.principalInertia = offDiagonal == Mat3::Zero();
    // Q_P Rx(theta) Q_C^T = A [b0; c b1 - s b2; s b1 + c b2] (A = Q_P, b_k the rows of Q_C^T)
    // = a0 b0^T + c (a1 b1^T + a2 b2^T) + s (a2 b1^T - a1 b2^T), a_k A's columns.
    const Mat3 a = l.frameInParent.toRotationMatrix();
    const Mat3 b = l.frameInChild.toRotationMatrix().transpose();
    HingeFrames& f = hingeFrames_[i];
    f.fixed = a.col(0) * b.row(0);
    f.cosine = a.col(1) * b.row(1) + a.col(2) * b.row(2);
    f.sine = a.col(2) * b.row(1) - a.col(1) * b.row(2);
    f.fixedArm = f.fixed * l.anchorInChild;
    f.cosineArm = f.cosine * l.anchorInChild;
    f.sineArm = f.sine * l.anchorInChild;
    f.parentY = a.col(1);
    f.parentZ = a.col(2);
    f.childY = b.row(1).transpose();
    f.childZ = b.row(2).transpose();
  }
  linkForces_.resize(links_.size());
  startAngle_.resize(links_.size());
  startRelative_.resize(links_.size());
  stepStartAngle_.resize(links_.size());
  stepStartRelative_.resize(links_.size());
  initialRates_ = Eigen::VectorXd::Zero(dof_);
  for (Eigen::VectorXd& r : stageRates_) r = Eigen::VectorXd::Zero(dof_);
  stageAcceleration_ = rateSum_ = accelerationSum_ = Eigen::VectorXd::Zero(dof_);
  readConfiguration(bodies);
}

int Articulation::linkOf(BodyId body) const {
  if (body < 0 || static_cast<size_t>(body) >= linkOfBody_.size()) return -1;
  return linkOfBody_[static_cast<size_t>(body)];
}

void Articulation::staticParentPose(const Link& link, std::span<const RigidBody> bodies,
                                    Mat3& rotation, Vec3& position) const {
  if (link.staticParent < 0) {
    rotation.setIdentity();
    position.setZero();
    return;
  }
  const RigidBody& p = bodies[static_cast<size_t>(link.staticParent)];
  rotation = p.rotation;
  position = p.position;
}

void Articulation::parentPose(const Link& link, std::span<const RigidBody> bodies, Mat3& rotation,
                              Vec3& position) const {
  if (link.parent < 0) {
    staticParentPose(link, bodies, rotation, position);
    return;
  }
  const Link& p = links_[static_cast<size_t>(link.parent)];
  rotation = p.rotation;
  position = p.worldPosition;
}

Quat Articulation::parentOrientation(const Link& link, std::span<const RigidBody> bodies) const {
  if (link.parent >= 0)
    return bodies[static_cast<size_t>(links_[static_cast<size_t>(link.parent)].body)].orientation;
  if (link.staticParent >= 0) return bodies[static_cast<size_t>(link.staticParent)].orientation;
  return Quat::Identity();
}

Quat Articulation::relativeRotation(const Link& link) const {
  return link.joint == LinkJoint::Revolute
             ? hingeRotation(link.frameInParent, link.frameInChild, link.angle)
             : link.relative;
}

double Articulation::hingeAngle(const Link& l, const Quat& relative) const {
  // The twist of the joint frames about their x axis (RevoluteJoint::measureCoordinate),
  // unwrapped to the joint's continuous coordinate.
  const Quat frames = l.frameInParent.conjugate() * relative * l.frameInChild;
  return unwrappedAngle(l, 2.0 * std::atan2(frames.x(), frames.w()));
}

double Articulation::unwrappedAngle(const Link& l, double raw) const {
  const double twoPi = 2.0 * std::numbers::pi;
  return raw + twoPi * std::round((l.source->position() - raw) / twoPi);
}

Mat3 Articulation::worldInertia(const Link& l, const Mat3& rotation) const {
  return l.principalInertia ? rotatedDiagonal(rotation, l.inertia.diagonal())
                            : Mat3(rotation * l.inertia * rotation.transpose());
}

void Articulation::readConfiguration(std::span<const RigidBody> bodies) {
  for (Link& l : links_) {
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    if (l.joint == LinkJoint::Free) {
      l.position = b.position;
      l.orientation = b.orientation;
      continue;
    }
    const Quat relative = (parentOrientation(l, bodies).conjugate() * b.orientation).normalized();
    if (l.joint == LinkJoint::Spherical) {
      l.relative = relative;
    } else {
      // The twist of the joint frames about their x axis (RevoluteJoint::measureCoordinate),
      // unwrapped to the joint's continuous coordinate.
      l.angle = hingeAngle(l, relative);
    }
  }
  updatePoses(bodies);
}

void Articulation::updatePoses(std::span<const RigidBody> bodies) {
  for (Link& l : links_) {
    if (l.joint == LinkJoint::Free) {
      l.rotation = l.orientation.toRotationMatrix();
      l.worldPosition = l.position;
      continue;
    }
    Mat3 parentRotation;
    Vec3 parentPosition;
    parentPose(l, bodies, parentRotation, parentPosition);
    const Mat3 relative = relativeRotation(l).toRotationMatrix();
    l.rotation = parentRotation * relative;
    l.parentToChild = relative.transpose();
    l.childOrigin = l.anchorInParent - relative * l.anchorInChild;
    l.worldPosition = parentPosition + parentRotation * l.childOrigin;
  }
}

void Articulation::updateTwists() {
  for (Link& l : links_) {
    Vec6 twist = Vec6::Zero();
    if (l.parent >= 0) {
      const Vec6& p = links_[static_cast<size_t>(l.parent)].twist;
      const Vec3 w = p.head<3>(), v = p.tail<3>();
      twist.head<3>() = l.parentToChild * w;
      twist.tail<3>() = l.parentToChild * (v + w.cross(l.childOrigin));
    }
    // + S q', by joint kind (a fixed-size product each: Eigen's runtime-sized leftCols product
    // cost more than the rest of the pass).
    switch (l.joint) {
      case LinkJoint::Free:
        twist += l.motionSubspace * qd_.segment<6>(l.dof);
        break;
      case LinkJoint::Spherical:
        twist += l.motionSubspace.leftCols<3>() * qd_.segment<3>(l.dof);
        break;
      case LinkJoint::Revolute:
        twist += l.motionSubspace.col(0) * qd_[l.dof];
        break;
    }
    l.twist = twist;
  }
}

void Articulation::finishVelocities() {
  updateTwists();
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    finalVelocity_[i] = spatialVector(l.rotation * l.twist.tail<3>(),
                                      l.rotation * (l.stepInertia * l.twist.head<3>()));
  }
}

void Articulation::jointImpulses(std::span<Vec6> impulses) const {
  // Subtree sums, leaves first: the joint's impulse = momentum change - outside impulses.
  for (size_t i = links_.size(); i-- > 0;) {
    const Link& l = links_[i];
    const Vec3 dp = l.mass * finalVelocity_[i].head<3>() - inputMomentum_[i].tail<3>();
    const Vec3 dl = finalVelocity_[i].tail<3>() - inputMomentum_[i].head<3>();
    impulses[i] = spatialVector(dl + l.worldPosition.cross(dp), dp) - impulses[i];
  }
  // impulses[i] now holds link i's own share; add the children's subtrees (children after
  // parents, so a reverse pass sees every child complete before its parent).
  for (size_t i = links_.size(); i-- > 0;) {
    const int p = links_[i].parent;
    if (p >= 0) impulses[static_cast<size_t>(p)] += impulses[i];
  }
}

void Articulation::integrateAndWrite(double dt, std::span<RigidBody> bodies, const double* pseudo) {
  if (pseudo != nullptr) {  // move with q' + pseudo; the twists (finishVelocities) keep q'
    for (int i = 0; i < dof_; ++i) qd_[i] += pseudo[i];
    updateTwists();
  }
  for (Link& l : links_) {
    switch (l.joint) {
      case LinkJoint::Free:
        l.position += dt * (l.rotation * l.twist.tail<3>());
        l.orientation =
            (l.orientation * rotationFromVector(dt * qd_.segment<3>(l.dof))).normalized();
        break;
      case LinkJoint::Spherical:
        l.relative = (l.relative * rotationFromVector(dt * qd_.segment<3>(l.dof))).normalized();
        break;
      case LinkJoint::Revolute:
        l.angle += dt * qd_[l.dof];
        break;
    }
  }
  updatePoses(bodies);
  writeBodies(bodies);
}

void Articulation::writeBodies(std::span<RigidBody> bodies) const {
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    RigidBody& b = bodies[static_cast<size_t>(l.body)];
    // World orientations composed as quaternions (not from the matrices) so they stay unit.
    Quat orientation = l.orientation;
    if (l.joint != LinkJoint::Free)
      orientation = (parentOrientation(l, bodies) * relativeRotation(l)).normalized();
    b.orientation = orientation;
    b.rotation = l.rotation;
    b.position = l.worldPosition;
    b.linearVelocity = finalVelocity_[i].head<3>();
    b.angularMomentum = finalVelocity_[i].tail<3>();
    b.inverseInertiaWorld = b.inverseInertiaAt(l.rotation);
    b.angularVelocity = b.inverseInertiaWorld * b.angularMomentum;
  }
}

}  // namespace impetus
