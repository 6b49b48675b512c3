// A tree stepped as the rows would with its joints exact (WorldSettings::
// projectTreesInJointSpace), each part by the articulated-body recursion in linear time: the
// bodies' momenta projected onto the joints (projectVelocities), and their integrated poses
// projected onto the joints (projectOntoJoints) - Newton's method on the distance, in the
// bodies' mass metric, between the poses the joint coordinates give (forward kinematics) and
// the integrated ones.
#include <algorithm>
#include <cmath>

#include "articulation.h"
#include "impetus/joints/joint.h"

namespace impetus {
namespace {

/// Halvings of a Newton step before the projection gives up improving.
constexpr int kMaxStepHalvings = 30;

/// cos(x) and sin(x); below 0.1 rad (a Newton step's turn but the first few of a whip) by
/// their series to x^8 and x^9, exact to double precision (the next terms are < 3e-17) and a
/// fraction of a libm call.
void cosineAndSine(double x, double& c, double& s) {
  if (std::abs(x) >= 0.1) {
    c = std::cos(x);
    s = std::sin(x);
    return;
  }
  const double x2 = x * x;
  c = 1.0 + x2 * (-1.0 / 2 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40320))));
  s = x * (1.0 + x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5040 + x2 * (1.0 / 362880)))));
}

}  // namespace

double Articulation::measureOffset(size_t i) {
  // Written out a coordinate at a time, as placeHinges: vectors built from scalars and read
  // back as vectors stalled store forwarding here.
  const Link& l = links_[i];
  const Mat3& target = targetRotation_[i];
  const Mat3& rotation = l.rotation;
  // The rotation vector of T R^T for the small turns left between a body and its pose on the
  // joints (the antisymmetric part's axial vector, exact to the third order in the angle);
  // (T R^T)(a, b) = T.row(a) . R.row(b).
  const auto entry = [&](int a, int b) {
    return target(a, 0) * rotation(b, 0) + target(a, 1) * rotation(b, 1) +
           target(a, 2) * rotation(b, 2);
  };
  const double turn[3] = {0.5 * (entry(2, 1) - entry(1, 2)), 0.5 * (entry(0, 2) - entry(2, 0)),
                          0.5 * (entry(1, 0) - entry(0, 1))};
  const Vec3& targetPosition = targetPosition_[i];
  const double shift[3] = {targetPosition.x() - l.worldPosition.x(),
                           targetPosition.y() - l.worldPosition.y(),
                           targetPosition.z() - l.worldPosition.z()};
  double turnInBody[3];  // R^T turn
  for (int k = 0; k < 3; ++k)
    turnInBody[k] = rotation(0, k) * turn[0] + rotation(1, k) * turn[1] + rotation(2, k) * turn[2];
  double rotational = 0.0;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) rotational += turnInBody[a] * l.inertia(a, b) * turnInBody[b];
  Vec6& offset = offsets_[i];
  for (int k = 0; k < 3; ++k) {
    offset[k] = turn[k];
    offset[3 + k] = shift[k];
  }
  return l.mass * (shift[0] * shift[0] + shift[1] * shift[1] + shift[2] * shift[2]) + rotational;
}

double Articulation::measureOffsets() {
  double sum = 0.0;
  for (size_t i = 0; i < links_.size(); ++i) sum += measureOffset(i);
  return 0.5 * sum;
}

