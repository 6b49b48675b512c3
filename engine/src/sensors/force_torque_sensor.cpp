// force_torque: a 6-axis load cell in a joint, reading the reaction on the child body at the
// anchor in the child's joint frame (what a wrist F/T sensor between two links measures), and the
// force's magnitude for a readout.
#include "impetus/joints/joint.h"
#include "sensor_kinds.h"

namespace impetus::sensors {
namespace {

class ForceTorqueSensor : public Sensor {
 public:
  ForceTorqueSensor(std::string name, const Joint& joint)
      : Sensor(std::move(name), SensorType::ForceTorque, 7), joint_(joint) {}
  std::span<const char* const> components() const override { return kComponents; }
  void update(const World&, double) override {
    for (int i = 0; i < 3; ++i) {
      values_[size_t(i)] = joint_.reactionForce()[i];
      values_[size_t(3 + i)] = joint_.reactionTorque()[i];
    }
    values_[6] = joint_.reactionForce().norm();
  }

 private:
  static constexpr const char* kComponents[] = {"fx", "fy", "fz", "tx", "ty", "tz", "force"};
  const Joint& joint_;
};

}  // namespace

std::unique_ptr<Sensor> makeForceTorque(std::string name, const Joint& joint) {
  return std::make_unique<ForceTorqueSensor>(std::move(name), joint);
}

}  // namespace impetus::sensors
