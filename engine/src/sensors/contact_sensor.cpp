// contact: the total contact force on a body (a bumper, a foot's pressure sole, a gripper pad)
// from the last step's contact impulses.
#include "impetus/dynamics/world.h"
#include "sensor_kinds.h"

namespace impetus::sensors {
namespace {

class ContactSensor : public Sensor {
 public:
  ContactSensor(std::string name, BodyId body)
      : Sensor(std::move(name), SensorType::Contact, 6), body_(body) {}
  std::span<const char* const> components() const override { return kComponents; }
  void update(const World& world, double) override {
    const Vec3 f = world.contactForce(body_);
    int points = 0;
    for (const std::span<const ContactPoint> all :
         {world.contacts(), world.compliantContacts().points()})
      for (const ContactPoint& c : all)
        if ((c.bodyA == body_ || c.bodyB == body_) && c.normalImpulse > 0.0) ++points;
    values_ = {f.x(), f.y(), f.z(), f.norm(), double(points), points > 0 ? 1.0 : 0.0};
  }

 private:
  static constexpr const char* kComponents[] = {"fx", "fy", "fz", "force", "points", "in_contact"};
  BodyId body_;
};

}  // namespace

std::unique_ptr<Sensor> makeContact(std::string name, BodyId body) {
  return std::make_unique<ContactSensor>(std::move(name), body);
}

}  // namespace impetus::sensors
