#pragma once
// A strip under the replay's seek slider with a tick for each exercise event (objective done,
// limit broken, hint...): the debrief's timeline. Clicking near a tick asks to seek there.

#include <QColor>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

namespace impetus::app {

class EventStrip : public QWidget {
  Q_OBJECT
 public:
  struct Mark {
    std::int64_t step = 0;
    QColor colour;
    QString text;  ///< the tooltip
  };

  explicit EventStrip(QWidget* parent = nullptr);
  /// The recording's steps [first, end) across the strip, `inset` px left and right (where the
  /// slider's groove starts and ends).
  void setRange(std::int64_t first, std::int64_t end, int inset);
  void setMarks(std::vector<Mark> marks);
  const std::vector<Mark>& marks() const { return marks_; }
  /// The x (px) of a step on the strip.
  int xOf(std::int64_t step) const;

 signals:
  void markClicked(std::int64_t step);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;  // tooltips

 private:
  /// The mark nearest to x within a few pixels, or -1.
  int markAt(int x) const;
  std::vector<Mark> marks_;
  std::int64_t first_ = 0, end_ = 1;
  int inset_ = 0;
};

}  // namespace impetus::app
