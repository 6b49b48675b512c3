#include "impetus/tree/tree_from_world.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <Eigen/LU>

namespace impetus::tree {
namespace {

/// Adds a body's mass properties (centre and inertia in the link frame) to a link.
void addMass(TreeLink& link, double mass, const Vec3& centre, const Mat3& inertia) {
  const double total = link.mass + mass;
  if (total <= 0.0) return;
  const Vec3 c = (link.mass * link.centreOfMass + mass * centre) / total;
  const auto shifted = [&](double m, const Vec3& at) {
    const Vec3 d = at - c;
    return Mat3(m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose()));
  };
  link.inertia =
      link.inertia + shifted(link.mass, link.centreOfMass) + inertia + shifted(mass, centre);
  link.centreOfMass = c;
  link.mass = total;
}

/// Angles (a, b, c) with R = Rx(a) Ry(b) Rz(c), principal branch near zero.
Vec3 anglesXyz(const Mat3& r) {
  return Vec3(std::atan2(-r(1, 2), r(2, 2)), std::asin(std::clamp(r(0, 2), -1.0, 1.0)),
              std::atan2(-r(0, 1), r(0, 0)));
}

/// Angle a with R = Rx(a): the twist of a revolute joint about its x axis.
double angleX(const Mat3& r) {
  return std::atan2(r(2, 1), r(1, 1));
}

/// Angles (yaw, pitch, roll) with R = Rz(yaw) Ry(pitch) Rx(roll).
Vec3 anglesZyx(const Mat3& r) {
  return Vec3(std::atan2(r(1, 0), r(0, 0)), std::asin(std::clamp(-r(2, 0), -1.0, 1.0)),
              std::atan2(r(2, 1), r(2, 2)));
}

class Builder {
 public:
  explicit Builder(const World& world) : world_(world) {
    const auto bodies = static_cast<size_t>(world.bodyCount());
    const auto joints = static_cast<size_t>(world.jointCount());
    wt_.bodyLink.assign(bodies, -2);  // -2: not reached yet
    wt_.bodyRotation.assign(bodies, Mat3::Identity());
    wt_.bodyOffset.assign(bodies, Vec3::Zero());
    wt_.floatingBaseFirstLink.assign(bodies, -1);
    wt_.jointFirstLink.assign(joints, -1);
    wt_.jointLinkCount.assign(joints, 0);
  }

  WorldTree build() {
    // The root: every body that does not move under forces, placed where it is.
    for (BodyId b = 0; b < world_.bodyCount(); ++b) {
      const RigidBody& body = world_.body(b);
      if (body.isDynamic()) continue;
      wt_.bodyLink[static_cast<size_t>(b)] = -1;
      wt_.bodyRotation[static_cast<size_t>(b)] = body.rotation;
      wt_.bodyOffset[static_cast<size_t>(b)] = body.position;
    }
    for (BodyId b = 0; b < world_.bodyCount(); ++b)
      if (!world_.body(b).isDynamic()) descend(b);
    // Free bodies (no joint leads to them), then whatever only a loop reaches.
    for (int pass = 0; pass < 2; ++pass) {
      for (BodyId b = 0; b < world_.bodyCount(); ++b) {
        if (wt_.bodyLink[static_cast<size_t>(b)] != -2) continue;
        if (pass == 0 && isJointChild(b)) continue;
        addFloating(b);
        descend(b);
      }
    }
    return std::move(wt_);
  }

 private:
  bool isJointChild(BodyId b) const {
    for (int j = 0; j < world_.jointCount(); ++j)
      if (world_.joint(j).child() == b) return true;
    return false;
  }

  void addFloating(BodyId b) {
    const RigidBody& body = world_.body(b);
    const int first = wt_.tree.size();
    const int link = addFloatingBase(wt_.tree, body.name, -1, body.mass, body.inertiaBody);
    wt_.floatingBaseFirstLink[static_cast<size_t>(b)] = first;
    wt_.bodyLink[static_cast<size_t>(b)] = link;  // link frame = body frame at q = 0
    // At q = 0 the base sits at the world origin unrotated; its coordinates carry the pose.
  }

  void descend(BodyId parentBody) {
    for (int j = 0; j < world_.jointCount(); ++j) {
      const Joint& joint = world_.joint(j);
      if (joint.parent() != parentBody) continue;
      const BodyId child = joint.child();
      if (wt_.bodyLink[static_cast<size_t>(child)] != -2) {
        wt_.loopClosures.push_back(j);
        continue;
      }
      attach(j, joint);
      descend(child);
    }
  }

