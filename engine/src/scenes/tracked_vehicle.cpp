#include "impetus/scenes/tracked_vehicle.h"

#include "impetus/scenes/hinge_chain.h"

namespace impetus::scenes {

TrackedVehicle buildTrackedVehicle(World& world, const TrackedVehicleOptions& o) {
  TrackedVehicle v;
  // Hull centre: the tracks' bottoms touch the ground; the hull sits between their tops.
  const double trackHalfHeight = 0.5 * o.trackSize.z();
  RigidBodyDesc hull;
  hull.name = "hull";
  hull.mass = o.hullMass;
  hull.inertia = boxInertia(
      o.hullMass, Vec3(o.trackSize.x(), o.hullSize.y() + 2 * o.trackSize.y(), o.trackSize.z()));
  hull.position = o.position + o.orientation * Vec3(0, 0, trackHalfHeight);
  hull.orientation = o.orientation;
  v.hull = world.addBody(hull);

  ShapeDesc body;
  body.type = ShapeType::Box;
  body.size = o.hullSize;
  body.position = Vec3(0, 0, 0.5 * o.hullSize.z());
  world.addShape(v.hull, body);

  v.left = &world.addMotor("track_left", o.motor);
  v.right = &world.addMotor("track_right", o.motor);
  for (int side = 0; side < 2; ++side) {
    ShapeDesc track;
    track.type = ShapeType::Box;
    track.size = o.trackSize;
    track.material = o.material;
    track.position = Vec3(0, (side == 0 ? 1 : -1) * 0.5 * (o.hullSize.y() + o.trackSize.y()), 0);
    track.trackMotor = world.motorCount() - 2 + side;
    track.trackDirection = Vec3::UnitX();
    track.sprocketRadius = o.sprocketRadius;
    world.addShape(v.hull, track);
  }
  v.topSpeed = o.sprocketRadius * o.motor.noLoadSpeed / o.motor.gearRatio;
  return v;
}

}  // namespace impetus::scenes
