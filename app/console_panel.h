#pragma once
// The operator's control panel, generated from the scene's console description: 2-axis virtual
// joysticks, toggles, push buttons, sliders, indicator lamps and numeric readouts. Joysticks and
// toggles also answer their keyboard keys, and a physical joystick through its mapping
// ("axis0 axis1", "button2", ...). The panel owns the input frame: one value per console channel.
// A scene with several robots (<include prefix>) gets a tab a robot: the robot whose tab is
// shown is the one the keys and the gamepad drive.

#include <QWidget>
#include <array>
#include <span>
#include <vector>

#include "gamepad_state.h"
#include "impetus/scheme/scheme_desc.h"

class QAbstractButton;
class QLabel;
class QSlider;
class QTabWidget;

namespace impetus::app {

class IndicatorLamp;
class JoystickWidget;

class ConsolePanel : public QWidget {
  Q_OBJECT
 public:
  explicit ConsolePanel(QWidget* parent = nullptr);

  /// Rebuilds the panel for a console (all channels start at 0).
  void build(const ConsoleDesc& console);
  /// The input frame, in ConsoleDesc::channels() order.
  std::span<const double> channelValues() const { return values_; }
  /// Keyboard: true if a control took the key.
  bool handleKey(int key, bool pressed);
  /// Every key some control answers to (Qt::Key values, each once).
  std::vector<int> keys() const;
  /// A physical joystick's state (axes beyond a small dead zone override the on-screen stick).
  void applyGamepad(const GamepadState& pad);
  /// Lamp and readout values, in ConsoleDesc order (Snapshot::indicators).
  void showIndicators(std::span<const double> values);
  /// Replays: shows a recorded input frame and ignores the operator.
  void showRecordedInput(std::span<const double> channels);
  void setInteractive(bool on);
  /// Takes over a recorded input frame as the operator's own: switches and sliders keep their
  /// recorded state, sticks and push buttons start released.
  void adoptInput(std::span<const double> channels);

  /// The robots of the console (their include prefixes, in scene order; empty for one robot),
  /// and the one the keys and the gamepad drive.
  const std::vector<std::string>& robots() const { return robots_; }
  const std::string& selectedRobot() const { return selected_; }
  void selectRobot(const std::string& robot);

  /// Widgets by control name (GUI tests drive them like an operator).
  JoystickWidget* joystick(const QString& name) const;
  QAbstractButton* button(const QString& name) const;
  QSlider* slider(const QString& name) const;
  IndicatorLamp* lamp(const QString& name) const;
  QLabel* readout(const QString& name) const;

 signals:
  void inputChanged();
  /// The operator chose another robot (its include prefix).
  void robotSelected(const std::string& robot);

 private:
  struct Control {
    ControlDesc desc;
    std::vector<int> channels;  ///< indices into values_
    QWidget* widget = nullptr;
    QLabel* valueLabel = nullptr;  ///< sliders' value, readouts
    std::vector<int> padAxes;      ///< physical mapping
    int padButton = -1;
    bool padButtonWasDown = false;
    std::vector<double> padLast;     ///< last seen axis values (sliders follow changes only)
    std::array<int, 4> stickKeys{};  ///< a joystick's keys: up, left, down, right (0: none)
  };
  void setChannel(int index, double value);
  void applyKeysTo(Control& c);
  void clear();
  /// Whether the keys and the gamepad reach this control (the scene's own, or the chosen
  /// robot's).
  bool driven(const Control& c) const { return c.desc.robot.empty() || c.desc.robot == selected_; }

  std::vector<Control> controls_;
  std::vector<double> values_;
  std::vector<int> keysDown_;
  bool interactive_ = true;
  std::vector<std::string> robots_;
  std::string selected_;
  QTabWidget* robotTabs_ = nullptr;
};

}  // namespace impetus::app
