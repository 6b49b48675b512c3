#include "event_strip.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cstdlib>

namespace impetus::app {

namespace {
constexpr int kPickRadius = 5;  // px either side of a tick that still picks it
}

EventStrip::EventStrip(QWidget* parent) : QWidget(parent) {
  setFixedHeight(12);
  setCursor(Qt::PointingHandCursor);
}

void EventStrip::setRange(std::int64_t first, std::int64_t end, int inset) {
  first_ = first;
  end_ = std::max(end, first + 1);
  inset_ = inset;
  update();
}

void EventStrip::setMarks(std::vector<Mark> marks) {
  marks_ = std::move(marks);
  setToolTip(marks_.empty() ? QString() : "Click an event to replay from there");
  update();
}

int EventStrip::xOf(std::int64_t step) const {
  const double share = double(step - first_) / double(end_ - first_);
  return inset_ + int(std::lround(share * (width() - 2 * inset_)));
}

int EventStrip::markAt(int x) const {
  int best = -1, bestDistance = kPickRadius + 1;
  for (size_t i = 0; i < marks_.size(); ++i) {
    const int distance = std::abs(xOf(marks_[i].step) - x);
    if (distance < bestDistance) {
      best = int(i);
      bestDistance = distance;
    }
  }
  return best;
}

void EventStrip::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  for (const Mark& m : marks_) {
    const int x = xOf(m.step);
    painter.fillRect(QRect(x - 1, 0, 3, height()), m.colour);
  }
}

void EventStrip::mousePressEvent(QMouseEvent* event) {
  const int i = markAt(int(event->position().x()));
  if (i >= 0) emit markClicked(marks_[size_t(i)].step);
}

bool EventStrip::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int i = markAt(help->pos().x());
    if (i >= 0)
      QToolTip::showText(help->globalPos(), marks_[size_t(i)].text, this);
    else
      QToolTip::showText(help->globalPos(), toolTip(), this);
    return true;
  }
  return QWidget::event(event);
}

}  // namespace impetus::app
