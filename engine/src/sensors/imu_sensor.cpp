// imu: an inertial unit at a body's centre of mass. The accelerometer reads the specific force
// a - g in the body frame, a from the velocity change over the step (the engine's velocities are
// step averages, so this is the step's mean acceleration); the gyro the body-frame angular
// velocity; plus roll, pitch, yaw.
#include "impetus/dynamics/world.h"
#include "impetus/session/state_stream.h"
#include "sensor_kinds.h"

namespace impetus::sensors {
namespace {

class ImuSensor : public Sensor {
 public:
  ImuSensor(std::string name, BodyId body)
      : Sensor(std::move(name), SensorType::Imu, 9), body_(body) {}
  std::span<const char* const> components() const override { return kComponents; }
  bool hasMemory() const override { return true; }

  void update(const World& world, double dt) override {
    const RigidBody& b = world.body(body_);
    const Vec3 a = dt > 0.0 ? Vec3((b.linearVelocity - previousVelocity_) / dt) : Vec3::Zero();
    previousVelocity_ = b.linearVelocity;
    const Mat3 r = b.orientation.toRotationMatrix();
    const Vec3 specific = r.transpose() * (a - world.settings().gravity);
    const Vec3 gyro = r.transpose() * b.angularVelocity;
    for (int i = 0; i < 3; ++i) {
      values_[size_t(i)] = specific[i];
      values_[size_t(3 + i)] = gyro[i];
    }
    const Vec3 angles = rollPitchYaw(b.orientation);
    for (int i = 0; i < 3; ++i) values_[size_t(6 + i)] = angles[i];
  }

 private:
  void saveMemory(StateWriter& out) const override { out.put(previousVelocity_); }
  void loadMemory(StateReader& in) override { in.get(previousVelocity_); }
  static constexpr const char* kComponents[] = {"ax", "ay",   "az",    "wx", "wy",
                                                "wz", "roll", "pitch", "yaw"};
  BodyId body_;
  Vec3 previousVelocity_ = Vec3::Zero();
};

}  // namespace

std::unique_ptr<Sensor> makeImu(std::string name, BodyId body) {
  return std::make_unique<ImuSensor>(std::move(name), body);
}

}  // namespace impetus::sensors
