#pragma once

namespace impetus {

/// When resting bodies stop costing anything. An island - bodies linked by joints and contacts,
/// the ground and kinematic bodies not linking - sleeps once every body in it has moved slower
/// than both tolerances for timeToSleep: it is then neither integrated nor solved, and its
/// contacts with other resting bodies keep their last points and impulses (force read-outs stay
/// true). It wakes as a whole when an active body touches it, a moving kinematic body drags it,
/// a force, torque or velocity is put on one of its bodies, or World::wake is called. Islands with
/// a motor (a drive geared to a joint, a track) never sleep: a robot under command must respond.
/// Linear tolerance and time are Box2D's (b2_linearSleepTolerance, b2_timeToSleep); its angular
/// 2 deg/s kept a resting ragdoll awake on the solver's jitter in its light limbs (0.01-0.04
/// rad/s, a hand's surface moving < 3 mm/s), so here 0.1 rad/s (ODE 0.01, Bullet 1.0 rad/s).
struct SleepSettings {
  bool enabled = true;
  double linearTolerance = 0.01;  ///< centre-of-mass speed (unit: m/s)
  double angularTolerance = 0.1;  ///< about 6 deg/s (unit: rad/s)
  double timeToSleep = 0.5;       ///< (unit: s)
};

}  // namespace impetus
