#pragma once
// A DC gearmotor from its datasheet ("passport") values, seed 001. Settings only; the runtime
// state lives in DcMotor.

#include <string>

namespace impetus {

struct DcMotorParams {
  double stallTorque = 0.0;   ///< M_s, rotor side at u = 1 (unit: N m)
  double noLoadSpeed = 0.0;   ///< w_0, rotor side at u = 1 (unit: rad/s)
  double timeConstant = 0.0;  ///< t_m, electromechanical time constant (unit: s); gives I_m
  double rotorInertia = 0.0;  ///< I_m (unit: kg m^2); 0 = derive I_m = M_s t_m / w_0 (seed 001)
  double electricalTimeConstant = 0.0;  ///< T_e = L / R (unit: s); 0 = torque follows at once
  double gearRatio = 1.0;               ///< r >= 1: joint rate = rotor speed / r
  double lead = 0.0;  ///< prismatic joints: metres of travel per rotor radian before the gear
  double viscousFriction = 0.0;  ///< b on the load side (unit: N m s/rad or N s/m)
  double brakeTorque = 0.0;      ///< holding brake, rotor side (unit: N m); 0 = no brake
  bool brakeWhenIdle = false;    ///< engage the brake whenever u == 0
  /// Gear compliance (seed 003's flexible joints): the rotor reaches the joint through a
  /// torsional spring and damper, joint side (unit: N m/rad and N m s/rad; N/m and N s/m for a
  /// screw). 0: a rigid gear.
  double gearStiffness = 0.0;
  double gearDamping = 0.0;
  bool compliantGear() const { return gearStiffness > 0.0; }

  /// I_m from the datasheet (explicit value, or M_s t_m / w_0).
  double effectiveRotorInertia() const {
    return rotorInertia > 0.0 ? rotorInertia : stallTorque * timeConstant / noLoadSpeed;
  }
  /// Torque constant K_t = M_s / I_stall is not on every datasheet; with the stall current given
  /// it is M_s / I_s. Without it, current is reported in units of the stall current.
  double stallCurrent = 0.0;  ///< I_s (unit: A); 0 = report current normalised to stall
};

/// Throws std::invalid_argument naming the motor if the parameters are not physical.
void validate(const DcMotorParams& params, const std::string& motorName);

}  // namespace impetus
