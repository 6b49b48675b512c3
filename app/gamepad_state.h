#pragma once
// The state of the physical joystick or gamepad in use (SDL2, gamepad_input.h), as the console
// panel maps it onto its controls: axes in [-1, 1] as the device reports them, buttons held.

#include <string>
#include <vector>

namespace impetus::app {

struct GamepadState {
  bool connected = false;
  std::string name;
  std::vector<double> axes;
  std::vector<bool> buttons;
};

}  // namespace impetus::app
