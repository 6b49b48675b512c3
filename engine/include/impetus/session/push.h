#pragma once
// A scheduled push: an impulse on a body's centre of mass at a moment of simulation time (an
// instructor's disturbance, the CLI's --push). Part of a session's inputs: recorded and replayed.

#include <string>

#include "impetus/math/types.h"

namespace impetus {

struct ScheduledPush {
  std::string body;
  double time = 0.0;            ///< applied over the step that starts at this time (unit: s)
  Vec3 impulse = Vec3::Zero();  ///< world frame (unit: N s)
};

/// Parses "BODY@T=FX,FY,FZ"; throws std::invalid_argument saying what is wrong.
ScheduledPush parsePush(const std::string& text);
/// The same form, exact to the last bit ("%.17g").
std::string formatPush(const ScheduledPush& push);

}  // namespace impetus
