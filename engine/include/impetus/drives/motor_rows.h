#pragma once
// The rotor-only rows of a DC motor, shared by motors geared to a joint and track drives.

#include "impetus/drives/dc_motor.h"
#include "impetus/solver/row_buffer.h"

namespace impetus {

/// The characteristic row (T_e == 0; see DcMotor); returns its row index.
int addCharacteristicRow(RowBuffer& rows, const DcMotor& motor, double dt, double rotorSpeed,
                         double effectiveInertia);

/// The characteristic row under servo control (DcMotor::servoRow) for the joint coordinate q.
int addServoRow(RowBuffer& rows, DcMotor& motor, double dt, double rotorSpeed,
                double effectiveInertia, double jointPosition, double loadTorque);

/// The holding brake row, |p| <= brake torque * dt while engaged and 0 otherwise (present
/// whenever the motor has a brake, so warm starting keeps its slot); returns its row index.
int addBrakeRow(RowBuffer& rows, const DcMotor& motor, double dt);

}  // namespace impetus