  /// Makes the links of joint j and places its child body on the last of them.
  void attach(int j, const Joint& joint) {
    const auto pb = static_cast<size_t>(joint.parent());
    const auto cb = static_cast<size_t>(joint.child());
    const int parentLink = wt_.bodyLink[pb];
    const Mat3& parentRotation = wt_.bodyRotation[pb];
    // The joint frame on the parent, in the parent link's frame.
    const Mat3 frameA = joint.frameInParent().orientation.toRotationMatrix();
    const Mat3 frameB = joint.frameInChild().orientation.toRotationMatrix();
    const Vec3 offset = parentRotation * joint.frameInParent().anchor + wt_.bodyOffset[pb];
    const Mat3 rotation = parentRotation * frameA;
    const RigidBody& body = world_.body(joint.child());

    struct Dof {
      TreeJointType type;
      Vec3 axis;
    };
    std::vector<Dof> dofs;
    switch (joint.type()) {
      case JointType::Fixed:
      case JointType::Beam:  // a kinematic model takes the beam as rigid
        break;
      case JointType::Revolute:
        dofs = {{TreeJointType::Revolute, Vec3::UnitX()}};
        break;
      case JointType::Prismatic:
        dofs = {{TreeJointType::Prismatic, Vec3::UnitX()}};
        break;
      case JointType::Cylindrical:
        dofs = {{TreeJointType::Prismatic, Vec3::UnitX()},
                {TreeJointType::Revolute, Vec3::UnitX()}};
        break;
      case JointType::Universal:
        dofs = {{TreeJointType::Revolute, Vec3::UnitX()}, {TreeJointType::Revolute, Vec3::UnitY()}};
        break;
      case JointType::Spherical:
        dofs = {{TreeJointType::Revolute, Vec3::UnitX()},
                {TreeJointType::Revolute, Vec3::UnitY()},
                {TreeJointType::Revolute, Vec3::UnitZ()}};
        break;
    }
    // Body frame in the joint frame on the child: x_joint = frameB^T (x_body - anchorB).
    const Mat3 bodyInJoint = frameB.transpose();
    const Vec3 bodyOffsetInJoint = -frameB.transpose() * joint.frameInChild().anchor;
    if (dofs.empty()) {
      // Fixed: the child rides on the parent's link, through the coinciding joint frames.
      wt_.bodyLink[cb] = parentLink;
      wt_.bodyRotation[cb] = rotation * bodyInJoint;
      wt_.bodyOffset[cb] = offset + rotation * bodyOffsetInJoint;
      if (parentLink >= 0 && body.isDynamic())
        addMass(wt_.tree.link(parentLink), body.mass, wt_.bodyOffset[cb],
                wt_.bodyRotation[cb] * body.inertiaBody * wt_.bodyRotation[cb].transpose());
      return;
    }
    int last = parentLink;
    wt_.jointFirstLink[static_cast<size_t>(j)] = wt_.tree.size();
    wt_.jointLinkCount[static_cast<size_t>(j)] = static_cast<int>(dofs.size());
    for (size_t k = 0; k < dofs.size(); ++k) {
      TreeLink l;
      l.name = dofs.size() == 1 ? joint.name() : joint.name() + "." + std::to_string(k);
      l.parent = last;
      l.joint = dofs[k].type;
      l.axis = dofs[k].axis;
      if (k == 0) {
        l.placementOffset = offset;
        l.placementRotation = rotation;
      }
      if (dofs.size() == 1 && joint.limit.enabled) {
        l.lower = joint.limit.lower;
        l.upper = joint.limit.upper;
      }
      if (k + 1 == dofs.size()) {
        l.mass = body.mass;
        l.centreOfMass = bodyOffsetInJoint;
        l.inertia = bodyInJoint * body.inertiaBody * bodyInJoint.transpose();
      }
      last = wt_.tree.addLink(std::move(l));
    }
    wt_.bodyLink[cb] = last;
    wt_.bodyRotation[cb] = bodyInJoint;
    wt_.bodyOffset[cb] = bodyOffsetInJoint;
  }

  const World& world_;
  WorldTree wt_;
};

/// Solves w = sum_k axis_k rate_k for the rates of up to three revolute DOF.
Vec3 ratesFromAngularVelocity(const Mat3& axes, const Vec3& w) {
  return axes.fullPivLu().solve(w);
}

}  // namespace

int WorldTree::linkOfJoint(int worldJoint) const {
  const auto j = static_cast<size_t>(worldJoint);
  if (j >= jointFirstLink.size() || jointLinkCount[j] == 0) return -1;
  // Cylindrical joints: the slide is first, the angle (their primary coordinate) second.
  const bool cylindrical =
      jointLinkCount[j] == 2 && tree.link(jointFirstLink[j]).joint == TreeJointType::Prismatic;
  return jointFirstLink[j] + (cylindrical ? 1 : 0);
}

WorldTree treeFromWorld(const World& world) {
  return Builder(world).build();
}

