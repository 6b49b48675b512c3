#pragma once
// Physical joysticks and gamepads through SDL2 (Qt6 has no gamepad module). Polled once per GUI
// frame; devices may be plugged in and out at any time: the first one connected is used, and
// when it goes the next one (if any) takes over.

#include <string>

#include "gamepad_state.h"

namespace impetus::app {

class GamepadInput {
 public:
  GamepadInput();
  ~GamepadInput();
  GamepadInput(const GamepadInput&) = delete;
  GamepadInput& operator=(const GamepadInput&) = delete;

  /// False (and error() says why) if SDL's joystick subsystem could not start.
  bool available() const { return available_; }
  const std::string& error() const { return error_; }
  /// Handles hot-plug events and reads the device in use.
  const GamepadState& poll();
  const GamepadState& state() const { return state_; }

 private:
  void openFirst();
  bool available_ = false;
  std::string error_;
  void* joystick_ = nullptr;  ///< SDL_Joystick*
  int instanceId_ = -1;
  GamepadState state_;
};

}  // namespace impetus::app
