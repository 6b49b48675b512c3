#include "impetus/drives/motor_rows.h"

namespace impetus {

int addCharacteristicRow(RowBuffer& rows, const DcMotor& motor, double dt, double rotorSpeed,
                         double effectiveInertia) {
  const int index = rows.addBlock(BlockKind::Equality, 1, 0, 0);
  ConstraintRow& row = rows.row(index);
  const DcMotor::CharacteristicRow c = motor.characteristicRow(dt, rotorSpeed, effectiveInertia);
  row.rotor = motor.rotorSlot();
  row.rotorJacobian = 1.0;
  row.softness = c.softness;
  row.target = c.target;
  return index;
}

int addServoRow(RowBuffer& rows, DcMotor& motor, double dt, double rotorSpeed,
                double effectiveInertia, double jointPosition) {
  const int index = rows.addBlock(BlockKind::Equality, 1, 0, 0);
  ConstraintRow& row = rows.row(index);
  const DcMotor::CharacteristicRow c =
      motor.servoRow(dt, rotorSpeed, effectiveInertia, jointPosition);
  row.rotor = motor.rotorSlot();
  row.rotorJacobian = 1.0;
  row.softness = c.softness;
  row.target = c.target;
  return index;
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
