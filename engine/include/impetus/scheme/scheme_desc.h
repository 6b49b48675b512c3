#pragma once
// The functional scheme and the operator console as described in a scene (GUI-free plain data; the
// scene loader fills them, with line numbers for its error messages).

#include <map>
#include <string>
#include <vector>

namespace impetus {

/// One block of the scheme: its type, its name, parameters and where its inputs come from.
struct BlockDesc {
  std::string type;  ///< e.g. "gain", "pid", "mixer" (see scenes/README.md)
  std::string name;  ///< unique in the scheme
  std::map<std::string, std::string> params;  ///< e.g. {"k", "0.5"}, {"channel", "drive.y"}
  /// Input port -> source "block" (its first output) or "block.port".
  std::map<std::string, std::string> inputs;
  int line = 0;  ///< source line for error messages (0 = unknown)
  /// The <include prefix> that brought the block in (nested prefixes joined): the names its
  /// parameters give (motors, joints, bodies, sensors, channels) are this robot's, and the
  /// scene knows them with this prefix. Empty for the scene's own blocks.
  std::string prefix;
};

struct SchemeDesc {
  std::vector<BlockDesc> blocks;
};

/// A control the console shows (the GUI renders these; the scheme reads their channels).
struct ControlDesc {
  enum class Kind { Joystick, Toggle, Button, Slider, Lamp, Readout };
  Kind kind = Kind::Button;
  std::string name;
  std::string label;
  std::vector<std::string> channels;  ///< joystick: x then y; toggle/button/slider: one
  bool springReturn = true;           ///< joysticks return to 0 when released
  bool invertX = false;  ///< joysticks: the x channel reads -x (+1 to the left, as walk.lateral)
  double minimum = -1.0, maximum = 1.0;  ///< sliders
  std::string keys;                      ///< keyboard binding, e.g. "WASD", "arrows", "G"
  std::string signal;                    ///< lamps/readouts: a scheme signal "block.port" or probe
  std::string joystickAxis;              ///< physical joystick mapping, e.g. "axis0", "button3"
  /// The robot the control belongs to: the <include prefix> that brought it in (empty: the
  /// scene's own). The GUI panels each robot apart and sends the keys to the one chosen.
  std::string robot;
  int line = 0;
};

struct ConsoleDesc {
  std::vector<ControlDesc> controls;
  /// The input channels the console provides (every control's channels, in order).
  std::vector<std::string> channels() const;
};

}  // namespace impetus
