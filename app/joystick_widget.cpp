#include "joystick_widget.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace impetus::app {

JoystickWidget::JoystickWidget(QWidget* parent) : QWidget(parent) {
  setMinimumSize(110, 110);
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  setCursor(Qt::OpenHandCursor);
}

double JoystickWidget::radius() const {
  return 0.5 * std::min(width(), height()) - 14.0;
}

void JoystickWidget::set(double x, double y) {
  // The stick moves in a disc: a diagonal is not faster than a straight push.
  const double norm = std::hypot(x, y);
  if (norm > 1.0) x /= norm, y /= norm;
  if (x == x_ && y == y_) return;
  x_ = x;
  y_ = y;
  update();
  emit moved(x_, y_);
}

void JoystickWidget::showValue(double x, double y) {
  x_ = std::clamp(x, -1.0, 1.0);
  y_ = std::clamp(y, -1.0, 1.0);
  update();
}

void JoystickWidget::setKeyDeflection(double x, double y) {
  keyX_ = x;
  keyY_ = y;
  if (!dragging_) set(x, y);
}

void JoystickWidget::dragTo(QPointF p) {
  const QPointF c = rect().center();
  set((p.x() - c.x()) / radius(), -(p.y() - c.y()) / radius());
}

void JoystickWidget::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  dragging_ = true;
  setCursor(Qt::ClosedHandCursor);
  dragTo(event->position());
}

void JoystickWidget::mouseMoveEvent(QMouseEvent* event) {
  if (dragging_) dragTo(event->position());
}

void JoystickWidget::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !dragging_) return;
  dragging_ = false;
  setCursor(Qt::OpenHandCursor);
  if (springReturn_) set(keyX_, keyY_);
}

void JoystickWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QPointF c = QRectF(rect()).center();
  const double r = radius();
  p.setPen(QPen(palette().color(QPalette::Mid), 2));
  p.setBrush(palette().color(QPalette::Base));
  p.drawEllipse(c, r + 10, r + 10);
  p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
  p.drawLine(QPointF(c.x() - r, c.y()), QPointF(c.x() + r, c.y()));
  p.drawLine(QPointF(c.x(), c.y() - r), QPointF(c.x(), c.y() + r));
  const QPointF knob(c.x() + x_ * r, c.y() - y_ * r);
  p.setPen(QPen(palette().color(QPalette::Dark), 2));
  p.drawLine(c, knob);
  p.setBrush(dragging_ ? palette().color(QPalette::Highlight) : palette().color(QPalette::Button));
  p.drawEllipse(knob, 12, 12);
}

}  // namespace impetus::app
