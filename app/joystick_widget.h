#pragma once
// A 2-axis virtual joystick: drag the knob with the mouse (it springs back to the centre on
// release unless told not to), or deflect it from the keyboard. Values in [-1, 1], y up.

#include <QWidget>

namespace impetus::app {

class JoystickWidget : public QWidget {
  Q_OBJECT
 public:
  explicit JoystickWidget(QWidget* parent = nullptr);

  double xValue() const { return x_; }
  double yValue() const { return y_; }
  void setSpringReturn(bool on) { springReturn_ = on; }
  /// Deflection from keys held down (each -1, 0 or 1); the mouse wins while it drags.
  void setKeyDeflection(double x, double y);
  /// Shows a deflection without it counting as operator input (replays, physical sticks).
  void showValue(double x, double y);
  bool dragging() const { return dragging_; }
  QSize sizeHint() const override { return {150, 150}; }

 signals:
  void moved(double x, double y);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  void dragTo(QPointF p);
  void set(double x, double y);
  double radius() const;
  double x_ = 0.0, y_ = 0.0;
  double keyX_ = 0.0, keyY_ = 0.0;
  bool springReturn_ = true;
  bool dragging_ = false;
};

}  // namespace impetus::app
