#include "force_cell.h"

#include "impetus/dynamics/world.h"
#include "impetus/joints/joint.h"
#include "impetus/sensors/sensor.h"

namespace impetus::blocks {

ForceCell ForceCell::inJoint(const Sensor& sensor, const Joint& joint) {
  return {&sensor, joint.child(), joint.frameInChild().orientation.toRotationMatrix(),
          joint.frameInChild().anchor};
}

Vec3 ForceCell::force(const World& world) const {
  const RigidBody& b = world.body(body);
  return b.rotation * frameInBody * Vec3(sensor->value(0), sensor->value(1), sensor->value(2));
}

Vec3 ForceCell::torque(const World& world) const {
  const RigidBody& b = world.body(body);
  return b.rotation * frameInBody * Vec3(sensor->value(3), sensor->value(4), sensor->value(5));
}

Vec3 ForceCell::centre(const World& world) const {
  const RigidBody& b = world.body(body);
  return b.position + b.rotation * centreInBody;
}

}  // namespace impetus::blocks
