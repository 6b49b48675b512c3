#pragma once
// The sensor kinds (one file each), built through makeSensor().
#include <memory>
#include <string>

#include "impetus/sensors/sensor.h"

namespace impetus::sensors {

std::unique_ptr<Sensor> makeForceTorque(std::string name, const Joint& joint);
std::unique_ptr<Sensor> makeEncoder(std::string name, const Joint& joint);
std::unique_ptr<Sensor> makeImu(std::string name, BodyId body);
std::unique_ptr<Sensor> makeContact(std::string name, BodyId body);

}  // namespace impetus::sensors
