#pragma once
// The replay's timeline bar: play/pause, frame step back and forward, a seek slider over the
// recording with the exercise's events marked under it, the time, playback speed x0.25 to x8,
// "take control here" and "close replay".

#include <QWidget>
#include <cstdint>
#include <vector>

#include "event_strip.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QToolButton;

namespace impetus::app {

class ReplayTimeline : public QWidget {
  Q_OBJECT
 public:
  explicit ReplayTimeline(QWidget* parent = nullptr);

  /// A new recording: steps [first, end), step size (s), operator and scene for the caption.
  void setRecording(std::int64_t first, std::int64_t end, double step, const QString& caption);
  /// Shows the current position and whether it is playing (no signals emitted).
  void showPosition(std::int64_t step, bool playing);

  QToolButton* playButton() const { return play_; }
  QSlider* slider() const { return slider_; }
  /// The exercise's events under the slider (none: empty); clicking one seeks there.
  EventStrip* eventStrip() const { return events_; }
  void setEventMarks(std::vector<EventStrip::Mark> marks);
  QComboBox* speedBox() const { return speed_; }
  QPushButton* takeControlButton() const { return takeControl_; }

 signals:
  void playToggled(bool play);
  void seekRequested(std::int64_t step);
  void frameStepRequested(int frames);
  void speedChanged(double factor);
  void takeControlRequested();
  void closeRequested();

 private:
  QLabel* caption_ = nullptr;
  QToolButton* play_ = nullptr;
  QToolButton* back_ = nullptr;
  QToolButton* forward_ = nullptr;
  QSlider* slider_ = nullptr;
  EventStrip* events_ = nullptr;
  QLabel* time_ = nullptr;
  QComboBox* speed_ = nullptr;
  QPushButton* takeControl_ = nullptr;
  QPushButton* close_ = nullptr;
  std::int64_t first_ = 0, end_ = 0;
  double step_ = 0.01;
};

}  // namespace impetus::app
