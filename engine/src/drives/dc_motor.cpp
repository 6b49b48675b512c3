#include "impetus/drives/dc_motor.h"

#include "impetus/session/state_stream.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace impetus {

void validate(const DcMotorParams& p, const std::string& name) {
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument("motor '" + name + "': " + what);
  };
  const auto finite = [](double v) { return std::isfinite(v); };
  if (!(p.stallTorque > 0.0) || !finite(p.stallTorque)) fail("stall_torque must be positive");
  if (!(p.noLoadSpeed > 0.0) || !finite(p.noLoadSpeed)) fail("no_load_speed must be positive");
  if (!(p.gearRatio > 0.0) || !finite(p.gearRatio)) fail("gear_ratio must be positive");
  if (!(p.rotorInertia >= 0.0) || !(p.timeConstant >= 0.0) || !finite(p.rotorInertia) ||
      !finite(p.timeConstant))
    fail("rotor_inertia and time_constant must be non-negative");
  if (!(p.effectiveRotorInertia() > 0.0))
    fail("needs rotor_inertia or time_constant (I_m = M_s t_m / w_0) to be positive");
  if (!(p.electricalTimeConstant >= 0.0) || !(p.viscousFriction >= 0.0) ||
      !(p.brakeTorque >= 0.0) || !(p.lead >= 0.0) || !(p.stallCurrent >= 0.0))
    fail("electrical_time_constant, viscous_friction, brake, lead and stall current must be >= 0");
  if (!(p.gearStiffness >= 0.0) || !(p.gearDamping >= 0.0) || !finite(p.gearStiffness) ||
      !finite(p.gearDamping))
    fail("gear_stiffness and gear_damping must be finite and >= 0");
  if (p.gearDamping > 0.0 && !p.compliantGear())
    fail("gear_damping needs a gear_stiffness (a rigid gear has nothing to damp)");
}

DcMotor::DcMotor(std::string name, const DcMotorParams& params, int rotorSlot)
    : name_(std::move(name)), params_(params), rotorSlot_(rotorSlot) {
  validate(params_, name_);
  ratio_ = 1.0 / params_.gearRatio;
}

void DcMotor::setVoltage(double u) {
  if (std::isnan(u)) throw std::invalid_argument("motor '" + name_ + "': voltage is NaN");
  voltage_ = std::clamp(u, -1.0, 1.0);
  servoActive_ = false;
}

double DcMotor::current() const {
  const double normalised = torque_ / params_.stallTorque;  // I / I_s, as tau = K_t I
  return params_.stallCurrent > 0.0 ? normalised * params_.stallCurrent : normalised;
}

double DcMotor::rotorDamping() const {
  return params_.stallTorque / params_.noLoadSpeed + params_.viscousFriction * ratio_ * ratio_;
}

void DcMotor::setServo(const ServoCommand& command) {
  if (!std::isfinite(command.position) || !std::isfinite(command.rate))
    throw std::invalid_argument("motor '" + name_ + "': servo setpoint is not finite");
  if (!(command.kp >= 0.0) || !(command.kd >= 0.0) || !std::isfinite(command.kp) ||
      !std::isfinite(command.kd))
    throw std::invalid_argument("motor '" + name_ + "': servo gains must be finite and >= 0");
  servo_ = command;
  servoActive_ = true;
}

DcMotor::CharacteristicRow DcMotor::rowFor(double c, double wInf, double dt, double rotorSpeed,
                                           double effectiveInertia) const {
  const double x = c * dt / effectiveInertia;
  const double ex = std::exp(-x);
  // g = (1 - e^-x) / (x - 1 + e^-x); its series 2/x + 2/3 + x/18 avoids cancellation at small x.
  const double g = x > 1e-3 ? (1.0 - ex) / (x - 1.0 + ex) : 2.0 / x + 2.0 / 3.0 + x / 18.0;
  const double alpha = g * x;
  const double beta = g - ex * (1.0 + g);
  return {g / effectiveInertia, alpha * wInf - beta * rotorSpeed};
}

DcMotor::CharacteristicRow DcMotor::characteristicRow(double dt, double rotorSpeed,
                                                      double effectiveInertia) const {
  const double c = rotorDamping();
  return rowFor(c, params_.stallTorque * voltage_ / c, dt, rotorSpeed, effectiveInertia);
}

