#pragma once
// A tracked test vehicle: a box hull with a track on each side, each track driven by its own
// gearmotor through a sprocket (skid steer). Used by the tests, the benchmarks and the GUI.

#include "impetus/dynamics/world.h"

namespace impetus::scenes {

struct TrackedVehicleOptions {
  Vec3 position = Vec3(0, 0, 0);  ///< of the hull's ground footprint centre (m)
  Quat orientation = Quat::Identity();
  double hullMass = 40.0;                  ///< (kg)
  Vec3 hullSize = Vec3(0.8, 0.5, 0.2);     ///< (m)
  Vec3 trackSize = Vec3(0.9, 0.12, 0.15);  ///< each track's box (m)
  double sprocketRadius = 0.08;            ///< (m)
  int material = 0;                        ///< of the tracks
  DcMotorParams motor = defaultMotor();
  static DcMotorParams defaultMotor() {
    DcMotorParams p;  // a 24 V gearmotor class: 0.6 N m stall, 1800 rpm, r = 30
    p.stallTorque = 0.6;
    p.noLoadSpeed = 190.0;
    p.timeConstant = 0.02;
    p.gearRatio = 30.0;
    return p;
  }
};

struct TrackedVehicle {
  BodyId hull = -1;
  DcMotor* left = nullptr;
  DcMotor* right = nullptr;
  /// No-load ground speed at u = 1: sprocket radius * w_0 / r (m/s).
  double topSpeed = 0.0;
};

TrackedVehicle buildTrackedVehicle(World& world, const TrackedVehicleOptions& options = {});

}  // namespace impetus::scenes