double Articulation::placeHinges(std::span<const RigidBody> bodies, bool measure) {
  // updatePoses for a tree of hinges: each joint's rotation child -> parent
  // Q_P Rx(theta) Q_C^T = P0 + cos(theta) P1 + sin(theta) P2 (hingeFrames_, the angles' cosines
  // and sines in hingeCos_ and hingeSin_), no quaternion products; only the links' rotations
  // and centres - and then (`measure`) measureOffsets.
  // The parent's pose read in place and the products written out a column at a time: copies
  // and temporaries stored a double at a time and read back two at a time stalled store
  // forwarding on this serial chain.
  static const Mat3 kIdentity = Mat3::Identity();
  static const Vec3 kOrigin = Vec3::Zero();
  for (size_t i = 0; i < links_.size(); ++i) {
    Link& l = links_[i];
    const Mat3* parentRotation = &kIdentity;
    const Vec3* parentPosition = &kOrigin;
    if (l.parent >= 0) {
      const Link& p = links_[static_cast<size_t>(l.parent)];
      parentRotation = &p.rotation;
      parentPosition = &p.worldPosition;
    } else if (l.staticParent >= 0) {
      const RigidBody& p = bodies[static_cast<size_t>(l.staticParent)];
      parentRotation = &p.rotation;
      parentPosition = &p.position;
    }
    const Mat3& pr = *parentRotation;
    const double c = hingeCos_[i], s = hingeSin_[i];
    const HingeFrames& f = hingeFrames_[i];
    for (int k = 0; k < 3; ++k) {
      const double r0 = f.fixed(0, k) + c * f.cosine(0, k) + s * f.sine(0, k);
      const double r1 = f.fixed(1, k) + c * f.cosine(1, k) + s * f.sine(1, k);
      const double r2 = f.fixed(2, k) + c * f.cosine(2, k) + s * f.sine(2, k);
      for (int a = 0; a < 3; ++a) l.rotation(a, k) = pr(a, 0) * r0 + pr(a, 1) * r1 + pr(a, 2) * r2;
    }
    double arm[3];
    for (int k = 0; k < 3; ++k)
      arm[k] = l.anchorInParent[k] - (f.fixedArm[k] + c * f.cosineArm[k] + s * f.sineArm[k]);
    for (int a = 0; a < 3; ++a)
      l.worldPosition[a] =
          (*parentPosition)[a] + (pr(a, 0) * arm[0] + pr(a, 1) * arm[1] + pr(a, 2) * arm[2]);
  }
  // Measured after the whole tree is placed, not link by link: the positions just stored would
  // be read back before their stores complete.
  return measure ? measureOffsets() : 0.0;
}

void Articulation::readHingeConfiguration(std::span<const RigidBody> bodies) {
  // Each hinge's twist from the rotation matrices: Q_P^T R_P^T R_C Q_C is Rx(theta) on the
  // joint, its entries (i, j) = (R_P Q_P e_i) . (R_C Q_C e_j) for i, j in {y, z} - cos(theta)
  // and sin(theta) without a quaternion product or a sine (RevoluteJoint::measureCoordinate's
  // twist, for bodies on the joint).
  for (size_t i = 0; i < links_.size(); ++i) {
    Link& l = links_[i];
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    Mat3 parentRotation;
    Vec3 parentPosition;
    if (l.parent >= 0)
      parentRotation =
          bodies[static_cast<size_t>(links_[static_cast<size_t>(l.parent)].body)].rotation;
    else
      staticParentPose(l, bodies, parentRotation, parentPosition);
    const HingeFrames& f = hingeFrames_[i];
    const Vec3 py = parentRotation * f.parentY, pz = parentRotation * f.parentZ;
    const Vec3 cy = b.rotation * f.childY, cz = b.rotation * f.childZ;
    double c = 0.5 * (py.dot(cy) + pz.dot(cz)), s = 0.5 * (pz.dot(cy) - py.dot(cz));
    const double norm = std::hypot(c, s);
    c /= norm;
    s /= norm;
    l.angle = unwrappedAngle(l, std::atan2(s, c));
    hingeCos_[i] = c;
    hingeSin_[i] = s;
  }
  placeHinges(bodies, false);
}

