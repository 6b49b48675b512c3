#pragma once
// A 6-axis force/torque cell in a joint (an ankle's, a wrist's), read in the world frame: the
// force and moment the joint's parent side puts on its child body, about the joint's anchor.
// The cell is taken to sit in the joint, its frame the joint's frame in the child.

#include "impetus/math/types.h"

namespace impetus {
class World;
class Sensor;
class Joint;
}  // namespace impetus

namespace impetus::blocks {

struct ForceCell {
  const Sensor* sensor = nullptr;
  int body = -1;                        ///< the child body it measures the load on
  Mat3 frameInBody = Mat3::Identity();  ///< the cell's axes in the body's frame
  Vec3 centreInBody = Vec3::Zero();     ///< the joint's anchor, body frame (m)

  static ForceCell inJoint(const Sensor& sensor, const Joint& joint);
  Vec3 force(const World& world) const;   ///< (unit: N)
  Vec3 torque(const World& world) const;  ///< about centre() (unit: N m)
  Vec3 centre(const World& world) const;  ///< (unit: m)
};

}  // namespace impetus::blocks