DcMotor::CharacteristicRow DcMotor::servoRow(double dt, double rotorSpeed, double effectiveInertia,
                                             double jointPosition, double loadTorque) {
  const double ms = params_.stallTorque;
  const double u0 = servo_.kp * (servo_.position - jointPosition) + servo_.kd * servo_.rate;
  const double k = (servo_.kp * dt + servo_.kd) * ratio_;  // per rotor rad/s at the step's end
  const double c = rotorDamping() + ms * k;
  const double wInf = ms * u0 / c;
  // The free link's rotor speed at the end of the step decides whether the loop saturates; a
  // load torque shifts where the rotor is heading. (Without it, a servo behind a spring pressing
  // its link against an obstacle saw a free rotor and never saturated: the row's torque, which
  // nothing bounds, wound the spring to 20 times the motor's stall torque.)
  const double heading = wInf + loadTorque / c;
  const double predicted = heading + (rotorSpeed - heading) * std::exp(-c * dt / effectiveInertia);
  const double u = u0 - k * predicted;
  if (std::abs(u) <= 1.0) {
    voltage_ = u;
    return rowFor(c, wInf, dt, rotorSpeed, effectiveInertia);
  }
  voltage_ = u > 0.0 ? 1.0 : -1.0;
  return characteristicRow(dt, rotorSpeed, effectiveInertia);
}

double DcMotor::electricalImpulse(double dt, double rotorSpeed, double effectiveInertia) {
  // Seed 002 eq. 17: T_e dtau/dt + tau = M_s (u - w / w_0), coupled to I_eff dw/dt = tau - c_b w
  // (c_b: reflected load friction), by classical Runge-Kutta on sub-intervals short against
  // T_e and the mechanical time constant (at least 8).
  const double te = params_.electricalTimeConstant;
  const double ms = params_.stallTorque, w0 = params_.noLoadSpeed;
  const double cb = params_.viscousFriction * ratio_ * ratio_;
  const double a00 = -cb / effectiveInertia, a01 = 1.0 / effectiveInertia;
  const double a10 = -ms / (w0 * te), a11 = -1.0 / te;
  const double b1 = ms * voltage_ / te;
  const double fastest = std::max(1.0 / te, (ms / w0 + cb) / effectiveInertia);
  const int n = std::clamp(static_cast<int>(std::ceil(dt * fastest)), 8, 1024);
  const double h = dt / n;
  double w = rotorSpeed, tau = electricalTorque_, impulse = 0.0;
  for (int i = 0; i < n; ++i) {
    const auto f = [&](double ww, double tt, double& dw, double& dtau) {
      dw = a00 * ww + a01 * tt;
      dtau = a10 * ww + a11 * tt + b1;
    };
    double k1w, k1t, k2w, k2t, k3w, k3t, k4w, k4t;
    f(w, tau, k1w, k1t);
    f(w + 0.5 * h * k1w, tau + 0.5 * h * k1t, k2w, k2t);
    f(w + 0.5 * h * k2w, tau + 0.5 * h * k2t, k3w, k3t);
    f(w + h * k3w, tau + h * k3t, k4w, k4t);
    impulse +=
        h / 6.0 * (tau + 2 * (tau + 0.5 * h * k1t) + 2 * (tau + 0.5 * h * k2t) + (tau + h * k3t));
    w += h / 6.0 * (k1w + 2 * k2w + 2 * k3w + k4w);
    tau += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t);
  }
  electricalTorque_ = tau;
  return impulse;
}

void DcMotor::saveState(StateWriter& out) const {
  out.put(voltage_);
  out.put(brakeCommand_);
  out.put(angle_);
  out.put(speed_);
  out.put(torque_);
  out.put(electricalTorque_);
  out.put(servoActive_);
  out.put(servo_.position);
  out.put(servo_.rate);
  out.put(servo_.kp);
  out.put(servo_.kd);
}

void DcMotor::loadState(StateReader& in) {
  in.get(voltage_);
  in.get(brakeCommand_);
  in.get(angle_);
  in.get(speed_);
  in.get(torque_);
  in.get(electricalTorque_);
  in.get(servoActive_);
  in.get(servo_.position);
  in.get(servo_.rate);
  in.get(servo_.kp);
  in.get(servo_.kd);
}

}  // namespace impetus