bool Articulation::hingeSolve() {
  // The articulated-body recursion (articulatedSolve's) written out for hinges, from each
  // link's linkForces_, world inertia about its centre (linkInertia_) and g (linkArm_):
  // X = [I_c + (r . g) 1 - r g^T, [g]x; -m [r]x, m 1] - its spatial inertia about
  // motionOrigin_ for g = m r, plus an offset force F's stiffness for g = m r + F
  // (projectionStep). momentum_ = X^-1 J^T f's joint part, hingeAba_[i].motion the links'
  // motions [w; v at motionOrigin_]. (Compact per-link records of one DOF each, where the
  // generic AbaLink carries a ball's 6 x 3 shapes.)
  const size_t n = links_.size();
  for (size_t i = 0; i < n; ++i) {
    const Link& l = links_[i];
    HingeAba& h = hingeAba_[i];
    const Vec3 r = l.worldPosition - motionOrigin_;
    const Vec3& g = linkArm_[i];
    // Written entry by entry: skew()'s temporaries, stored a double at a time and read back
    // two at a time, stalled store forwarding here (a third of this function's time).
    Mat6& x = h.inertia;
    const Mat3& ic = linkInertia_[i];
    const double rg = r.dot(g), m = l.mass;
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) x(k, c) = ic(k, c) - r[k] * g[c] + (k == c ? rg : 0.0);
    x(0, 3) = 0.0, x(1, 3) = g.z(), x(2, 3) = -g.y();  // [g]x
    x(0, 4) = -g.z(), x(1, 4) = 0.0, x(2, 4) = g.x();
    x(0, 5) = g.y(), x(1, 5) = -g.x(), x(2, 5) = 0.0;
    x(3, 0) = 0.0, x(4, 0) = -m * r.z(), x(5, 0) = m * r.y();  // -m [r]x
    x(3, 1) = m * r.z(), x(4, 1) = 0.0, x(5, 1) = -m * r.x();
    x(3, 2) = -m * r.y(), x(4, 2) = m * r.x(), x(5, 2) = 0.0;
    for (int c = 3; c < 6; ++c)
      for (int k = 3; k < 6; ++k) x(k, c) = k == c ? m : 0.0;
    h.bias = -linkForces_[i];
    setWorldMotions(l, r);
  }
  for (size_t i = n; i-- > 0;) {
    const Link& l = links_[i];
    HingeAba& h = hingeAba_[i];
    const Vec6& s = worldMotion_[static_cast<size_t>(l.dof)];
    h.response.noalias() = h.inertia * s;
    const double d = s.dot(h.response);
    if (!(d > 0.0)) return false;  // a stiffness made the Hessian indefinite here
    h.inversePivot = 1.0 / d;
    h.torque = -s.dot(h.bias);
    if (l.parent < 0) continue;
    HingeAba& p = hingeAba_[static_cast<size_t>(l.parent)];
    p.inertia.noalias() += h.inertia - (h.response * h.inversePivot) * h.response.transpose();
    p.bias += h.bias + h.response * (h.torque * h.inversePivot);
  }
  for (size_t i = 0; i < n; ++i) {
    const Link& l = links_[i];
    HingeAba& h = hingeAba_[i];
    if (l.parent < 0) {
      const double dq = h.inversePivot * h.torque;
      momentum_[l.dof] = dq;
      h.motion = worldMotion_[static_cast<size_t>(l.dof)] * dq;
      continue;
    }
    const Vec6& parentMotion = hingeAba_[static_cast<size_t>(l.parent)].motion;
    const double dq = h.inversePivot * (h.torque - h.response.dot(parentMotion));
    momentum_[l.dof] = dq;
    h.motion = parentMotion + worldMotion_[static_cast<size_t>(l.dof)] * dq;
  }
  return true;
}

bool Articulation::hingeProjectionStep(bool stiffness) {
  // Coordinate by coordinate, from registers (see placeHinges): worldInertia's matrix returned
  // through memory and read back stalled store forwarding here.
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    const Mat3& rotation = l.rotation;
    double inertia[3][3];  // R I R^T
    for (int a = 0; a < 3; ++a)
      for (int b = a; b < 3; ++b) {
        double sum = 0.0;
        for (int k = 0; k < 3; ++k) {
          const double bodyRow = l.principalInertia ? l.inertia(k, k) * rotation(b, k)
                                                    : l.inertia(k, 0) * rotation(b, 0) +
                                                          l.inertia(k, 1) * rotation(b, 1) +
                                                          l.inertia(k, 2) * rotation(b, 2);
          sum += rotation(a, k) * bodyRow;
        }
        inertia[a][b] = inertia[b][a] = sum;
      }
    const Vec6& offset = offsets_[i];
    double r[3], force[3];
    for (int k = 0; k < 3; ++k) {
      r[k] = l.worldPosition[k] - motionOrigin_[k];
      force[k] = l.mass * offset[3 + k];
    }
    Mat3& worldInertia = linkInertia_[i];
    Vec6& spatialForce = linkForces_[i];
    Vec3& arm = linkArm_[i];
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) worldInertia(a, b) = inertia[a][b];
      const int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
      spatialForce[a] = inertia[a][0] * offset[0] + inertia[a][1] * offset[1] +
                        inertia[a][2] * offset[2] + (r[a1] * force[a2] - r[a2] * force[a1]);
      spatialForce[3 + a] = force[a];
      arm[a] = stiffness ? l.mass * r[a] + force[a] : l.mass * r[a];
    }
  }
  if (!hingeSolve()) return false;
  double slope = 0.0;  // -dPhi along the step: the links' motions against their offset forces
  for (size_t i = 0; i < links_.size(); ++i) slope += hingeAba_[i].motion.dot(linkForces_[i]);
  return slope > 0.0 || !stiffness;
}

