// A step of a small fixed-base tree that nothing touches - a pendulum, a double pendulum, a
// load on a ball joint: classical Runge-Kutta on (q, q'), q'' by the articulated-body algorithm
// (articulated_body.cpp) with its velocity products. The momentum projection of projectMomentum
// (and the rows' velocity projection), first order in the step, drops ~(w dt)^2 of the kinetic
// energy at every step a joint turns w dt: a 0.4 m bar released horizontal (0.09 rad a step at
// the bottom) lost 0.66 m g d in 10 s, its period 8 % short; a 0.1 m bar (0.17 rad a step) kept
// 11-15 % of its energy. Fourth order keeps the first's energy to 5e-7 m g d and its period to
// 1e-6 (tests/engine/articulation_test.cpp).
#include <cmath>

#include "articulation.h"
#include "impetus/joints/joint.h"

namespace impetus {

bool Articulation::fixedBase() const {
  return links_[0].joint != LinkJoint::Free;
}

bool Articulation::freeStepSuits() const {
  return fixedBase() && linkCount() <= kFreeStepMaxLinks;
}

void Articulation::setConfiguration(double h, const double* rates) {
  // q = q0 (+) h q': a ball's relative rotation turns by its body-frame rate.
  for (size_t i = 0; i < links_.size(); ++i) {
    Link& l = links_[i];
    if (l.joint == LinkJoint::Revolute) {
      l.angle = startAngle_[i] + h * rates[l.dof];
    } else if (l.joint == LinkJoint::Spherical) {
      const Vec3 turn(rates[l.dof], rates[l.dof + 1], rates[l.dof + 2]);
      l.relative = (startRelative_[i] * rotationFromVector(h * turn)).normalized();
    }
  }
}

void Articulation::linkForcesAt(const Vec3& gravity, std::span<const RigidBody> bodies) {
  // Gravity and the bodies' own forces at their centres, torques as they are: world spatial
  // forces about motionOrigin_ at the current poses.
  for (size_t i = 0; i < links_.size(); ++i) {
    const Link& l = links_[i];
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    const Vec3 force = l.mass * gravity + b.force;
    linkForces_[i] =
        spatialVector(b.torque + (l.worldPosition - motionOrigin_).cross(force), force);
  }
}

double Articulation::kineticEnergy() const {
  // From the body-frame twists (updateTwists).
  double kinetic = 0.0;
  for (const Link& l : links_) {
    const Vec3 w = l.twist.head<3>(), v = l.twist.tail<3>();
    kinetic += 0.5 * (l.mass * v.squaredNorm() + w.dot(l.inertia * w));
  }
  return kinetic;
}

double Articulation::mechanicalEnergy(const Vec3& gravity) const {
  double potential = 0.0;
  for (const Link& l : links_) potential -= l.mass * gravity.dot(l.worldPosition);
  return kineticEnergy() + potential;
}

void Articulation::restoreStepStart(std::span<const RigidBody> bodies) {
  for (size_t i = 0; i < links_.size(); ++i) {
    links_[i].angle = stepStartAngle_[i];
    links_[i].relative = stepStartRelative_[i];
  }
  updatePoses(bodies);
}

double Articulation::forcePower(std::span<const RigidBody> bodies, bool forced) const {
  double power = 0.0;
  for (const Link& l : links_) {
    if (forced) {
      const RigidBody& b = bodies[static_cast<size_t>(l.body)];
      power += b.force.dot(l.rotation * l.twist.tail<3>()) +
               b.torque.dot(l.rotation * l.twist.head<3>());
    }
    if (l.source != nullptr)  // the joint's damping, -d q'^2
      power -= l.source->damping * qd_.segment(l.dof, l.dofCount).squaredNorm();
  }
  return power;
}

bool Articulation::rungeKuttaStep(double h, const Vec3& gravity, std::span<RigidBody> bodies,
                                  bool forced) {
  // From the current q (startAngle_, startRelative_) and q' (qd_), with the twists current.
  for (size_t i = 0; i < links_.size(); ++i) {
    startAngle_[i] = links_[i].angle;
    startRelative_[i] = links_[i].relative;
  }
  const double startEnergy = mechanicalEnergy(gravity);
  const double startKinetic = kineticEnergy();
  // Stage j at q0 (+) c_j h q'_{j-1}, q'0 + c_j h q''_{j-1}; the work of the forces and the
  // damping by the same quadrature (at a swing's turning point the trapezoid's error alone
  // was 2e-3 of the kinetic energy).
  constexpr double kStage[4] = {0.0, 0.5, 0.5, 1.0};
  constexpr double kWeight[4] = {1.0, 2.0, 2.0, 1.0};
  stageRates_[0] = qd_;
  rateSum_.setZero();
  accelerationSum_.setZero();
  double work = 0.0;
  for (size_t j = 0; j < 4; ++j) {
    Eigen::VectorXd& rates = stageRates_[j];
    if (j > 0) {
      setConfiguration(kStage[j] * h, stageRates_[j - 1].data());
      updatePoses(bodies);
      rates = stageRates_[0] + kStage[j] * h * stageAcceleration_;
      qd_ = rates;
      if (forced) updateTwists();
    }
    work += kWeight[j] * h / 6.0 * forcePower(bodies, forced);
    linkForcesAt(gravity, bodies);
    if (!articulatedSolve(rates.data(), linkForces_, h, stageAcceleration_.data())) return false;
    rateSum_ += kWeight[j] * rates;
    accelerationSum_ += kWeight[j] * stageAcceleration_;
  }
  qd_ = stageRates_[0] + (h / 6.0) * accelerationSum_;
  rateSum_ *= 1.0 / 6.0;
  setConfiguration(h, rateSum_.data());
  updatePoses(bodies);
  updateTwists();
  // The energy balance: a step whose energy moved by more than the method's own error at the
  // turns it resolves (beyond the forces' and the damping's work) is one it did not resolve.
  const double error = mechanicalEnergy(gravity) - (startEnergy + work);
  return std::abs(error) <= kFreeStepEnergyTolerance * (startKinetic + kineticEnergy()) + 1e-12;
}

bool Articulation::stepFree(double dt, const Vec3& gravity, std::span<RigidBody> bodies) {
  if (!freeStepSuits()) return false;
  const size_t n = links_.size();
  motionOrigin_ = links_[0].worldPosition;
  for (size_t i = 0; i < n; ++i) {
    stepStartAngle_[i] = links_[i].angle;
    stepStartRelative_[i] = links_[i].relative;
  }
  // q'0: the bodies' momenta at the step's start - before World::integrateBodyVelocity added
  // the step's gravity and forces, taken back here - projected onto the joints (exact when the
  // last step was this one: the momenta are then J q'0 themselves).
  bool forced = false;  // any body force or torque (their power needs the stages' twists)
  for (size_t i = 0; i < n; ++i) {
    const Link& l = links_[i];
    const RigidBody& b = bodies[static_cast<size_t>(l.body)];
    forced = forced || b.force != Vec3::Zero() || b.torque != Vec3::Zero();
    inputMomentum_[i] = spatialVector(b.angularMomentum, l.mass * b.linearVelocity);
    const Vec3 linear = l.mass * b.linearVelocity - dt * (l.mass * gravity + b.force);
    const Vec3 angular = b.angularMomentum - dt * b.torque;
    linkForces_[i] =
        spatialVector(angular + (l.worldPosition - motionOrigin_).cross(linear), linear);
  }
  if (!articulatedSolve(nullptr, linkForces_, dt, initialRates_.data())) return false;
  // Substeps halved until each keeps its energy balance (a fold of the chain turns a joint
  // faster than one step resolves).
  bool resolved = false;
  for (int substeps = 1; !resolved && substeps <= kMaxFreeSubsteps; substeps *= 2) {
    restoreStepStart(bodies);
    qd_ = initialRates_;
    updateTwists();
    resolved = true;
    for (int k = 0; resolved && k < substeps; ++k)
      resolved = rungeKuttaStep(dt / substeps, gravity, bodies, forced);
  }
  if (!resolved) {
    restoreStepStart(bodies);
    return false;
  }
  for (size_t i = 0; i < n; ++i) {  // the momenta J(q1) q'1 (jointImpulses reads them too)
    const Link& l = links_[i];
    finalVelocity_[i] =
        spatialVector(l.rotation * l.twist.tail<3>(), l.rotation * (l.inertia * l.twist.head<3>()));
  }
  writeBodies(bodies);
  return true;
}

}  // namespace impetus
