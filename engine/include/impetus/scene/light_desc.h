#pragma once
// The scene's lights besides the sun (scenes/README.md, <light> and <fog>): lamps a robot
// carries, switched by a scheme signal, and the air's visibility. The physics never reads them.

#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "impetus/dynamics/world.h"
#include "impetus/math/types.h"

namespace impetus {

/// At most this many lamps light the scene at once besides the sun (OpenGL lights 1 to 4); the
/// first that are on, in file order.
inline constexpr size_t kMaxLights = 4;

/// A spot lamp fixed to a body (a robot's headlight). Its beam is a cone about `direction`
/// whose brightness falls off with angle to `halfAngle` and with distance to half at `range`.
struct LightDesc {
  std::string name;
  BodyId body = World::kGround;
  Vec3 position = Vec3::Zero();    ///< in the body frame (m)
  Vec3 direction = Vec3::UnitX();  ///< the beam's axis in the body frame (unit)
  double halfAngle = 0.5;          ///< the cone's half angle (rad)
  double range = 10.0;             ///< where the beam has fallen to half its brightness (m)
  std::array<float, 3> colour{1.0f, 0.95f, 0.85f};  ///< RGB 0..1 at full brightness
  /// On while this scheme signal or probe is above 0.5 (a console toggle's channel, "light");
  /// empty: always on.
  std::string signal;
  std::string file;  ///< where it is declared, for a bad signal's error
  int line = 0;
};

/// Distance fog: things fade linearly into `colour` from `start` to `end` (m) from the eye.
struct FogDesc {
  double start = 30.0, end = 150.0;
  std::array<float, 3> colour{0.7f, 0.75f, 0.8f};
};

}  // namespace impetus
