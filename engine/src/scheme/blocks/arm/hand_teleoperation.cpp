#include "hand_teleoperation.h"

#include <algorithm>
#include <cmath>

#include "impetus/session/state_stream.h"

namespace impetus::arm {

namespace {
// The solver's error past which a target counts as out of reach (some steps' worth of motion at
// the top rates: 1 mm and 5 mrad a step).
constexpr double kUnreachablePosition = 0.004;    // m
constexpr double kUnreachableOrientation = 0.02;  // rad
}  // namespace

HandTeleoperation::HandTeleoperation(tree::WorldTree tree, int base, int tipLink,
                                     const Vec3& tipPoint, std::vector<int> links,
                                     std::vector<double> maxRates, std::vector<double> posture)
    : tree_(std::make_unique<tree::WorldTree>(std::move(tree))),
      ik_(tree_->tree, tipLink, tipPoint, links),
      base_(base),
      links_(std::move(links)),
      maxRates_(std::move(maxRates)),
      command_(links_.size(), 0.0) {
  for (size_t b = 0; b < tree_->floatingBaseFirstLink.size(); ++b)
    if (base_ >= 0 && tree_->floatingBaseFirstLink[b] == base_) baseBody_ = static_cast<int>(b);
  q_.setZero(tree_->tree.size());
  qd_.setZero(tree_->tree.size());
  posture_.setZero(tree_->tree.size());
  for (size_t k = 0; k < links_.size(); ++k) posture_[links_[k]] = posture[k];
  // Per 10 ms step the target moves by millimetres: a few iterations from the last solution.
  options_.maxIterations = 8;
  options_.positionTolerance = 1e-5;
  options_.orientationTolerance = 1e-4;
  options_.posture = &posture_;
  options_.postureGain = 0.05;  // the redundancy settles in ~0.2 s of steering
  options_.minDamping = 0.01;   // m: steps stay bounded near a singularity
  options_.limitMargin = 0.3;   // rad: a joint nearing a stop hands its share to the others
}

void HandTeleoperation::measure(const World& world, tree::VectorX& q) const {
  tree::coordinatesFromWorld(*tree_, world, q, qd_);
  if (base_ >= 0) q.segment<6>(base_).setZero();
}

Mat3 HandTeleoperation::robotRotation(const World& world) const {
  if (baseBody_ < 0) return Mat3::Identity();
  return world.body(baseBody_).rotation *
         tree_->bodyRotation[static_cast<size_t>(baseBody_)].transpose();
}

Vec3 HandTeleoperation::toWorld(const World& world, const Vec3& robotPoint) const {
  if (baseBody_ < 0) return robotPoint;
  // x_link = R x_body + offset for the base body in its link (tree_from_world.h).
  const auto b = static_cast<size_t>(baseBody_);
  return world.body(baseBody_).position +
         robotRotation(world) * (robotPoint - tree_->bodyOffset[b]);
}

HandPose HandTeleoperation::poseAt(const tree::VectorX& q) {
  HandPose pose;
  pose.position = ik_.tipPosition(q);  // poses the solver's kinematics at q
  pose.orientation = ik_.tipRotation();
  return pose;
}

void HandTeleoperation::measureAndStart(const World& world) {
  measure(world, q_);
  if (started_) return;
  for (size_t k = 0; k < links_.size(); ++k) command_[k] = q_[links_[k]];
  target_ = poseAt(q_);
  started_ = true;
}

const std::vector<double>& HandTeleoperation::step(const World& world, const HandRates& rates,
                                                   double dt, const Vec3* contactForce,
                                                   double admittance) {
  const bool orbiting = rates.orbit != Vec3::Zero();
  const bool moving = rates.linear != Vec3::Zero() || rates.angular != Vec3::Zero() || orbiting ||
                      contactForce != nullptr;
  if (started_ && settled_ && !moving) return command_;  // nothing to solve: hold
  measureAndStart(world);
  // The target moves in the chosen frame: robot-frame rates as given, hand-frame rates turned
  // by the hand's target orientation (a turn about its own axis, a push along its fingers).
  Vec3 comply = Vec3::Zero();
  if (contactForce) comply = admittance * (robotRotation(world).transpose() * *contactForce);
  if (orbiting) {
    // Turned exactly about the line (no drift off the circle however long it runs); what the
    // held object resists along the path is the work, not an error to give way to.
    const Vec3 path = rates.orbit.cross(target_.position - rates.orbitCentre);
    if (path.norm() > 0.0) comply -= path.normalized() * path.normalized().dot(comply);
    const Mat3 turn = rotationFromVector(rates.orbit * dt).toRotationMatrix();
    target_.position = rates.orbitCentre + turn * (target_.position - rates.orbitCentre);
    target_.orientation = turn * target_.orientation;
  }
  const Mat3& R = target_.orientation;
  const Vec3 linear = (rates.inHandFrame ? Vec3(R * rates.linear) : rates.linear) + comply;
  const Vec3 angular = rates.inHandFrame ? Vec3(R * rates.angular) : rates.angular;
  target_.position += linear * dt;
  target_.orientation =
      (rotationFromVector(angular * dt) * Quat(R)).normalized().toRotationMatrix();
  // Solved from the last command (not the measured joints): the setpoints stay smooth while the
  // servos lag; the other joints (waist, legs) as measured.
  for (size_t k = 0; k < links_.size(); ++k) q_[links_[k]] = command_[k];
  const tree::IkResult result = ik_.solve(q_, target_.position, &target_.orientation, options_);
  // The drives' speeds bound each setpoint's change; a limited or unreachable step leaves the
  // target where the hand can be, so a jog held past the reach does not wind up. A step the
  // solver has not quite finished (a fraction of a millimetre short after its iterations) is
  // not unreachable: pulled back each step, those shortfalls summed to centimetres over a
  // slow reach; the next steps finish it.
  bool limited = result.positionError > kUnreachablePosition ||
                 result.orientationError > kUnreachableOrientation;
  for (size_t k = 0; k < links_.size(); ++k) {
    const double step = maxRates_[k] * dt;
    const double wanted = q_[links_[k]];
    const double next = std::clamp(wanted, command_[k] - step, command_[k] + step);
    limited = limited || next != wanted;
    command_[k] = next;
    q_[links_[k]] = next;
  }
  if (limited) target_ = poseAt(q_);
  settled_ = result.reached && !limited;
  return command_;
}

const std::vector<double>& HandTeleoperation::stepJoint(const World& world, int joint, double rate,
                                                        double dt) {
  measureAndStart(world);
  if (joint >= 0 && static_cast<size_t>(joint) < links_.size()) {
    const auto k = static_cast<size_t>(joint);
    command_[k] += std::clamp(rate, -1.0, 1.0) * maxRates_[k] * dt;
  }
  for (size_t k = 0; k < links_.size(); ++k) q_[links_[k]] = command_[k];
  target_ = poseAt(q_);
  settled_ = true;  // the target is where the setpoints put the hand
  return command_;
}

void HandTeleoperation::saveState(StateWriter& out) const {
  out.put(target_.position);
  out.put(target_.orientation);
  out.put(std::span<const double>(command_));
  out.put(started_);
  out.put(settled_);
}

void HandTeleoperation::loadState(StateReader& in) {
  in.get(target_.position);
  in.get(target_.orientation);
  std::vector<double> command;
  in.get(command, 64);
  StateReader::requireSame(command.size(), command_.size(), "hand joints");
  command_ = command;
  in.get(started_);
  in.get(settled_);
}

}  // namespace impetus::arm