void Articulation::projectVelocities(double dt, std::span<RigidBody> bodies,
                                     std::span<const Mat3> midpointRotations) {
  // The rows' velocity solve with the joints exact: the bodies' momenta after the step's
  // free-body integration, h = [L + r x m v; m v] about motionOrigin_, projected onto the
  // joints' motions in the kinetic-energy metric, q' = H^-1 J^T h, each body's inertia at its
  // step-midpoint orientation as the rows take it (World::integrateBodyVelocity) - one
  // articulated-body solve. The bodies' new velocities are J q' plus what the rows' anchor
  // points ask beyond J v = 0 (constraint_parts.cpp, point): the anchors' curvature drift
  // over the step, -(dt/2) [w_B x (w_B x r_B) - w_A x (w_A x r_A)], faded out between 0.02
  // and 0.1 rad a step - the velocity then turns with the joint instead of losing its normal
  // part, ~(w dt)^2 of the kinetic energy a step. A translation u down the tree carries it
  // (each link's u its parent's plus its joint's drift); the projection is then of h - M u.
  motionOrigin_ = links_[0].worldPosition;
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Vec3 wB = b.angularVelocity;
    const Vec3 armB = b.rotation * l.anchorInChild;
    Vec3 wA = Vec3::Zero(), armA = Vec3::Zero(), drift = Vec3::Zero();
    if (l.parent >= 0) {
      const RigidBody& a = bodies[static_cast<size_t>(links_[static_cast<size_t>(l.parent)].body)];
      wA = a.angularVelocity;
      armA = a.rotation * l.anchorInParent;
      drift = driftVelocity_[static_cast<size_t>(l.parent)];
    } else if (l.staticParent >= 0) {
      const RigidBody& a = bodies[static_cast<size_t>(l.staticParent)];
      wA = a.angularVelocity;
      armA = a.rotation * l.anchorInParent;
    }
    const double turn = std::max(wA.norm(), wB.norm()) * dt;
    const double weight = std::clamp((0.1 - turn) / 0.08, 0.0, 1.0);
    driftVelocity_[i] =
        drift - 0.5 * weight * dt * (wB.cross(wB.cross(armB)) - wA.cross(wA.cross(armA)));
  }
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Vec3 r = l.worldPosition - motionOrigin_;
    const Mat3& mid = midpointRotations[static_cast<size_t>(l.body)];
    linkInertia_[i] = worldInertia(l, mid);
    const Vec3 p = l.mass * b.linearVelocity;
    const Vec3 projected = l.mass * (b.linearVelocity - driftVelocity_[i]);
    linkForces_[i] = spatialVector(b.angularMomentum + r.cross(projected), projected);
    inputMomentum_[i] = spatialVector(b.angularMomentum, p);
    linkArm_[i] = l.mass * r;
  }
  hingeSolve();
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Vec6& motion = hingeAba_[i].motion;
    const Vec3 w = motion.head<3>();
    const Vec3 r = l.worldPosition - motionOrigin_;
    b.linearVelocity = motion.tail<3>() + w.cross(r) + driftVelocity_[i];
    b.angularMomentum = linkInertia_[i] * w;
    b.angularVelocity = w;
    finalVelocity_[i] = spatialVector(b.linearVelocity, b.angularMomentum);
    qd_[l.dof] = momentum_[l.dof];
  }
}

bool Articulation::projectionStep() {
  // Each link's offset from its integrated pose (offsets_) as a spatial force about
  // motionOrigin_ in the mass metric, f = [I dtheta + r x F; F], F = m (c* - c): the distance's
  // gradient is -J^T f. Its Hessian is H = J^T M J (the joint-space inertia) plus the forces'
  // geometric stiffness: holding F, turning joint i moves the arm r - o_j of every offset below
  // a deeper joint j, d2 Phi / dq_i dq_j = s_i^T K s_j with K = [(r . F) 1 - r F^T, [F]x; 0, 0]
  // summed over the links below j (s = [u; o x u], i an ancestor of j). That is J^T M J's form
  // with each link's inertia plus its K, so the articulated-body recursion solves it in linear
  // time. A long chain's offsets sum to a tension down the chain; without K (Gauss-Newton) the
  // step overshoots along it and converges linearly: chain100 takes 8.1 steps a step without K, 4.1
  // with it. Where K makes the step climb (offsets pushing links together), Gauss-Newton's, always
  // downhill.
  if (hingesOnly_) return hingeProjectionStep(true) || hingeProjectionStep(false);
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    const Vec3 r = l.worldPosition - motionOrigin_;
    const Vec3 force = l.mass * offsets_[i].tail<3>();
    const Vec3 moment =
        l.rotation * (l.inertia * (l.rotation.transpose() * Vec3(offsets_[i].head<3>())));
    linkForces_[i] = spatialVector(moment + r.cross(force), force);
    Mat6& k = offsetStiffness_[i];
    k.setZero();
    k.topLeftCorner<3, 3>() = r.dot(force) * Mat3::Identity() - r * force.transpose();
    k.topRightCorner<3, 3>() = skew(force);
  }
  if (!articulatedSolve(nullptr, linkForces_, 0.0, momentum_.data(), offsetStiffness_))
    return false;
  double slope = 0.0;
  for (size_t i = 0; i < links_.size(); ++i) slope += aba_[i].acceleration.dot(linkForces_[i]);
  if (slope > 0.0) return true;
  return articulatedSolve(nullptr, linkForces_, 0.0, momentum_.data());
}

