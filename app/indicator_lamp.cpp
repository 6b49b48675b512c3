#include "indicator_lamp.h"

#include <QPainter>
#include <cmath>

namespace impetus::app {

IndicatorLamp::IndicatorLamp(QWidget* parent) : QWidget(parent) {
  setFixedSize(22, 22);
}

void IndicatorLamp::setValue(double value) {
  if (value == value_ || (std::isnan(value) && std::isnan(value_))) return;
  value_ = value;
  update();
}

void IndicatorLamp::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QColor colour = std::isnan(value_) ? QColor(150, 150, 150)
                        : lit()            ? QColor(60, 220, 70)
                                           : QColor(30, 70, 35);
  p.setPen(QPen(QColor(40, 40, 40), 1.5));
  p.setBrush(colour);
  p.drawEllipse(QRectF(rect()).adjusted(2, 2, -2, -2));
}

}  // namespace impetus::app
