#pragma once
// Sensors a scene mounts on its robot (`<sensor>` in scenes/README.md): read after every
// World::step, probed as `sensor.NAME.COMPONENT` by the scheme, the CLI and the GUI's plots.
//   force_torque (joint): fx fy fz tx ty tz   reaction on the child, child joint frame (N, N m)
//   encoder      (joint): position rate       joint coordinate (rad or m) and its rate
//   imu          (body):  ax ay az            specific force a - g, body frame (m/s^2; +9.81 up
//                                             at rest), from the velocity change over the step
//                         wx wy wz            angular velocity, body frame (rad/s)
//                         roll pitch yaw      orientation (rad)
//   contact      (body):  fx fy fz force      total contact force on the body, world (N)
//                         points in_contact   contact points touching it, 1 if any

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "impetus/dynamics/rigid_body.h"

namespace impetus {

class Joint;
class StateReader;
class StateWriter;
class World;

enum class SensorType { ForceTorque, Encoder, Imu, Contact };

class Sensor {
 public:
  virtual ~Sensor() = default;
  const std::string& name() const { return name_; }
  SensorType type() const { return type_; }
  /// Component names in value order.
  virtual std::span<const char* const> components() const = 0;
  /// Index of a component, or -1.
  int componentIndex(const std::string& component) const;
  double value(int component) const { return values_[static_cast<size_t>(component)]; }
  /// Reads the world after a step of `dt` (0: the reading before the first step).
  virtual void update(const World& world, double dt) = 0;
  /// True when a reading depends on earlier ones (the IMU's velocity change): such a sensor is
  /// read once a step only.
  virtual bool hasMemory() const { return false; }
  /// Readings and any memory (bit-exact resume).
  void saveState(StateWriter& out) const;
  void loadState(StateReader& in);

 protected:
  Sensor(std::string name, SensorType type, size_t components);
  virtual void saveMemory(StateWriter&) const {}
  virtual void loadMemory(StateReader&) {}
  std::vector<double> values_;

 private:
  std::string name_;
  SensorType type_;
};

/// "force_torque", "encoder", "imu", "contact"; nullptr for others.
const SensorType* sensorTypeFromName(const std::string& name);
/// Builds a sensor: joint sensors need `joint`, body sensors `body` (throws std::invalid_argument).
std::unique_ptr<Sensor> makeSensor(SensorType type, std::string name, const Joint* joint,
                                   BodyId body);

}  // namespace impetus
