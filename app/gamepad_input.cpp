#include "gamepad_input.h"

#include <SDL.h>

#include <algorithm>

namespace impetus::app {

GamepadInput::GamepadInput() {
  // Joysticks only: SDL must not touch video or audio (Qt owns the window).
  SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
  if (SDL_InitSubSystem(SDL_INIT_JOYSTICK) != 0) {
    error_ = SDL_GetError();
    return;
  }
  available_ = true;
  openFirst();
}

GamepadInput::~GamepadInput() {
  if (joystick_) SDL_JoystickClose(static_cast<SDL_Joystick*>(joystick_));
  if (available_) SDL_QuitSubSystem(SDL_INIT_JOYSTICK);
}

void GamepadInput::openFirst() {
  for (int i = 0; i < SDL_NumJoysticks() && !joystick_; ++i) {
    SDL_Joystick* j = SDL_JoystickOpen(i);
    if (!j) continue;
    joystick_ = j;
    instanceId_ = SDL_JoystickInstanceID(j);
    state_.connected = true;
    state_.name = SDL_JoystickName(j) ? SDL_JoystickName(j) : "joystick";
    state_.axes.assign(size_t(std::max(0, SDL_JoystickNumAxes(j))), 0.0);
    state_.buttons.assign(size_t(std::max(0, SDL_JoystickNumButtons(j))), false);
  }
}

const GamepadState& GamepadInput::poll() {
  if (!available_) return state_;
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if (event.type == SDL_JOYDEVICEREMOVED && event.jdevice.which == instanceId_) {
      SDL_JoystickClose(static_cast<SDL_Joystick*>(joystick_));
      joystick_ = nullptr;
      instanceId_ = -1;
      state_ = {};
    }
    if (event.type == SDL_JOYDEVICEADDED && !joystick_) openFirst();
  }
  if (!joystick_) openFirst();  // also catches devices added before events were pumped
  if (auto* j = static_cast<SDL_Joystick*>(joystick_)) {
    SDL_JoystickUpdate();
    for (size_t i = 0; i < state_.axes.size(); ++i)
      state_.axes[i] = std::max(-1.0, SDL_JoystickGetAxis(j, int(i)) / 32767.0);
    for (size_t i = 0; i < state_.buttons.size(); ++i)
      state_.buttons[i] = SDL_JoystickGetButton(j, int(i)) != 0;
  }
  return state_;
}

}  // namespace impetus::app
