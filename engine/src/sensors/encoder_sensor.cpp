// encoder: a joint's coordinate and rate (an absolute encoder on the joint axis).
#include "impetus/joints/joint.h"
#include "sensor_kinds.h"

namespace impetus::sensors {
namespace {

class EncoderSensor : public Sensor {
 public:
  EncoderSensor(std::string name, const Joint& joint)
      : Sensor(std::move(name), SensorType::Encoder, 2), joint_(joint) {}
  std::span<const char* const> components() const override { return kComponents; }
  void update(const World&, double) override {
    values_[0] = joint_.position();
    values_[1] = joint_.rate();
  }

 private:
  static constexpr const char* kComponents[] = {"position", "rate"};
  const Joint& joint_;
};

}  // namespace

std::unique_ptr<Sensor> makeEncoder(std::string name, const Joint& joint) {
  return std::make_unique<EncoderSensor>(std::move(name), joint);
}

}  // namespace impetus::sensors
