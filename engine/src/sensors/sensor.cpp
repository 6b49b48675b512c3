#include "impetus/sensors/sensor.h"

#include <stdexcept>

#include "impetus/session/state_stream.h"
#include "sensor_kinds.h"

namespace impetus {

Sensor::Sensor(std::string name, SensorType type, size_t components)
    : values_(components, 0.0), name_(std::move(name)), type_(type) {}

int Sensor::componentIndex(const std::string& component) const {
  const auto names = components();
  for (size_t i = 0; i < names.size(); ++i)
    if (component == names[i]) return static_cast<int>(i);
  return -1;
}

void Sensor::saveState(StateWriter& out) const {
  out.put(std::span<const double>(values_));
  saveMemory(out);
}

void Sensor::loadState(StateReader& in) {
  std::vector<double> values;
  in.get(values, 64);
  StateReader::requireSame(values.size(), values_.size(), "sensor readings");
  values_ = std::move(values);
  loadMemory(in);
}

const SensorType* sensorTypeFromName(const std::string& name) {
  static const std::pair<const char*, SensorType> kTypes[] = {
      {"force_torque", SensorType::ForceTorque},
      {"encoder", SensorType::Encoder},
      {"imu", SensorType::Imu},
      {"contact", SensorType::Contact}};
  for (const auto& [n, t] : kTypes)
    if (name == n) return &t;
  return nullptr;
}

std::unique_ptr<Sensor> makeSensor(SensorType type, std::string name, const Joint* joint,
                                   BodyId body) {
  const bool onJoint = type == SensorType::ForceTorque || type == SensorType::Encoder;
  if (onJoint && !joint) throw std::invalid_argument("sensor '" + name + "' needs a joint");
  if (!onJoint && body < 0) throw std::invalid_argument("sensor '" + name + "' needs a body");
  switch (type) {
    case SensorType::ForceTorque:
      return sensors::makeForceTorque(std::move(name), *joint);
    case SensorType::Encoder:
      return sensors::makeEncoder(std::move(name), *joint);
    case SensorType::Imu:
      return sensors::makeImu(std::move(name), body);
    case SensorType::Contact:
      return sensors::makeContact(std::move(name), body);
  }
  throw std::invalid_argument("unknown sensor type");
}

}  // namespace impetus
