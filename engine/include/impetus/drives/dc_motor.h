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
//
// A servo amplifier may close a position loop around the drive (`setServo`): the voltage is
// u = kp (q_ref - q) + kd (qd_ref - qd), saturated at +-1, with q and qd the joint's coordinate
// and rate. Real amplifiers run that loop at kilohertz, so it is evaluated at the end of the step,
// implicitly: unsaturated, u = u_0 - k w_m+ with k = (kp dt + kd) ratio, which is the
// characteristic above with c' = c + M_s k and w_inf = M_s u_0 / c' - as stiff as the gains ask
// and stable at any gain (an explicit loop at 10 ms is stable only while kp w_0 ratio dt < ~1).
// Saturation is decided from the free-link prediction of w_m+; then u = +-1. Under servo control
// the armature lag T_e (a tenth of a millisecond to a millisecond for servo motors, against the
// 10 ms step) is not modelled: the loop is solved implicitly with the rest of the world, where
// an in-step integration of lag and loop against the free link alone would put the held
// position off by half of the load's deflection.

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
  /// Ends servo control.
  void setVoltage(double u);
  /// The last voltage applied (under servo control: the loop's output at the end of the step).
  double voltage() const { return voltage_; }

  /// A position loop closed by the drive's amplifier (see above). Joint units: rad or m.
  struct ServoCommand {
    double position = 0.0;  ///< q_ref
    double rate = 0.0;      ///< qd_ref, feed-forward (unit: rad/s or m/s)
    double kp = 0.0;        ///< normalised voltage per unit of position error (1/rad or 1/m)
    double kd = 0.0;        ///< normalised voltage per unit of rate error (s/rad or s/m)
  };
  /// Puts the drive under servo control until the next setVoltage; non-finite or negative gains
  /// throw std::invalid_argument.
  void setServo(const ServoCommand& command);
  bool servoActive() const { return servoActive_; }
  const ServoCommand& servo() const { return servo_; }
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
  /// True when the torque is a state advanced by electricalImpulse (T_e > 0, no servo).
  bool torqueIsState() const { return params_.electricalTimeConstant > 0.0 && !servoActive_; }
  /// Coefficients of the characteristic row for this step (T_e == 0).
  struct CharacteristicRow {
    double softness;  ///< gamma
    double target;    ///< alpha w_inf - beta w_m
  };
  CharacteristicRow characteristicRow(double dt, double rotorSpeed, double effectiveInertia) const;
  /// The same row under servo control, for the joint's coordinate q at the start of the step;
  /// records the loop's voltage. loadTorque (N m, on the rotor): what the load applies to it that
  /// effectiveInertia does not hold (a compliant gear's spring), for the saturation test only.
  CharacteristicRow servoRow(double dt, double rotorSpeed, double effectiveInertia,
                             double jointPosition, double loadTorque = 0.0);
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
  bool servoActive_ = false;
  ServoCommand servo_;

  CharacteristicRow rowFor(double c, double wInf, double dt, double rotorSpeed,
                           double effectiveInertia) const;
};

}  // namespace impetus
