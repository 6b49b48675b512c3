#include "console_panel.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "indicator_lamp.h"
#include "joystick_widget.h"

namespace impetus::app {
namespace {

/// A physical axis must leave this dead zone to override the on-screen control (stick noise).
constexpr double kPadDeadZone = 0.08;
constexpr int kSliderSteps = 1000;

/// "axis0 axis1" -> {0, 1}; "button3" -> button 3.
void parseMapping(const std::string& text, std::vector<int>& axes, int& button) {
  const QStringList parts = QString::fromStdString(text).split(' ', Qt::SkipEmptyParts);
  for (const QString& p : parts) {
    bool ok = false;
    if (p.startsWith("axis")) {
      const int i = p.mid(4).toInt(&ok);
      if (ok) axes.push_back(i);
    } else if (p.startsWith("button")) {
      const int i = p.mid(6).toInt(&ok);
      if (ok) button = i;
    }
  }
}

/// A joystick's keys, up, left, down, right: the arrows, or four keys named in that order
/// ("WASD", "IJKL", "8456").
std::array<int, 4> stickKeysOf(const std::string& keys) {
  if (keys == "arrows") return {Qt::Key_Up, Qt::Key_Left, Qt::Key_Down, Qt::Key_Right};
  std::array<int, 4> out{};
  if (keys.size() != 4) return out;
  for (size_t i = 0; i < 4; ++i) {
    const QKeySequence seq = QKeySequence::fromString(QString(QChar(keys[i])));
    out[i] = seq.isEmpty() ? 0 : seq[0].key();
  }
  return out;
}

int keyOf(const std::string& keys) {
  if (keys.empty() || keys == "arrows") return 0;
  const QKeySequence seq = QKeySequence::fromString(QString::fromStdString(keys));
  return seq.isEmpty() ? 0 : seq[0].key();
}

QString labelOf(const ControlDesc& c) {
  QString text = QString::fromStdString(c.label.empty() ? c.name : c.label);
  if (!c.keys.empty()) text += QString("  [%1]").arg(QString::fromStdString(c.keys));
  return text;
}

/// "red_" -> "red": a robot's tab title.
QString robotTitle(const std::string& prefix) {
  QString t = QString::fromStdString(prefix);
  while (t.size() > 1 && (t.endsWith('_') || t.endsWith('-'))) t.chop(1);
  return t;
}

/// One robot's part of the panel: its sticks, switches and indicators.
struct Section {
  QWidget* page = new QWidget;
  QWidget* sticks = new QWidget;
  // Three sticks a row: a robot with many (the humanoid's walking and hand sticks) would
  // otherwise widen the console until the 3D view is a strip.
  QGridLayout* sticksLayout = new QGridLayout(sticks);
  int stickCount = 0;
  QGroupBox* switches = new QGroupBox("Switches");
  QVBoxLayout* switchesLayout = new QVBoxLayout(switches);
  QGroupBox* gauges = new QGroupBox("Indicators");
  QFormLayout* gaugesLayout = new QFormLayout(gauges);
  Section() { sticksLayout->setContentsMargins(0, 0, 0, 0); }
  /// Lays out what was filled in and returns the page.
  QWidget* finish() {
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(sticks);
    if (switchesLayout->count() > 0)
      layout->addWidget(switches);
    else
      delete switches;
    if (gaugesLayout->rowCount() > 0)
      layout->addWidget(gauges);
    else
      delete gauges;
    layout->addStretch(1);
    return page;
  }
};
constexpr int kSticksPerRow = 3;

}  // namespace

ConsolePanel::ConsolePanel(QWidget* parent) : QWidget(parent) {
  setLayout(new QVBoxLayout);
  layout()->setContentsMargins(6, 6, 6, 6);
}

void ConsolePanel::clear() {
  controls_.clear();
  values_.clear();
  keysDown_.clear();
  robots_.clear();
  selected_.clear();
  robotTabs_ = nullptr;
  QLayoutItem* item;
  while ((item = layout()->takeAt(0)) != nullptr) {
    delete item->widget();
    delete item;
  }
}

void ConsolePanel::build(const ConsoleDesc& console) {
  clear();
  const std::vector<std::string> channels = console.channels();
  values_.assign(channels.size(), 0.0);
  auto channelIndex = [&](const std::string& name) {
    return static_cast<int>(std::find(channels.begin(), channels.end(), name) - channels.begin());
  };

  // The scene's own controls, then one section a robot (in the order the scene includes them).
  std::vector<std::string> owners{""};
  for (const ControlDesc& desc : console.controls)
    if (std::find(owners.begin(), owners.end(), desc.robot) == owners.end())
      owners.push_back(desc.robot);
  std::vector<Section> sections(owners.size());
  for (const ControlDesc& desc : console.controls) {
    Section& section =
        sections[size_t(std::find(owners.begin(), owners.end(), desc.robot) - owners.begin())];
    QGridLayout* sticksLayout = section.sticksLayout;
    QVBoxLayout* switchesLayout = section.switchesLayout;
    QFormLayout* gaugesLayout = section.gaugesLayout;
    int& stickCount = section.stickCount;
    Control c;
    c.desc = desc;
    for (const std::string& ch : desc.channels) c.channels.push_back(channelIndex(ch));
    parseMapping(desc.joystickAxis, c.padAxes, c.padButton);
    if (desc.kind == ControlDesc::Kind::Joystick) c.stickKeys = stickKeysOf(desc.keys);
    const QString name = QString::fromStdString(desc.name);
    const size_t index = controls_.size();
    switch (desc.kind) {
      case ControlDesc::Kind::Joystick: {
        auto* box = new QGroupBox(labelOf(desc));
        auto* boxLayout = new QVBoxLayout(box);
        auto* stick = new JoystickWidget;
        stick->setObjectName(name);
        stick->setSpringReturn(desc.springReturn);
        boxLayout->addWidget(stick);
        sticksLayout->addWidget(box, stickCount / kSticksPerRow, stickCount % kSticksPerRow);
        ++stickCount;
        connect(stick, &JoystickWidget::moved, this, [this, index](double x, double y) {
          if (!interactive_) return;
          setChannel(controls_[index].channels.at(0), controls_[index].desc.invertX ? -x : x);
          setChannel(controls_[index].channels.at(1), y);
        });
        c.widget = stick;
        break;
      }
      case ControlDesc::Kind::Toggle:
      case ControlDesc::Kind::Button: {
        auto* button = new QPushButton(labelOf(desc));
        button->setObjectName(name);
        button->setFocusPolicy(Qt::NoFocus);  // the keys belong to the controls, not to Space
        if (desc.kind == ControlDesc::Kind::Toggle) {
          button->setCheckable(true);
          connect(button, &QPushButton::toggled, this, [this, index](bool on) {
            if (interactive_) setChannel(controls_[index].channels.at(0), on ? 1.0 : 0.0);
          });
        } else {
          connect(button, &QPushButton::pressed, this, [this, index] {
            if (interactive_) setChannel(controls_[index].channels.at(0), 1.0);
          });
          connect(button, &QPushButton::released, this, [this, index] {
            if (interactive_) setChannel(controls_[index].channels.at(0), 0.0);
          });
        }
        switchesLayout->addWidget(button);
        c.widget = button;
        break;
      }
      case ControlDesc::Kind::Slider: {
        auto* row = new QWidget;
        auto* rowLayout = new QHBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        auto* slider = new QSlider(Qt::Horizontal);
        slider->setObjectName(name);
        slider->setRange(0, kSliderSteps);
        slider->setFocusPolicy(Qt::NoFocus);
        c.valueLabel = new QLabel;
        c.valueLabel->setMinimumWidth(50);
        rowLayout->addWidget(slider, 1);
        rowLayout->addWidget(c.valueLabel);
        // Start at the channel's 0 where the range allows it.
        const double lo = desc.minimum, hi = desc.maximum;
        const double start = std::clamp(0.0, lo, hi);
        slider->setValue(int(std::lround((start - lo) / (hi - lo) * kSliderSteps)));
        values_[size_t(c.channels.at(0))] = start;
        c.valueLabel->setText(QString::number(start, 'g', 3));
        connect(slider, &QSlider::valueChanged, this, [this, index](int v) {
          Control& ctl = controls_[index];
          const double u =
              ctl.desc.minimum + (ctl.desc.maximum - ctl.desc.minimum) * v / double(kSliderSteps);
          ctl.valueLabel->setText(QString::number(u, 'g', 3));
          if (interactive_) setChannel(ctl.channels.at(0), u);
        });
        gaugesLayout->addRow(labelOf(desc), row);
        c.widget = slider;
        break;
      }
      case ControlDesc::Kind::Lamp: {
        auto* lamp = new IndicatorLamp;
        lamp->setObjectName(name);
        gaugesLayout->addRow(labelOf(desc), lamp);
        c.widget = lamp;
        break;
      }
      case ControlDesc::Kind::Readout: {
        auto* label = new QLabel("–");
        label->setObjectName(name);
        label->setMinimumWidth(80);
        label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        label->setStyleSheet("font-family: monospace;");
        gaugesLayout->addRow(labelOf(desc), label);
        c.widget = label;
        c.valueLabel = label;
        break;
      }
    }
    controls_.push_back(std::move(c));
  }
  // One robot (or none): its controls as they are; several: a tab each, below the scene's own.
  if (owners.size() <= 2) {
    for (Section& s : sections) layout()->addWidget(s.finish());
  } else {
    layout()->addWidget(sections[0].finish());
    robots_.assign(owners.begin() + 1, owners.end());
    robotTabs_ = new QTabWidget;
    robotTabs_->setObjectName("robots");
    robotTabs_->setFocusPolicy(Qt::NoFocus);  // the keys belong to the controls
    for (size_t i = 1; i < sections.size(); ++i)
      robotTabs_->addTab(sections[i].finish(), robotTitle(owners[i]));
    layout()->addWidget(robotTabs_);
    selected_ = robots_.front();
    connect(robotTabs_, &QTabWidget::currentChanged, this, [this](int index) {
      if (index >= 0 && size_t(index) < robots_.size()) selectRobot(robots_[size_t(index)]);
    });
  }
  static_cast<QVBoxLayout*>(layout())->addStretch(1);
  emit inputChanged();
}

void ConsolePanel::selectRobot(const std::string& robot) {
  const auto it = std::find(robots_.begin(), robots_.end(), robot);
  if (it == robots_.end() || robot == selected_) return;
  // The robot left behind lets go of the keys' sticks (its buttons keep their state).
  for (Control& c : controls_) {
    if (c.desc.kind != ControlDesc::Kind::Joystick || c.desc.robot != selected_) continue;
    auto* stick = static_cast<JoystickWidget*>(c.widget);
    stick->setKeyDeflection(0.0, 0.0);
    if (!c.padLast.empty() && !stick->dragging()) {  // and of the gamepad's
      c.padLast.clear();
      stick->showValue(stick->xValue(), stick->yValue());
      setChannel(c.channels.at(0), 0.0);
      setChannel(c.channels.at(1), 0.0);
    }
  }
  selected_ = robot;
  for (Control& c : controls_)
    if (c.desc.kind == ControlDesc::Kind::Joystick && c.desc.robot == selected_) applyKeysTo(c);
  if (robotTabs_) robotTabs_->setCurrentIndex(int(it - robots_.begin()));
  emit robotSelected(selected_);
}

void ConsolePanel::setChannel(int index, double value) {
  if (index < 0 || static_cast<size_t>(index) >= values_.size()) return;
  if (values_[size_t(index)] == value) return;
  values_[size_t(index)] = value;
  emit inputChanged();
}

void ConsolePanel::applyKeysTo(Control& c) {
  auto down = [this](int k) {
    return std::find(keysDown_.begin(), keysDown_.end(), k) != keysDown_.end() ? 1.0 : 0.0;
  };
  const std::array<int, 4>& k = c.stickKeys;  // up, left, down, right
  const double x = down(k[3]) - down(k[1]);
  const double y = down(k[0]) - down(k[2]);
  static_cast<JoystickWidget*>(c.widget)->setKeyDeflection(x, y);
}

bool ConsolePanel::handleKey(int key, bool pressed) {
  if (!interactive_) return false;
  bool taken = false;
  if (pressed) {
    if (std::find(keysDown_.begin(), keysDown_.end(), key) == keysDown_.end())
      keysDown_.push_back(key);
  } else {
    keysDown_.erase(std::remove(keysDown_.begin(), keysDown_.end(), key), keysDown_.end());
  }
  for (Control& c : controls_) {
    if (!driven(c)) continue;
    if (c.desc.kind == ControlDesc::Kind::Joystick) {
      if (key != 0 && std::find(c.stickKeys.begin(), c.stickKeys.end(), key) != c.stickKeys.end()) {
        applyKeysTo(c);
        taken = true;
      }
    } else if (key != 0 && keyOf(c.desc.keys) == key) {
      auto* button = static_cast<QAbstractButton*>(c.widget);
      if (c.desc.kind == ControlDesc::Kind::Toggle && pressed) button->toggle();
      if (c.desc.kind == ControlDesc::Kind::Button)
        pressed ? emit button->pressed() : emit button->released();
      taken = c.desc.kind == ControlDesc::Kind::Toggle || c.desc.kind == ControlDesc::Kind::Button;
    }
  }
  return taken;
}

std::vector<int> ConsolePanel::keys() const {
  std::vector<int> out;
  const auto add = [&](int key) {
    if (key != 0 && std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
  };
  for (const Control& c : controls_) {
    for (int key : c.stickKeys) add(key);
    if (c.desc.kind == ControlDesc::Kind::Toggle || c.desc.kind == ControlDesc::Kind::Button)
      add(keyOf(c.desc.keys));
  }
  return out;
}

void ConsolePanel::applyGamepad(const GamepadState& pad) {
  if (!interactive_) return;  // unplugged: every axis reads 0, so held sticks are released
  auto axis = [&](int i) {
    return i >= 0 && size_t(i) < pad.axes.size() ? pad.axes[size_t(i)] : 0.0;
  };
  for (Control& c : controls_) {
    if (!driven(c)) continue;
    if (c.desc.kind == ControlDesc::Kind::Joystick && c.padAxes.size() >= 2) {
      auto* stick = static_cast<JoystickWidget*>(c.widget);
      // SDL reports a stick pushed forward as negative: the console's y is up.
      const double x = axis(c.padAxes[0]), y = -axis(c.padAxes[1]);
      const bool deflected = std::abs(x) > kPadDeadZone || std::abs(y) > kPadDeadZone;
      const bool wasDeflected = !c.padLast.empty();
      if (deflected) {
        stick->showValue(x, y);
        setChannel(c.channels.at(0), c.desc.invertX ? -x : x);
        setChannel(c.channels.at(1), y);
        c.padLast = {x, y};
      } else if (wasDeflected && !stick->dragging()) {
        c.padLast.clear();  // released: back to the on-screen stick (and the keys)
        stick->showValue(stick->xValue(), stick->yValue());
        setChannel(c.channels.at(0), 0.0);
        setChannel(c.channels.at(1), 0.0);
        stick->setKeyDeflection(0.0, 0.0);
        applyKeysTo(c);
      }
    } else if ((c.desc.kind == ControlDesc::Kind::Toggle ||
                c.desc.kind == ControlDesc::Kind::Button) &&
               c.padButton >= 0) {
      const bool down =
          size_t(c.padButton) < pad.buttons.size() && pad.buttons[size_t(c.padButton)];
      auto* button = static_cast<QAbstractButton*>(c.widget);
      if (down != c.padButtonWasDown) {
        if (c.desc.kind == ControlDesc::Kind::Toggle && down) button->toggle();
        if (c.desc.kind == ControlDesc::Kind::Button)
          down ? emit button->pressed() : emit button->released();
      }
      c.padButtonWasDown = down;
    } else if (c.desc.kind == ControlDesc::Kind::Slider && !c.padAxes.empty()) {
      const double a = axis(c.padAxes[0]);
      if (!c.padLast.empty() && std::abs(a - c.padLast[0]) < 1e-3) continue;  // follow changes
      c.padLast = {a};
      auto* slider = static_cast<QSlider*>(c.widget);
      slider->setValue(int(std::lround((a + 1.0) * 0.5 * kSliderSteps)));
    }
  }
}

void ConsolePanel::showIndicators(std::span<const double> values) {
  for (size_t i = 0; i < controls_.size() && i < values.size(); ++i) {
    Control& c = controls_[i];
    if (c.desc.kind == ControlDesc::Kind::Lamp)
      static_cast<IndicatorLamp*>(c.widget)->setValue(values[i]);
    else if (c.desc.kind == ControlDesc::Kind::Readout)
      c.valueLabel->setText(std::isnan(values[i]) ? QString("?")
                                                  : QString::number(values[i], 'f', 2));
  }
}

void ConsolePanel::showRecordedInput(std::span<const double> channels) {
  for (Control& c : controls_) {
    auto value = [&](size_t k) {
      const int i = k < c.channels.size() ? c.channels[k] : -1;
      return i >= 0 && size_t(i) < channels.size() ? channels[size_t(i)] : 0.0;
    };
    switch (c.desc.kind) {
      case ControlDesc::Kind::Joystick:
        static_cast<JoystickWidget*>(c.widget)->showValue(value(0), value(1));
        break;
      case ControlDesc::Kind::Toggle: {
        auto* b = static_cast<QAbstractButton*>(c.widget);
        const QSignalBlocker block(b);
        b->setChecked(value(0) > 0.5);
        break;
      }
      case ControlDesc::Kind::Button:
        static_cast<QAbstractButton*>(c.widget)->setDown(value(0) > 0.5);
        break;
      case ControlDesc::Kind::Slider: {
        auto* s = static_cast<QSlider*>(c.widget);
        const QSignalBlocker block(s);
        s->setValue(int(std::lround((value(0) - c.desc.minimum) /
                                    (c.desc.maximum - c.desc.minimum) * kSliderSteps)));
        c.valueLabel->setText(QString::number(value(0), 'g', 3));
        break;
      }
      default:
        break;
    }
  }
  for (size_t i = 0; i < values_.size() && i < channels.size(); ++i) values_[i] = channels[i];
}

void ConsolePanel::adoptInput(std::span<const double> channels) {
  showRecordedInput(channels);
  for (Control& c : controls_) {
    if (c.desc.kind == ControlDesc::Kind::Joystick) {
      static_cast<JoystickWidget*>(c.widget)->showValue(0.0, 0.0);
      for (int i : c.channels)
        if (i >= 0 && size_t(i) < values_.size()) values_[size_t(i)] = 0.0;
    } else if (c.desc.kind == ControlDesc::Kind::Button) {
      static_cast<QAbstractButton*>(c.widget)->setDown(false);
      if (c.channels.at(0) >= 0) values_[size_t(c.channels[0])] = 0.0;
    }
  }
  emit inputChanged();
}

void ConsolePanel::setInteractive(bool on) {
  interactive_ = on;
  keysDown_.clear();
  for (Control& c : controls_)
    if (c.desc.kind != ControlDesc::Kind::Lamp && c.desc.kind != ControlDesc::Kind::Readout)
      c.widget->setEnabled(on);
}

namespace {
template <class T>
T* findControl(const QWidget* panel, const QString& name) {
  return panel->findChild<T*>(name);
}
}  // namespace

JoystickWidget* ConsolePanel::joystick(const QString& name) const {
  return findControl<JoystickWidget>(this, name);
}
QAbstractButton* ConsolePanel::button(const QString& name) const {
  return findControl<QAbstractButton>(this, name);
}
QSlider* ConsolePanel::slider(const QString& name) const {
  return findControl<QSlider>(this, name);
}
IndicatorLamp* ConsolePanel::lamp(const QString& name) const {
  return findControl<IndicatorLamp>(this, name);
}
QLabel* ConsolePanel::readout(const QString& name) const {
  return findControl<QLabel>(this, name);
}

}  // namespace impetus::app