int Articulation::projectOntoJoints(std::span<RigidBody> bodies, int maxIterations,
                                    double tolerance, double dt) {
  if (!fixedBase()) return -1;
  // The integrated poses, the target, in compact arrays: each Newton step reads them again.
  for (size_t i = 0; i < links_.size(); ++i) {
    const RigidBody& b = bodies[static_cast<size_t>(links_[i].body)];
    targetRotation_[i] = b.rotation;
    targetPosition_[i] = b.position;
  }
  double distance = 0.0;
  if (hingesOnly_ && dt > 0.0) {
    // From the step's start configuration advanced by its rates (projectVelocities): the
    // joints' share of the bodies' integrated poses, without reading it from them.
    for (size_t i = 0; i < links_.size(); ++i) {
      const double step = dt * qd_[links_[i].dof];
      links_[i].angle += step;
      double c = 0.0, s = 0.0;
      cosineAndSine(step, c, s);
      const double c0 = hingeCos_[i], s0 = hingeSin_[i];
      hingeCos_[i] = c0 * c - s0 * s;
      hingeSin_[i] = s0 * c + c0 * s;
    }
    distance = placeHinges(bodies, true);
  } else if (hingesOnly_) {
    readHingeConfiguration(bodies);
    distance = measureOffsets();
  } else {
    readConfiguration(bodies);
    distance = measureOffsets();
  }
  motionOrigin_ = links_[0].worldPosition;
  int iterations = 0;
  double previousLargest = 0.0;
  while (iterations < maxIterations) {
    if (!projectionStep()) return -1;
    ++iterations;
    for (size_t i = 0; i < links_.size(); ++i) {
      stepStartAngle_[i] = links_[i].angle;
      stepStartRelative_[i] = links_[i].relative;
      stepStartCos_[i] = hingeCos_[i];
      stepStartSin_[i] = hingeSin_[i];
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
          if (hingesOnly_) {  // the angle's cosine and sine by the step's
            double c = 0.0, s = 0.0;
            cosineAndSine(step, c, s);
            hingeCos_[i] = stepStartCos_[i] * c - stepStartSin_[i] * s;
            hingeSin_[i] = stepStartSin_[i] * c + stepStartCos_[i] * s;
          }
        } else {  // spherical (the base is fixed: no free link)
          const Vec3 step = scale * momentum_.segment<3>(l.dof);
          l.relative = (stepStartRelative_[i] * rotationFromVector(step)).normalized();
          largest = std::max(largest, step.norm());
        }
      }
      if (hingesOnly_) {
        trial = placeHinges(bodies, true);
      } else {
        updatePoses(bodies);
        trial = measureOffsets();
      }
      if (trial <= distance) break;
    }
    if (!std::isfinite(trial)) return -1;
    distance = trial;
    // Done after a step within the tolerance, or once the next is foreseen within it: the
    // steps shrink at least as fast as they have been (by largest / previousLargest, linearly
    // far from the nearest pose, faster - Newton squares them - near it), a solve saved.
    if (largest <= tolerance) break;
    if (previousLargest > 0.0 && largest * (largest / previousLargest) <= tolerance) break;
    previousLargest = scale == 1.0 ? largest : 0.0;  // a halved step foretells nothing
  }
  // The poses to the bodies; each keeps its body-frame momentum (its angular momentum turns
  // with it, as World::moveBody's corrections do), so the projection adds no kinetic energy.
  // (placeHinges leaves the parent -> child transforms stale: every use of the configuration
  // starts from readConfiguration.)
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
