#include "impetus/drives/motor_rows.h"

namespace impetus {

namespace {
/// A rotor-only soft row with the characteristic's coefficients.
int addRotorRow(RowBuffer& rows, const DcMotor& motor, const DcMotor::CharacteristicRow& c) {
  const int index = rows.addBlock(BlockKind::Equality, 1, 0, 0);
  ConstraintRow& row = rows.row(index);
  row.rotor = motor.rotorSlot();
  row.rotorJacobian = 1.0;
  row.softness = c.softness;
  row.target = c.target;
  return index;
}
}  // namespace

int addCharacteristicRow(RowBuffer& rows, const DcMotor& motor, double dt, double rotorSpeed,
                         double effectiveInertia) {
  return addRotorRow(rows, motor, motor.characteristicRow(dt, rotorSpeed, effectiveInertia));
}

int addServoRow(RowBuffer& rows, DcMotor& motor, double dt, double rotorSpeed,
                double effectiveInertia, double jointPosition, double loadTorque) {
  return addRotorRow(rows, motor,
                     motor.servoRow(dt, rotorSpeed, effectiveInertia, jointPosition, loadTorque));
}

int addBrakeRow(RowBuffer& rows, const DcMotor& motor, double dt) {
  const int index = rows.addBlock(BlockKind::Bounded, 1, 0, 0);
  ConstraintRow& row = rows.row(index);
  row.rotor = motor.rotorSlot();
  row.rotorJacobian = 1.0;
  const double bound = motor.brakeEngaged() ? motor.params().brakeTorque * dt : 0.0;
  row.lower = -bound;
  row.upper = bound;
  return index;
}

}  // namespace impetus