void coordinatesFromWorld(const WorldTree& wt, const World& world, VectorX& q, VectorX& qd) {
  q.setZero(wt.tree.size());
  qd.setZero(wt.tree.size());
  const std::span<const RigidBody> bodies = world.bodies();
  // Joints the world gained after the tree was built (a grapple's weld) are not in it.
  const int known = std::min(world.jointCount(), static_cast<int>(wt.jointFirstLink.size()));
  for (int j = 0; j < known; ++j) {
    const int first = wt.jointFirstLink[static_cast<size_t>(j)];
    const int count = wt.jointLinkCount[static_cast<size_t>(j)];
    if (count == 0) continue;
    const Joint& joint = world.joint(j);
    const JointPose p = joint.pose(bodies);
    const RigidBody& a = world.body(joint.parent());
    const RigidBody& b = world.body(joint.child());
    const Mat3 relative = p.frameA.transpose() * p.frameB;
    const Vec3 relativeW = p.frameA.transpose() * (b.angularVelocity - a.angularVelocity);
    const Vec3 separation = p.anchorB - p.anchorA;
    // d/dt (x_A . d) = x_A . (v_B - v_A at the anchors) + (w_A x x_A) . d
    const Vec3 slideRate =
        p.frameA.transpose() * (b.pointVelocity(p.anchorB) - a.pointVelocity(p.anchorA) -
                                a.angularVelocity.cross(separation));
    const Vec3 slide = p.frameA.transpose() * separation;
    switch (joint.type()) {
      case JointType::Revolute:
        q[first] = angleX(relative);
        // Keep the unwrapped branch the joint tracks.
        q[first] += 2.0 * std::numbers::pi *
                    std::round((joint.position() - q[first]) / (2.0 * std::numbers::pi));
        qd[first] = relativeW.x();
        break;
      case JointType::Prismatic:
        q[first] = slide.x();
        qd[first] = slideRate.x();
        break;
      case JointType::Cylindrical:
        q[first] = slide.x();
        qd[first] = slideRate.x();
        q[first + 1] = angleX(relative);
        qd[first + 1] = relativeW.x();
        break;
      case JointType::Universal: {
        // R = Rx(a) Ry(b); atan2 for b keeps the whole circle (no third angle to share it with).
        const double ax = std::atan2(-relative(1, 2), relative(2, 2));
        q[first] = ax;
        q[first + 1] = std::atan2(relative(0, 2), relative(0, 0));
        const Vec3 yAxis = Eigen::AngleAxisd(ax, Vec3::UnitX()) * Vec3::UnitY();
        Eigen::Matrix<double, 3, 2> axes;
        axes << Vec3::UnitX(), yAxis;
        const Eigen::Vector2d rates = axes.colPivHouseholderQr().solve(relativeW);
        qd[first] = rates.x();
        qd[first + 1] = rates.y();
        break;
      }
      case JointType::Spherical: {
        const Vec3 angles = anglesXyz(relative);
        Mat3 axes;
        axes.col(0) = Vec3::UnitX();
        axes.col(1) = Eigen::AngleAxisd(angles.x(), Vec3::UnitX()) * Vec3::UnitY();
        axes.col(2) = Eigen::AngleAxisd(angles.x(), Vec3::UnitX()) *
                      (Eigen::AngleAxisd(angles.y(), Vec3::UnitY()) * Vec3::UnitZ());
        q.segment<3>(first) = angles;
        qd.segment<3>(first) = ratesFromAngularVelocity(axes, relativeW);
        break;
      }
      case JointType::Fixed:
      case JointType::Beam:
        break;
    }
  }
  for (BodyId bi = 0; bi < world.bodyCount(); ++bi) {
    const int first = wt.floatingBaseFirstLink[static_cast<size_t>(bi)];
    if (first < 0) continue;
    const RigidBody& b = world.body(bi);
    const Vec3 angles = anglesZyx(b.rotation);
    q.segment<3>(first) = b.position;
    q.segment<3>(first + 3) = angles;
    qd.segment<3>(first) = b.linearVelocity;
    Mat3 axes;
    const Mat3 yaw = Eigen::AngleAxisd(angles.x(), Vec3::UnitZ()).toRotationMatrix();
    const Mat3 pitch = Eigen::AngleAxisd(angles.y(), Vec3::UnitY()).toRotationMatrix();
    axes.col(0) = Vec3::UnitZ();
    axes.col(1) = yaw * Vec3::UnitY();
    axes.col(2) = yaw * pitch * Vec3::UnitX();
    qd.segment<3>(first + 3) = ratesFromAngularVelocity(axes, b.angularVelocity);
  }
}

void applyToWorld(const WorldTree& wt, const TreeKinematics& kinematics, World& world) {
  for (BodyId bi = 0; bi < world.bodyCount(); ++bi) {
    RigidBody& b = world.body(bi);
    const int link = wt.bodyLink[static_cast<size_t>(bi)];
    if (!b.isDynamic() || link < 0) continue;
    const LinkState& s = kinematics.link(link);
    const Mat3 rotation = s.rotation * wt.bodyRotation[static_cast<size_t>(bi)];
    b.position = s.origin + s.rotation * wt.bodyOffset[static_cast<size_t>(bi)];
    b.orientation = Quat(rotation).normalized();
    b.linearVelocity = kinematics.pointVelocity(link, b.position);
    b.updateDerived();
    b.setAngularVelocity(s.angularVelocity);
  }
  world.updateDerived();
  for (int j = 0; j < world.jointCount(); ++j) world.joint(j).updateCoordinates(world.bodies());
}

}  // namespace impetus::tree
