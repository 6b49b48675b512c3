#include "impetus/probes/probe.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "impetus/dynamics/world.h"
#include "impetus/scheme/scheme.h"

namespace impetus {
namespace {

[[noreturn]] void unknown(const std::string& name, const std::string& what) {
  throw std::invalid_argument("probe '" + name + "': " + what);
}

constexpr const char* kBodyQuantities[] = {"x",  "y",  "z",  "vx",   "vy",    "vz",
                                           "wx", "wy", "wz", "roll", "pitch", "yaw"};
constexpr const char* kJointQuantities[] = {"position", "rate", "force"};
constexpr const char* kMotorQuantities[] = {"angle", "speed", "torque", "voltage", "current"};

}  // namespace

std::vector<std::string> probeNames(const World& world) {
  std::vector<std::string> names;
  for (const RigidBody& b : world.bodies())
    if (b.type != BodyType::Static)
      for (const char* q : kBodyQuantities) names.push_back("body." + b.name + "." + q);
  for (int i = 0; i < world.jointCount(); ++i)
    for (const char* q : kJointQuantities)
      names.push_back("joint." + world.joint(i).name() + "." + q);
  for (int i = 0; i < world.motorCount(); ++i)
    for (const char* q : kMotorQuantities)
      names.push_back("motor." + world.motor(i).name() + "." + q);
  for (int i = 0; i < world.sensorCount(); ++i)
    for (const char* q : world.sensor(i).components())
      names.push_back("sensor." + world.sensor(i).name() + "." + q);
  return names;
}

std::string qualifiedSignal(const std::string& prefix, const std::string& name) {
  const size_t first = name.find('.');
  if (first != std::string::npos) {
    const std::string kind = name.substr(0, first);
    const bool probe = kind == "body" || kind == "joint" || kind == "motor" || kind == "sensor";
    if (kind == "scheme" || (probe && name.find('.', first + 1) != std::string::npos))
      return kind + "." + prefix + name.substr(first + 1);
  }
  return prefix + name;
}

Probe resolveProbe(World& world, const Scheme* scheme, const std::string& name) {
  const std::string prefix = "scheme.";
  if (name.compare(0, prefix.size(), prefix) != 0) return resolveProbe(world, name);
  const std::string signal = name.substr(prefix.size());
  const int index = scheme ? scheme->signalIndex(signal) : -1;
  if (index < 0) unknown(name, "no scheme signal '" + signal + "' (BLOCK.PORT)");
  return [scheme, index] { return scheme->signalAt(index); };
}

Probe resolveIndicatorSignal(World& world, const Scheme* scheme, const std::string& name) {
  const int index = scheme ? scheme->signalIndex(name) : -1;
  if (index >= 0) return [scheme, index] { return scheme->signalAt(index); };
  return resolveProbe(world, name);
}

Probe resolveProbe(World& world, const std::string& name) {
  const size_t first = name.find('.');
  const size_t last = name.rfind('.');
  if (first == std::string::npos || first == last) unknown(name, "expected KIND.NAME.QUANTITY");
  const std::string kind = name.substr(0, first);
  const std::string object = name.substr(first + 1, last - first - 1);
  const std::string quantity = name.substr(last + 1);
  if (kind == "body") {
    const BodyId id = world.findBody(object);
    if (id < 0) unknown(name, "no body named '" + object + "'");
    World* w = &world;
    const auto& b = [w, id]() -> const RigidBody& { return w->body(id); };
    if (quantity == "x") return [b] { return b().position.x(); };
    if (quantity == "y") return [b] { return b().position.y(); };
    if (quantity == "z") return [b] { return b().position.z(); };
    if (quantity == "vx") return [b] { return b().linearVelocity.x(); };
    if (quantity == "vy") return [b] { return b().linearVelocity.y(); };
    if (quantity == "vz") return [b] { return b().linearVelocity.z(); };
    if (quantity == "wx") return [b] { return b().angularVelocity.x(); };
    if (quantity == "wy") return [b] { return b().angularVelocity.y(); };
    if (quantity == "wz") return [b] { return b().angularVelocity.z(); };
    if (quantity == "roll") return [b] { return rollPitchYaw(b().orientation).x(); };
    if (quantity == "pitch") return [b] { return rollPitchYaw(b().orientation).y(); };
    if (quantity == "yaw") return [b] { return rollPitchYaw(b().orientation).z(); };
    unknown(name, "bodies have x y z vx vy vz wx wy wz roll pitch yaw");
  }
  if (kind == "joint") {
    const Joint* j = world.findJoint(object);
    if (!j) unknown(name, "no joint named '" + object + "'");
    if (quantity == "position") return [j] { return j->position(); };
    if (quantity == "rate") return [j] { return j->rate(); };
    if (quantity == "force") return [j] { return j->generalizedForce(); };
    unknown(name, "joints have position rate force");
  }
  if (kind == "motor") {
    const DcMotor* m = world.findMotor(object);
    if (!m) unknown(name, "no motor named '" + object + "'");
    if (quantity == "angle") return [m] { return m->angle(); };
    if (quantity == "speed") return [m] { return m->speed(); };
    if (quantity == "torque") return [m] { return m->torque(); };
    if (quantity == "voltage") return [m] { return m->voltage(); };
    if (quantity == "current") return [m] { return m->current(); };
    unknown(name, "motors have angle speed torque voltage current");
  }
  if (kind == "sensor") {
    const Sensor* sensor = world.findSensor(object);
    if (!sensor) unknown(name, "no sensor named '" + object + "'");
    const int index = sensor->componentIndex(quantity);
    if (index < 0) {
      std::string list;
      for (const char* c : sensor->components()) list += std::string(list.empty() ? "" : " ") + c;
      unknown(name, "this sensor has " + list);
    }
    return [sensor, index] { return sensor->value(index); };
  }
  unknown(name, "kind must be body, joint, motor or sensor");
}

}  // namespace impetus
