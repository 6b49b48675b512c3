#include "walking_controller.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "impetus/math/convex_hull_2d.h"
#include "impetus/session/state_stream.h"
#include "terrain.h"

namespace impetus::walking {
namespace {
constexpr double kGravity = 9.81;

double slew(double value, double target, double step) {
  return value + std::clamp(target - value, -step, step);
}
double quintic(double s) {
  s = std::clamp(s, 0.0, 1.0);
  return s * s * s * (10.0 - 15.0 * s + 6.0 * s * s);
}
/// d^2/ds^2 of quintic(s).
double quinticAcceleration(double s) {
  if (s <= 0.0 || s >= 1.0) return 0.0;
  return s * (60.0 - 180.0 * s + 120.0 * s * s);
}
/// The direction the ground rises along and its rate (m/m) for a sole tilted by `tilt` (the
/// rotation about world x and y that turns +z onto the ground's normal n: -n_xy / n_z).
Vec2 uphill(const Vec2& tilt) {
  const double angle = tilt.norm();
  if (angle < 1e-9) return Vec2::Zero();
  return Vec2(-tilt.y(), tilt.x()) * (std::tan(angle) / angle);
}
double cross(const Vec2& o, const Vec2& a, const Vec2& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}
}  // namespace

WalkingController::WalkingController(const World& world, const LeggedRobotNames& names,
                                     const WalkingParams& p)
    : model_(world, names, p.ankleHeight), p_(p) {
  comHeight_ = model_.assembledComHeight();
  pelvisHeight_ = model_.assembledPelvisHeight();
  omega_ = std::sqrt(kGravity / comHeight_);
  reset();
}

void WalkingController::reset() {
  state_ = GaitState::Standing;
  command_ = {};
  for (int s = 0; s < 2; ++s) {
    // The model is at its assembly until the first measurement: the feet where they stand.
    feet_[size_t(s)] = {model_.footPoint(Side(s)), model_.assembledHeading()};
  }
  swing_ = kLeft;
  target_ = feet_[kLeft];
  stepClock_ = p_.stepTime;  // no landing to hand over
  doubleSupport_ = p_.doubleSupportTime;
  zmpAtStepStart_ = Vec2::Zero();
  com_ = model_.centreOfMass().head<2>();
  comVelocity_.setZero();
  measuredCom_ = com_;
  measuredVelocity_.setZero();
  legAngles_.fill(0.0);
  time_ = 0.0;
  footHeightDifference_ = 0.0;
  ankleTilt_ = {Vec2::Zero(), Vec2::Zero()};
  out_ = {};
}

Vec2 WalkingController::soleCentre(const FootPlacement& f) const {
  return f.position.head<2>() + p_.soleForward * Vec2(std::cos(f.yaw), std::sin(f.yaw));
}

Vec2 WalkingController::clampToSupport(const Vec2& p) const {
  // Corners of the soles on the ground, shrunk by the margin; the stance sole alone in single
  // support, both in double support and standing.
  std::array<Vec2, 8> corners;
  int n = 0;
  const bool single = state_ != GaitState::Standing && stepClock_ >= doubleSupport_;
  for (int s = 0; s < 2; ++s) {
    if (single && s == swing_) continue;
    const FootPlacement& f = feet_[size_t(s)];
    const Vec2 c = soleCentre(f);
    const Vec2 ax(std::cos(f.yaw), std::sin(f.yaw)), ay(-ax.y(), ax.x());
    const double hx = 0.5 * p_.soleLength - p_.zmpMargin, hy = 0.5 * p_.soleWidth - p_.zmpMargin;
    for (int k = 0; k < 4; ++k)
      corners[size_t(n++)] = c + ((k & 1) ? hx : -hx) * ax + ((k & 2) ? hy : -hy) * ay;
  }
  std::array<Vec2, 9> hull;
  const int h = convexHull2d(std::span(corners.data(), size_t(n)), hull);
  bool inside = true;
  for (int i = 0; i < h; ++i)
    if (cross(hull[size_t(i)], hull[size_t((i + 1) % h)], p) < 0) inside = false;
  if (inside) return p;
  Vec2 best = p;
  double bestDistance = 1e300;
  for (int i = 0; i < h; ++i) {
    const Vec2 a = hull[size_t(i)], b = hull[size_t((i + 1) % h)];
    const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
    const Vec2 q = a + t * (b - a);
    if ((q - p).squaredNorm() < bestDistance) {
      bestDistance = (q - p).squaredNorm();
      best = q;
    }
  }
  return best;
}

FootPlacement WalkingController::onGround(const World& world, const FootPlacement& f,
                                          const FootPlacement* from) const {
  // Into the world and back: the plan's odometry drifts from the world by centimetres over a
  // turn, and a foothold looked up there lands off a ramp's foot or crest.
  const auto toWorld = [&](FootPlacement p) {
    p.position.head<2>() = inWorld(p.position.head<2>());
    p.yaw += odometryYaw_;
    return p;
  };
  const SoleGeometry sole{p_.soleLength, p_.soleWidth, p_.soleForward};
  const FootPlacement target = toWorld(f);
  FootPlacement ground;
  if (!from) {
    ground = placeOnGround(world, target, sole);
  } else {
    // A step under way lands clear of edges: shorter by up to half a sole, or a little longer.
    Vec3 along = target.position - toWorld(*from).position;
    along.z() = 0.0;
    const double travel = along.norm();
    along = travel > 0.05 ? Vec3(along / travel)
                          : Vec3(std::cos(target.yaw), std::sin(target.yaw), 0.0);
    ground = chooseFoothold(world, target, sole, along, 0.5 * p_.soleLength, 0.25 * p_.soleLength);
  }
  ground.position.head<2>() = inOdometry(ground.position.head<2>());
  ground.yaw -= odometryYaw_;
  ground.tilt = Eigen::Rotation2Dd(-odometryYaw_) * ground.tilt;
  return ground;
}

Vec2 WalkingController::inWorld(const Vec2& p) const {
  return Eigen::Rotation2Dd(odometryYaw_) * p + odometryShift_;
}

Vec2 WalkingController::inOdometry(const Vec2& p) const {
  return Eigen::Rotation2Dd(odometryYaw_).inverse() * (p - odometryShift_);
}

void WalkingController::startStep(Side swing, const FootPlacement& target, double doubleSupport) {
  swing_ = swing;
  target_ = target;
  stepClock_ = 0.0;
  doubleSupport_ = doubleSupport;
}

void WalkingController::planZmp() {
  // The reference ZMP from now on as linear segments, then the DCM reference by the backward
  // recursion over them (Englsberger et al. 2015): on a segment of length h with ZMP a + b s,
  // xi(start) = e^(-w h) xi(end) + a (1 - e^(-w h)) + b ((1 - e^(-w h)) / w - h e^(-w h)),
  // ending where the last ZMP rests.
  segmentCount_ = 0;
  const auto add = [&](double duration, const Vec2& a, const Vec2& b) {
    if (duration > 1e-9 && segmentCount_ < int(segments_.size()))
      segments_[size_t(segmentCount_++)] = {duration, a, b};
  };
  const double single = p_.stepTime - p_.doubleSupportTime;
  if (state_ == GaitState::Standing || state_ == GaitState::Fallen) {
    const Vec2 mid = 0.5 * (soleCentre(feet_[0]) + soleCentre(feet_[1]));
    add(1.0, mid, mid);
  } else {
    const Side stance = Side(1 - swing_);
    const Vec2 s = soleCentre(feet_[size_t(stance)]);
    if (stepClock_ < doubleSupport_) {
      const Vec2 here = zmpAtStepStart_ + (s - zmpAtStepStart_) * (stepClock_ / doubleSupport_);
      add(doubleSupport_ - stepClock_, here, s);
      add(single, s, s);
    } else {
      add(doubleSupport_ + single - stepClock_, s, s);
    }
    // The steps that follow: the landing, then the command held (or stopping).
    FootPlacement planted = target_, other = feet_[size_t(stance)];
    Side next = stance;  // swings next
    Vec2 previous = s;
    const bool stopping = command_.isZero();
    const FootstepLimits& lim = p_.limits;
    for (int k = 0; k < 3; ++k) {
      const Vec2 c = soleCentre(planted);
      const FootPlacement stop = nextFootstep(planted, next, {}, p_.stepTime, lim);
      const bool together = (other.position - stop.position).head<2>().norm() < 1e-3 &&
                            std::abs(other.yaw - stop.yaw) < 1e-3;
      if (stopping && together) {
        const Vec2 mid = 0.5 * (c + soleCentre(other));
        add(p_.doubleSupportTime, previous, mid);
        add(1.0, mid, mid);
        previous = mid;
        break;
      }
      add(p_.doubleSupportTime, previous, c);
      add(single, c, c);
      previous = c;
      const FootPlacement landing = nextFootstep(planted, next, command_, p_.stepTime, lim);
      other = planted;
      planted = landing;
      next = Side(1 - next);
    }
  }
  Vec2 xi = segments_[size_t(segmentCount_ - 1)].end;
  for (int i = segmentCount_ - 1; i >= 0; --i) {
    const Segment& g = segments_[size_t(i)];
    const double e = std::exp(-omega_ * g.duration);
    const Vec2 slope = (g.end - g.start) / g.duration;
    xi = e * xi + g.start * (1.0 - e) + slope * ((1.0 - e) / omega_ - g.duration * e);
  }
  dcmReference_ = xi;
  zmpReference_ = segments_[0].start;
}

Vec2 WalkingController::swingZmpShift(double clock) const {
  // The ZMP minus the pendulum's: -dL_y / (m g), dL_x / (m g) (seed 004's ZMP with the
  // centroidal angular momentum L), L from the swing foot's planned acceleration.
  if (state_ != GaitState::Walking && state_ != GaitState::Stopping) return Vec2::Zero();
  const double single = p_.stepTime - p_.doubleSupportTime;
  const double acceleration =
      quinticAcceleration((clock - doubleSupport_) / single) / (single * single);
  if (acceleration == 0.0) return Vec2::Zero();
  const double heading = feet_[size_t(1 - swing_)].yaw;
  const Eigen::Rotation2Dd toWorld(heading);
  const Vec2 travel =
      toWorld.inverse() * (target_.position.head<2>() - feet_[size_t(swing_)].position.head<2>());
  const Vec3 momentumRate = model_.swingAngularMomentum(swing_) * (travel * acceleration);
  return toWorld * (p_.swingMomentumGain * Vec2(-momentumRate.y(), momentumRate.x()) /
                    (model_.mass() * kGravity));
}

Vec2 WalkingController::swingDcmShift(double clock) const {
  // The DCM is the ZMP filtered backwards in time, w int_t^inf e^(-w (s - t)) r(s) ds: the
  // swing's ZMP shift from now to touchdown, by Simpson's rule.
  if (state_ != GaitState::Walking && state_ != GaitState::Stopping) return Vec2::Zero();
  const double end = doubleSupport_ + p_.stepTime - p_.doubleSupportTime;
  const double from = std::max(clock, doubleSupport_);
  if (from >= end) return Vec2::Zero();
  constexpr int kIntervals = 24;
  const double h = (end - from) / kIntervals;
  Vec2 sum = Vec2::Zero();
  for (int i = 0; i <= kIntervals; ++i) {
    const double t = from + i * h;
    const double weight = (i == 0 || i == kIntervals) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    sum += weight * std::exp(-omega_ * (t - clock)) * swingZmpShift(t);
  }
  return omega_ * sum * (h / 3.0);
}

void WalkingController::dampAnkles(const std::array<AnkleWrench, 2>& ankles, const Vec2& zmp,
                                   double dt) {
  // Each loaded sole's wanted centre of pressure: the commanded ZMP, or the nearest point of
  // that sole to it. The ground's moment about the ankle centre is minus the leg's (the foot's
  // own weight and inertia neglected); it should be (p - centre) x F for the wanted p.
  const bool walking = state_ == GaitState::Walking || state_ == GaitState::Stopping;
  const bool single = walking && stepClock_ >= doubleSupport_;
  const double weight = model_.mass() * kGravity;
  const Eigen::Rotation2Dd toWorld(odometryYaw_);  // of the cells' moments
  for (int side = 0; side < 2; ++side) {
    Vec2& tilt = ankleTilt_[size_t(side)];
    const AnkleWrench& w = ankles[size_t(side)];
    const Vec3 ground = -w.force;
    const bool swinging = single && side == swing_;
    if (swinging || ground.z() < 0.05 * weight || p_.ankleDamping <= 0.0) {
      // In the air the sole comes back flat to land flat.
      tilt *= std::max(0.0, 1.0 - dt / 0.1);
      continue;
    }
    const FootPlacement& f = feet_[size_t(side)];
    const Vec2 c = soleCentre(f);
    const Vec2 ax(std::cos(f.yaw), std::sin(f.yaw)), ay(-ax.y(), ax.x());
    const Vec2 local(ax.dot(zmp - c), ay.dot(zmp - c));
    const double hx = 0.5 * p_.soleLength - p_.zmpMargin, hy = 0.5 * p_.soleWidth - p_.zmpMargin;
    // The cells measure in the world; the plan is in the odometry frame.
    const Vec2 wanted =
        inWorld(c + std::clamp(local.x(), -hx, hx) * ax + std::clamp(local.y(), -hy, hy) * ay);
    const Vec3 lever(wanted.x() - w.centre.x(), wanted.y() - w.centre.y(), -p_.ankleHeight);
    const Vec3 wantedMoment = lever.cross(ground);
    const Vec3 measuredMoment = -w.torque;
    const Vec2 error = toWorld.inverse() * (measuredMoment - wantedMoment).head<2>();
    tilt += dt * (error / p_.ankleDamping - tilt / p_.ankleTimeConstant);
    tilt = tilt.cwiseMax(-p_.ankleMaxTilt).cwiseMin(p_.ankleMaxTilt);
  }
}

double WalkingController::slopeSpeedScale(const Vec2& velocity) const {
  // The ground's slope under the stance foot and, walking, under the landing ahead (the robot
  // slows before it steps onto a slope, not on it): a sole's tilt turns +z onto the ground's
  // normal n, and the ground rises along -n_xy / n_z.
  const bool walking = state_ == GaitState::Walking || state_ == GaitState::Stopping;
  const double heading = walking ? feet_[size_t(1 - swing_)].yaw : midFoot(feet_[0], feet_[1]).yaw;
  const Vec2 along = Eigen::Rotation2Dd(heading) * velocity;
  double scale = 1.0;
  const auto limit = [&](const Vec2& tilt) {
    // Each step lands a step's travel (velocity x step time) on from the stance foot.
    const double up = p_.stepTime * along.dot(uphill(tilt));
    if (up > 0.0 && p_.maxStepUp > 0.0 && up > p_.maxStepUp)
      scale = std::min(scale, p_.maxStepUp / up);
    if (up < 0.0 && p_.maxStepDown > 0.0 && -up > p_.maxStepDown)
      scale = std::min(scale, p_.maxStepDown / -up);
  };
  if (walking) {
    limit(feet_[size_t(1 - swing_)].tilt);
    limit(target_.tilt);
  } else {
    limit(0.5 * (feet_[0].tilt + feet_[1].tilt));
  }
  return scale;
}

void WalkingController::measure(const World& world, const Vec3& imu, double dt) {
  const Side anchor = state_ == GaitState::Standing ? kLeft : Side(1 - swing_);
  model_.poseMeasured(world, imu, anchor, feet_[size_t(anchor)].position);
  measuredCom_ = model_.centreOfMass().head<2>();
  const FootPlacement planted = model_.footInWorld(world, anchor);
  const FootPlacement& planned = feet_[size_t(anchor)];
  odometryYaw_ = std::remainder(planted.yaw - planned.yaw, 2.0 * M_PI);
  odometryShift_ =
      planted.position.head<2>() - Eigen::Rotation2Dd(odometryYaw_) * planned.position.head<2>();
  const double blend = dt / (p_.velocityFilterTime + dt);
  measuredVelocity_ += blend * (model_.measuredComVelocity().head<2>() - measuredVelocity_);
}

const WalkingOutputs& WalkingController::step(const World& world, const Vec3& command,
                                              const Vec3& imu,
                                              const std::array<AnkleWrench, 2>& ankles, double dt) {
  time_ += dt;
  if (state_ == GaitState::Fallen) return out_;
  measure(world, imu, dt);
  if (std::abs(imu.x()) > p_.fallTilt || std::abs(imu.y()) > p_.fallTilt) {
    state_ = GaitState::Fallen;
    out_.state = state_;
    out_.drivesEnabled = false;
    return out_;
  }

  // The operator's command: dead zone, scaled to the top speeds, slewed.
  const auto axis = [](double v) {
    if (!std::isfinite(v)) return 0.0;
    v = std::clamp(v, -1.0, 1.0);
    return std::abs(v) < 0.05 ? 0.0 : v;
  };
  const double fwd = axis(command.x()), lat = axis(command.y()), turn = axis(command.z());
  const double a = p_.commandAcceleration * dt;
  Vec2 velocity(fwd * (fwd > 0 ? p_.topForward : p_.topBackward), lat * p_.topLateral);
  velocity *= slopeSpeedScale(velocity);
  command_.forward = slew(command_.forward, velocity.x(), a);
  command_.lateral = slew(command_.lateral, velocity.y(), a);
  command_.turn = slew(command_.turn, turn * p_.topTurn, a);
  if (std::abs(command_.forward) < 1e-6) command_.forward = 0.0;
  if (std::abs(command_.lateral) < 1e-6) command_.lateral = 0.0;
  if (std::abs(command_.turn) < 1e-6) command_.turn = 0.0;

  // Gait state machine.
  const FootstepLimits& lim = p_.limits;
  // Standing, the clock runs on from the last landing (for the landed foot's handover).
  if (state_ == GaitState::Standing) stepClock_ = std::min(stepClock_ + dt, p_.stepTime);
  if (state_ == GaitState::Standing && !command_.isZero()) {
    const Side first =
        command_.lateral < 0.0 || (command_.lateral == 0.0 && command_.turn < 0.0) ? kRight : kLeft;
    zmpAtStepStart_ = 0.5 * (soleCentre(feet_[0]) + soleCentre(feet_[1]));
    state_ = GaitState::Walking;
    startStep(
        first,
        onGround(world, nextFootstep(feet_[size_t(1 - first)], first, command_, p_.stepTime, lim),
                 &feet_[size_t(first)]),
        p_.firstDoubleSupport);
  } else if (state_ == GaitState::Walking || state_ == GaitState::Stopping) {
    state_ = command_.isZero() ? GaitState::Stopping : GaitState::Walking;
    stepClock_ += dt;
    const double duration = doubleSupport_ + p_.stepTime - p_.doubleSupportTime;
    if (stepClock_ >= duration - 1e-9) {
      const Side stance = Side(1 - swing_);
      zmpAtStepStart_ = soleCentre(feet_[size_t(stance)]);
      // Touchdown: the plan goes on from where the foot landed (the encoders and the IMU from
      // the stance foot), not where it was sent, so that the measured centre of mass does not
      // jump when the landed foot becomes the anchor.
      FootPlacement landed = target_;
      const Vec3 p = model_.footPoint(swing_);
      const Mat3 r = model_.footRotation(swing_);
      landed.position.head<2>() = p.head<2>();
      landed.yaw = std::atan2(r(1, 0), r(0, 0));
      landed = onGround(world, landed);
      feet_[size_t(swing_)] = landed;
      const FootPlacement stop = nextFootstep(landed, stance, {}, p_.stepTime, lim);
      const bool together =
          (feet_[size_t(stance)].position - stop.position).head<2>().norm() < 0.02 &&
          std::abs(std::remainder(feet_[size_t(stance)].yaw - stop.yaw, 2.0 * M_PI)) < 0.05;
      if (command_.isZero() && together) {
        state_ = GaitState::Standing;
        stepClock_ = 0.0;
      } else {
        // Feet brought together to stop land where the stop puts them (a foothold moved off
        // an edge would never be "together").
        startStep(stance,
                  onGround(world, nextFootstep(landed, stance, command_, p_.stepTime, lim),
                           command_.isZero() ? nullptr : &feet_[size_t(stance)]),
                  p_.doubleSupportTime);
      }
    }
  }

  // Pattern: DCM reference, DCM tracking with the measured error, the reference pendulum.
  // The pendulum runs on the ZMP it must have for the robot's to be where planned: the swing
  // leg's own momentum moves the real ZMP by `swing` (several cm at top speed).
  planZmp();
  const Vec2 swing = swingZmpShift(stepClock_ + 0.5 * dt);
  dcmReference_ -= swingDcmShift(stepClock_);
  const Vec2 xiModel = com_ + comVelocity_ / omega_;
  const Vec2 xiMeasured = measuredCom_ + measuredVelocity_ / omega_;
  const double feedback = 1.0 + p_.dcmGain / omega_;
  const Vec2 zmp = clampToSupport(zmpReference_ + feedback * (xiModel - dcmReference_));
  // The ankles are asked for the model's ZMP moved by the measured DCM error; the pattern is
  // not: fed back into the pendulum through a ZMP at the sole's edge the error would run the
  // pattern away from where the legs can put the body.
  const Vec2 zmpAnkles =
      clampToSupport(zmp + p_.stabiliserGain * feedback * (xiMeasured - xiModel));
  const double ch = std::cosh(omega_ * dt), sh = std::sinh(omega_ * dt);
  const Vec2 pivot = zmp - swing;
  const Vec2 offset = com_ - pivot;
  com_ = pivot + offset * ch + comVelocity_ * (sh / omega_);
  comVelocity_ = offset * (omega_ * sh) + comVelocity_ * ch;

  // Foot force difference control: the loads the commanded ZMP asks of each foot (the lever
  // rule along the line between the sole centres in double support; all on the stance foot in
  // single support) against what the ankle cells read.
  const std::array<double, 2> footLoads = {-ankles[0].force.z(), -ankles[1].force.z()};
  dampAnkles(ankles, zmpAnkles, dt);
  {
    const double total = footLoads[0] + footLoads[1];
    double leftShare = 0.5;
    const bool single = state_ != GaitState::Standing && stepClock_ >= doubleSupport_;
    if (single) {
      leftShare = swing_ == kLeft ? 0.0 : 1.0;
    } else {
      const Vec2 l = soleCentre(feet_[kLeft]), r = soleCentre(feet_[kRight]);
      const double span = (l - r).squaredNorm();
      if (span > 1e-9) leftShare = std::clamp((zmpAnkles - r).dot(l - r) / span, 0.0, 1.0);
    }
    const double wanted = (2.0 * leftShare - 1.0) * total;  // f_L - f_R asked
    const double measured = footLoads[0] - footLoads[1];
    footHeightDifference_ +=
        dt * (p_.forceGain * (measured - wanted) - footHeightDifference_ / p_.forceTimeConstant);
    footHeightDifference_ = std::clamp(footHeightDifference_, -0.03, 0.03);
  }

  // Feet at the end of this step: the swing foot on its way, across over the whole single
  // support (the least acceleration, so the least reaction), lifted and lowered faster.
  std::array<FootPlacement, 2> feet = feet_;
  // The pelvis keeps its height over the lower foot: on a slope the leg reaching down is then
  // never stretched (over the feet's mean, walking down the ramp leaned and fell). Over a
  // single support it moves from the lower of stance and lift-off to the lower of stance and
  // landing on the swing's own profile: following the swing foot's height only once it passes
  // below the stance foot started the body down at 0.3 m/s in one step and unloaded the stance
  // sole mid-swing on the way down a ramp.
  double ground = std::min(feet_[0].position.z(), feet_[1].position.z());
  std::array<double, 2> heightOffset = {0.5 * footHeightDifference_, -0.5 * footHeightDifference_};
  if (state_ == GaitState::Walking || state_ == GaitState::Stopping) {
    const double single = p_.stepTime - p_.doubleSupportTime;
    const double s = (stepClock_ + dt - doubleSupport_) / single;
    if (s > 0.0) {
      const FootPlacement& from = feet_[size_t(swing_)];
      const double across = quintic(s);
      FootPlacement& f = feet[size_t(swing_)];
      f.position = from.position + (target_.position - from.position) * across;
      f.tilt = from.tilt + (target_.tilt - from.tilt) * across;
      const double stance = feet_[size_t(1 - swing_)].position.z();
      const double before = std::min(stance, from.position.z());
      ground = before + (std::min(stance, target_.position.z()) - before) * across;
      const double lift = s < 0.5 ? quintic(s / 0.35) : quintic((1.0 - s) / 0.35);
      f.position.z() += p_.swingHeight * lift;
      f.yaw = from.yaw + std::remainder(target_.yaw - from.yaw, 2.0 * M_PI) * across;
      // The force control's height offset leaves the swing foot as it lifts.
      heightOffset[size_t(swing_)] *= 1.0 - quintic(s / 0.25);
    }
  }
  for (int side = 0; side < 2; ++side) feet[size_t(side)].tilt += ankleTilt_[size_t(side)];
  feet[kLeft].position.z() += heightOffset[kLeft];
  feet[kRight].position.z() += heightOffset[kRight];
  const FootPlacement middle = midFoot(feet[0], feet[1]);
  // The swing foot is aimed from the pelvis as measured, fully from mid-swing on, and handed
  // back to the planned frame over the double support that follows its landing.
  std::array<double, 2> measuredFrame = {0.0, 0.0};
  if (state_ == GaitState::Walking || state_ == GaitState::Stopping) {
    const double single = p_.stepTime - p_.doubleSupportTime;
    const double s = (stepClock_ + dt - doubleSupport_) / single;
    if (s > 0.0) measuredFrame[size_t(swing_)] = quintic(2.0 * s);
    const double handover = std::max(doubleSupport_, p_.landingHandover);
    if (stepClock_ + dt < handover)
      measuredFrame[size_t(1 - swing_)] = 1.0 - quintic((stepClock_ + dt) / handover);
  } else if (state_ == GaitState::Standing && stepClock_ < p_.landingHandover) {
    // The last step's landing (the swing foot that stopped the walk).
    measuredFrame[size_t(swing_)] = 1.0 - quintic(stepClock_ / p_.landingHandover);
  }
  model_.solve(com_, ground + pelvisHeight_, middle.yaw, feet, legAngles_, measuredFrame);

  out_.legAngles = legAngles_;
  out_.state = state_;
  out_.drivesEnabled = true;
  out_.comMeasured = measuredCom_;
  out_.capturePoint = xiMeasured;
  out_.zmpCommanded = zmpAnkles;
  out_.comPlanned = com_;
  out_.capturePointPlanned = dcmReference_;
  out_.feet = feet;
  out_.nextStep = target_;
  return out_;
}

void WalkingController::saveState(StateWriter& out) const {
  out.put(static_cast<int>(state_));
  out.put(command_.forward);
  out.put(command_.lateral);
  out.put(command_.turn);
  for (const FootPlacement& f : feet_) {
    out.put(f.position);
    out.put(f.yaw);
    out.put(f.tilt.x());
    out.put(f.tilt.y());
  }
  out.put(static_cast<int>(swing_));
  out.put(target_.position);
  out.put(target_.yaw);
  out.put(target_.tilt.x());
  out.put(target_.tilt.y());
  out.put(stepClock_);
  out.put(doubleSupport_);
  const double v[] = {
      zmpAtStepStart_.x(),   zmpAtStepStart_.y(),  com_.x(),         com_.y(),
      comVelocity_.x(),      comVelocity_.y(),     measuredCom_.x(), measuredCom_.y(),
      measuredVelocity_.x(), measuredVelocity_.y()};
  out.put(std::span<const double>(v));
  out.put(std::span<const double>(legAngles_));
  out.put(time_);
  out.put(footHeightDifference_);
  for (const Vec2& t : ankleTilt_) {
    out.put(t.x());
    out.put(t.y());
  }
}

void WalkingController::loadState(StateReader& in) {
  int state = 0, swing = 0;
  in.get(state);
  if (state < 0 || state > 3) throw std::runtime_error("walking: bad gait state in saved state");
  state_ = GaitState(state);
  in.get(command_.forward);
  in.get(command_.lateral);
  in.get(command_.turn);
  for (FootPlacement& f : feet_) {
    in.get(f.position);
    in.get(f.yaw);
    in.get(f.tilt.x());
    in.get(f.tilt.y());
  }
  in.get(swing);
  swing_ = swing == 0 ? kLeft : kRight;
  in.get(target_.position);
  in.get(target_.yaw);
  in.get(target_.tilt.x());
  in.get(target_.tilt.y());
  in.get(stepClock_);
  in.get(doubleSupport_);
  std::vector<double> v;
  in.get(v, 10);
  StateReader::requireSame(v.size(), size_t(10), "walking controller values");
  zmpAtStepStart_ = Vec2(v[0], v[1]);
  com_ = Vec2(v[2], v[3]);
  comVelocity_ = Vec2(v[4], v[5]);
  measuredCom_ = Vec2(v[6], v[7]);
  measuredVelocity_ = Vec2(v[8], v[9]);
  std::vector<double> angles;
  in.get(angles, 12);
  StateReader::requireSame(angles.size(), size_t(12), "walking leg angles");
  std::copy(angles.begin(), angles.end(), legAngles_.begin());
  in.get(time_);
  in.get(footHeightDifference_);
  for (Vec2& t : ankleTilt_) {
    in.get(t.x());
    in.get(t.y());
  }
  out_.state = state_;
  out_.drivesEnabled = state_ != GaitState::Fallen;
  out_.legAngles = legAngles_;
}

}  // namespace impetus::walking
