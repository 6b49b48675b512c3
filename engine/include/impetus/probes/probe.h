#pragma once
// Named read-outs of the simulation state ("probes"), shared by scheme sensors, the CLI's --probe
// and the GUI's plots:
//   body.NAME.{x,y,z,vx,vy,vz,wx,wy,wz,roll,pitch,yaw}   (m, m/s, rad/s, rad)
//   joint.NAME.{position,rate,force}                     (rad or m, rad/s or m/s, N m or N)
//   motor.NAME.{angle,speed,torque,voltage,current}       (rotor side: rad, rad/s, N m, 1, A)
//   sensor.NAME.COMPONENT                                (impetus/sensors/sensor.h)
//   scheme.BLOCK.PORT (or scheme.BLOCK)                  a functional scheme signal

#include <functional>
#include <string>
#include <vector>

namespace impetus {

class World;
class Scheme;

/// A resolved probe: reads one number from the world it was resolved against.
using Probe = std::function<double()>;

/// Resolves `name` against `world`; throws std::invalid_argument naming what is unknown.
Probe resolveProbe(World& world, const std::string& name);
/// The same, and `scheme.SIGNAL` against `scheme` (a scene without a scheme has no signals).
Probe resolveProbe(World& world, const Scheme* scheme, const std::string& name);
/// What a console lamp or readout shows: a scheme signal `BLOCK.PORT` (without the `scheme.`
/// prefix) if the scheme has one by that name, otherwise a probe; throws as resolveProbe.
Probe resolveIndicatorSignal(World& world, const Scheme* scheme, const std::string& name);

/// A probe or scheme signal of a robot included with `prefix`, as the scene names it: the object
/// of `KIND.NAME.QUANTITY` and `scheme.BLOCK.PORT` and the block of `BLOCK.PORT` get the prefix
/// ("joint.elbow.position" -> "joint.red_elbow.position", "gait.state" -> "red_gait.state").
std::string qualifiedSignal(const std::string& prefix, const std::string& name);

/// Every probe name `world` resolves (bodies that move, joints, motors), in world order: what
/// the GUI's plot picker offers.
std::vector<std::string> probeNames(const World& world);

}  // namespace impetus
