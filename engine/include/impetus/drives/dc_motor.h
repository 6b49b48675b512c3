#pragma once
// A DC gearmotor in the solver (seed 001): its rotor is a 1-DOF solver entity (angle alpha_m,
// speed w_m, inertia I_m) tied to the joint by a rigid gear row
//
//     joint rate - ratio * w_m = 0,   J = [J_joint | -ratio],  ratio = 1 / r  (or lead / r)
//
// and driven by the mechanical characteristic tau_m = M_s (u - w_m / w_0) (seed 001 eq. 3), with
// the load's viscous friction b reflected to the rotor (b ratio^2). Without armature inductance the
// characteristic is a soft row on the rotor,
//
//     w_m+ + gamma p = alpha w_inf - beta w_m,     w_inf = M_s u / c,  c = M_s / w_0 + b ratio^2,
//
// whose coefficients make it exact both for a free single link (the exponential
// w_inf + (w - w_inf) e^(-x), x = c dt / I_eff, I_eff = I_m + ratio^2 I_load) and at stall
// (impulse M_s u dt whatever the load): with g = gamma I_eff,
//     g = (1 - e^-x) / (x - 1 + e^-x),  alpha = g x,  beta = g - e^-x (1 + g).
// (x -> 0 gives the trapezoidal rule.) With T_e > 0 the torque is a state (seed 002 eq. 17-18),
// advanced exactly over the step for the rotor speed at its start and applied as a rotor impulse.

#include <string>

#include "impetus/drives/dc_motor_params.h"

namespace impetus {

class StateWriter;
class StateReader;

class DcMotor {
 public:
  DcMotor(std::string name, const DcMotorParams& params, int rotorSlot);

  const std::string& name() const { return name_; }
  const DcMotorParams& params() const { return params_; }
  /// Voltage, brake command, rotor state and torques, bit-exact.
  void saveState(StateWriter& out) const;
  void loadState(StateReader& in);
  int rotorSlot() const { return rotorSlot_; }

  /// Normalised voltage u = U / U_max, clamped to [-1, 1]; NaN throws std::invalid_argument.
  void setVoltage(double u);
  double voltage() const { return voltage_; }
  /// Engages (true) or releases the holding brake.
  void setBrake(bool engaged) { brakeCommand_ = engaged; }
  bool brakeEngaged() const {
    return params_.brakeTorque > 0.0 &&
           (brakeCommand_ || (params_.brakeWhenIdle && voltage_ == 0.0));
  }

  /// Joint rate per rotor speed: 1/r for revolute joints, lead/r (m/rad) for prismatic ones.
  double ratio() const { return ratio_; }
  void setRatio(double ratio) { ratio_ = ratio; }

  // Readouts after a step.
  double angle() const { return angle_; }    ///< rotor angle (unit: rad)
  double speed() const { return speed_; }    ///< rotor speed (unit: rad/s)
  double torque() const { return torque_; }  ///< electromagnetic torque on the rotor (unit: N m)
  /// Armature current: torque / K_t with K_t = M_s / I_s (unit: A); in stall-current units
  /// (I / I_s) when the datasheet gives no stall current.
  double current() const;

  // Used by the world and the joint that carries the motor.
  void setState(double angle, double speed) {
    angle_ = angle;
    speed_ = speed;
  }
  void setTorque(double t) { torque_ = t; }
  double electricalTorque() const { return electricalTorque_; }
  void setElectricalTorque(double t) { electricalTorque_ = t; }
  /// Rotor impulse over a step of dt for T_e > 0 (advances the torque state). I_eff: rotor side.
  double electricalImpulse(double dt, double rotorSpeed, double effectiveInertia);
  /// Coefficients of the characteristic row for this step (T_e == 0).
  struct CharacteristicRow {
    double softness;  ///< gamma
    double target;    ///< alpha w_inf - beta w_m
  };
  CharacteristicRow characteristicRow(double dt, double rotorSpeed, double effectiveInertia) const;
  /// c = M_s / w_0 + b ratio^2: the rotor-side damping of the characteristic (unit: N m s/rad).
  double rotorDamping() const;

 private:
  std::string name_;
  DcMotorParams params_;
  int rotorSlot_;
  double ratio_ = 1.0;
  double voltage_ = 0.0;
  bool brakeCommand_ = false;
  double angle_ = 0.0;
  double speed_ = 0.0;
  double torque_ = 0.0;
  double electricalTorque_ = 0.0;
};

}  // namespace impetus
