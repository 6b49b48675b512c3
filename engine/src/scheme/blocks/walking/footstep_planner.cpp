#include "footstep_planner.h"

#include <algorithm>
#include <cmath>

namespace impetus::walking {
namespace {
Vec3 headingVector(double yaw, double x, double y) {
  const double c = std::cos(yaw), s = std::sin(yaw);
  return Vec3(c * x - s * y, s * x + c * y, 0.0);
}
double wrapAngle(double a) {
  return std::atan2(std::sin(a), std::cos(a));
}
}  // namespace

FootPlacement midFoot(const FootPlacement& a, const FootPlacement& b) {
  return {0.5 * (a.position + b.position), a.yaw + 0.5 * wrapAngle(b.yaw - a.yaw)};
}

FootPlacement nextFootstep(const FootPlacement& stance, Side swing, const WalkCommand& command,
                           double stepTime, const FootstepLimits& limits) {
  const double side = swing == kLeft ? 1.0 : -1.0;  // the swing foot's side
  // Heading: the foot on the side of the turn opens the turn, the other one closes it.
  double turn = std::clamp(command.turn * stepTime * 2.0, -limits.maxTurn, limits.maxTurn);
  if (turn * side < 0.0) turn = 0.0;
  const double yaw = stance.yaw + turn;
  // The centre between the feet now, and one step on: a stride along the mean heading.
  const Vec3 centre = stance.position + headingVector(stance.yaw, 0.0, side * limits.halfWidth);
  const double stride =
      std::clamp(command.forward * stepTime, -limits.maxBackStride, limits.maxStride);
  // Sideways, only the foot on the side of motion steps out; the other one follows.
  double sideStep =
      std::clamp(command.lateral * stepTime * 2.0, -limits.maxSideStep, limits.maxSideStep);
  if (sideStep * side < 0.0) sideStep = 0.0;
  const double mean = stance.yaw + 0.5 * turn;
  FootPlacement next;
  next.yaw = yaw;
  next.position = centre + headingVector(mean, stride, sideStep) +
                  headingVector(yaw, 0.0, side * limits.halfWidth);
  // Never across or onto the stance foot: at least minWidth to its side, in its frame.
  const Vec3 rel = next.position - stance.position;
  const double c = std::cos(stance.yaw), s = std::sin(stance.yaw);
  const double across = -s * rel.x() + c * rel.y();
  if (across * side < limits.minWidth)
    next.position += headingVector(stance.yaw, 0.0, side * limits.minWidth - across);
  next.position.z() = stance.position.z();
  return next;
}

}  // namespace impetus::walking
