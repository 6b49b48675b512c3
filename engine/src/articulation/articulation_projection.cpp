// Projection of a rows-stepped tree's integrated poses onto its joints, solved in the tree's
// joint coordinates (WorldSettings::projectTreesInJointSpace): Newton's method on the distance,
// in the bodies' mass metric, between the poses the joint coordinates give (forward kinematics)
// and the integrated ones.
#include <algorithm>
#include <cmath>

#include "articulation.h"

namespace impetus {
namespace {

/// Halvings of a Newton step before the projection gives up improving.
constexpr int kMaxStepHalvings = 30;

/// Rotation vector of R_target R^T for the small turns left between a body and its pose on the
/// joints (the antisymmetric part's axial vector: exact to the third order in the angle).
Vec3 smallTurn(const Mat3& target, const Mat3& rotation) {
  const Mat3 turn = target * rotation.transpose();
  return 0.5 * Vec3(turn(2, 1) - turn(1, 2), turn(0, 2) - turn(2, 0), turn(1, 0) - turn(0, 1));
}

}  // namespace

double Articulation::distanceToBodies(std::span<const RigidBody> bodies) const {
  double sum = 0.0;
  for (const Link& l : links_) {
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Vec3 turnInBody = l.rotation.transpose() * smallTurn(b.rotation, l.rotation);
    sum += l.mass * (b.position - l.worldPosition).squaredNorm() +
           turnInBody.dot(l.inertia * turnInBody);
  }
  return 0.5 * sum;
}

bool Articulation::projectionStep(std::span<const RigidBody> bodies) {
  // Each link's offset from its integrated pose as a spatial force about motionOrigin_ in the
  // mass metric, f = [I dtheta + r x F; F], F = m (c* - c): the distance's gradient is -J^T f.
  // Its Hessian is H = J^T M J (the joint-space inertia) plus the forces' geometric stiffness:
  // holding F, turning joint i moves the arm r - o_j of every offset below a deeper joint j,
  // d2 Phi / dq_i dq_j = s_i^T K s_j with K = [(r . F) 1 - r F^T, [F]x; 0, 0] summed over the
  // links below j (s = [u; o x u], i an ancestor of j). That is J^T M J's form with each link's
  // inertia plus its K, so the articulated-body recursion solves it in linear time. A long
  // chain's offsets sum to a tension down the chain; without K (Gauss-Newton) the step
  // overshoots along it and converges linearly - chain100's whip took ~21 steps, now ~6.
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Vec3 force = l.mass * (b.position - l.worldPosition);
    const Vec3 moment =
        l.rotation * (l.inertia * (l.rotation.transpose() * smallTurn(b.rotation, l.rotation)));
    const Vec3 r = l.worldPosition - motionOrigin_;
    linkForces_[i] = spatialVector(moment + r.cross(force), force);
    Mat6& k = offsetStiffness_[i];
    k.setZero();
    k.topLeftCorner<3, 3>() = r.dot(force) * Mat3::Identity() - r * force.transpose();
    k.topRightCorner<3, 3>() = skew(force);
  }
  if (!articulatedSolve(nullptr, linkForces_, 0.0, momentum_.data(), offsetStiffness_))
    return false;
  // Far from the nearest pose (offsets pushing links together) K may make the step climb:
  // Gauss-Newton's step, always downhill, then.
  double slope = 0.0;  // -dPhi along the step: the links' motions against their offset forces
  for (size_t i = 0; i < links_.size(); ++i) slope += aba_[i].acceleration.dot(linkForces_[i]);
  if (slope > 0.0) return true;
  return articulatedSolve(nullptr, linkForces_, 0.0, momentum_.data());
}

int Articulation::projectOntoJoints(std::span<RigidBody> bodies, int maxIterations,
                                    double tolerance) {
  if (!fixedBase()) return -1;
  readConfiguration(bodies);
  motionOrigin_ = links_[0].worldPosition;
  double distance = distanceToBodies(bodies);
  int iterations = 0;
  while (iterations < maxIterations) {
    if (!projectionStep(bodies)) return -1;
    ++iterations;
    for (size_t i = 0; i < links_.size(); ++i) {
      stepStartAngle_[i] = links_[i].angle;
      stepStartRelative_[i] = links_[i].relative;
    }
    // Halved until the distance does not grow (far from the nearest pose the linearisation
    // overstates what a turn near the root does at the tip).
    double scale = 1.0, largest = 0.0, trial = distance;
    for (int halving = 0; halving <= kMaxStepHalvings; ++halving, scale *= 0.5) {
      largest = 0.0;
      for (size_t i = 0; i < links_.size(); ++i) {
        Link& l = links_[i];
        if (l.joint == LinkJoint::Revolute) {
          const double step = scale * momentum_[l.dof];
          l.angle = stepStartAngle_[i] + step;
          largest = std::max(largest, std::abs(step));
        } else {  // spherical (the base is fixed: no free link)
          const Vec3 step = scale * momentum_.segment<3>(l.dof);
          l.relative = (stepStartRelative_[i] * rotationFromVector(step)).normalized();
          largest = std::max(largest, step.norm());
        }
      }
      updatePoses(bodies);
      trial = distanceToBodies(bodies);
      if (trial <= distance) break;
    }
    if (!std::isfinite(trial)) return -1;
    distance = trial;
    if (largest <= tolerance) break;
  }
  // The poses to the bodies; each keeps its body-frame momentum (its angular momentum turns
  // with it, as World::moveBody's corrections do), so the projection adds no kinetic energy.
  for (const Link& l : links_) {
    RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Mat3 turn = l.rotation * b.rotation.transpose();
    b.orientation = (parentOrientation(l, bodies) * relativeRotation(l)).normalized();
    b.rotation = l.rotation;
    b.position = l.worldPosition;
    b.angularMomentum = turn * b.angularMomentum;
    b.inverseInertiaWorld = b.inverseInertiaAt(l.rotation);
    b.angularVelocity = b.inverseInertiaWorld * b.angularMomentum;
  }
  return iterations;
}

}  // namespace impetus
