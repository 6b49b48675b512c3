#pragma once
// A rigid body in maximal coordinates: 6 DOF, stepped in LINEAR VELOCITY and ANGULAR MOMENTUM
// (seed 002, eq. 11-14: stepping L rather than w keeps free rotation stable).

#include <string>

#include "impetus/math/types.h"

namespace impetus {

using BodyId = int;

enum class BodyType {
  Static,     ///< never moves (the ground, walls)
  Kinematic,  ///< moves with prescribed velocities, unaffected by forces (scripted motion)
  Dynamic,    ///< moves under forces and constraints
};

/// What a body is made of and where it starts; the world keeps a RigidBody built from it.
struct RigidBodyDesc {
  std::string name;
  BodyType type = BodyType::Dynamic;
  double mass = 1.0;                    ///< (unit: kg), > 0 for dynamic bodies
  Mat3 inertia = Mat3::Identity();      ///< about the centre of mass, body frame (unit: kg m^2)
  Vec3 position = Vec3::Zero();         ///< of the centre of mass, world (unit: m)
  Quat orientation = Quat::Identity();  ///< body frame -> world
  Vec3 linearVelocity = Vec3::Zero();   ///< of the centre of mass, world (unit: m/s)
  Vec3 angularVelocity = Vec3::Zero();  ///< world (unit: rad/s)
  /// Swept against other moving bodies too when fast (continuous collision), not only against
  /// static and kinematic ones: for small fast projectiles (Box2D's "bullet").
  bool bullet = false;
};

struct RigidBody {
  std::string name;
  BodyType type = BodyType::Dynamic;
  double mass = 0.0;                ///< (unit: kg); 0 for static and kinematic bodies' solver view
  Mat3 inertiaBody = Mat3::Zero();  ///< about the COM, body frame (unit: kg m^2)
  bool bullet = false;              ///< RigidBodyDesc::bullet

  // State.
  Vec3 position = Vec3::Zero();         ///< centre of mass, world (unit: m)
  Quat orientation = Quat::Identity();  ///< body -> world, unit
  Vec3 linearVelocity = Vec3::Zero();   ///< (unit: m/s)
  Vec3 angularMomentum = Vec3::Zero();  ///< about the COM, world (unit: kg m^2/s); stepped state
  Vec3 force = Vec3::Zero();            ///< external force accumulator, cleared each step (unit: N)
  Vec3 torque = Vec3::Zero();  ///< external torque about COM, cleared each step (unit: N m)
  /// Part of a resting island the world put to sleep (WorldSettings::sleep): not integrated, not
  /// solved, its contacts with other resting bodies kept as they were. World::wake ends it, and so
  /// does a force or torque applied to it or an active body touching it.
  bool sleeping = false;
  double restTime = 0.0;  ///< how long the body has moved below the sleep tolerances (unit: s)

  // Derived from the state by updateDerived(); valid after every step.
  double inverseMass = 0.0;                ///< (unit: 1/kg); 0 unless dynamic
  Mat3 inverseInertiaBody = Mat3::Zero();  ///< 0 unless dynamic
  /// inertiaBody is diagonal (the body frame is a principal frame, as in most scenes): world
  /// tensors then take rotatedDiagonal's six-entry path.
  bool principalInertia = false;
  Mat3 rotation = Mat3::Identity();         ///< orientation as a matrix
  Mat3 inverseInertiaWorld = Mat3::Zero();  ///< R I^-1 R^T
  Vec3 angularVelocity = Vec3::Zero();      ///< I_world^-1 L (dynamic) or prescribed (kinematic)

  bool isDynamic() const { return type == BodyType::Dynamic; }
  /// Moves this step: an awake dynamic body, or a kinematic one with a velocity (sleeping bodies
  /// touched by an active one wake up).
  bool isActive() const {
    if (type == BodyType::Dynamic) return !sleeping;
    return type == BodyType::Kinematic &&
           (linearVelocity != Vec3::Zero() || angularVelocity != Vec3::Zero());
  }
  /// The world inverse inertia R I_body^-1 R^T at orientation `r` (unit: 1/(kg m^2)).
  Mat3 inverseInertiaAt(const Mat3& r) const {
    return principalInertia ? rotatedDiagonal(r, inverseInertiaBody.diagonal())
                            : Mat3(r * inverseInertiaBody * r.transpose());
  }
  /// Recomputes rotation, world inverse inertia and (dynamic bodies) angular velocity from L.
  void updateDerived();
  /// Velocity of a world point rigidly attached to the body (unit: m/s).
  Vec3 pointVelocity(const Vec3& worldPoint) const {
    return linearVelocity + angularVelocity.cross(worldPoint - position);
  }
  /// World coordinates of a point given in the body frame (relative to the COM).
  Vec3 toWorld(const Vec3& local) const { return position + rotation * local; }
  /// Sets the angular velocity (rad/s, world); for dynamic bodies through L = I_world w.
  void setAngularVelocity(const Vec3& w);
  /// Kinetic energy (unit: J).
  double kineticEnergy() const;
};

/// Builds the runtime body; throws std::invalid_argument on a non-physical description.
RigidBody makeRigidBody(const RigidBodyDesc& desc);

}  // namespace impetus
