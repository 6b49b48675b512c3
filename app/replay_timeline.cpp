#include "replay_timeline.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui_text.h"

namespace impetus::app {
ReplayTimeline::ReplayTimeline(QWidget* parent) : QWidget(parent) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 2, 6, 2);
  caption_ = new QLabel;
  caption_->setStyleSheet("font-weight: bold;");
  back_ = new QToolButton;
  back_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
  back_->setToolTip("One frame back");
  play_ = new QToolButton;
  play_->setObjectName("replayPlay");
  play_->setCheckable(true);
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  play_->setToolTip("Play / pause");
  forward_ = new QToolButton;
  forward_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
  forward_->setToolTip("One frame forward");
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setObjectName("replaySlider");
  slider_->setMinimumWidth(300);
  time_ = new QLabel;
  time_->setStyleSheet("font-family: monospace;");
  speed_ = new QComboBox;
  speed_->setObjectName("replaySpeed");
  for (const double f : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0}) speed_->addItem(QString("x%1").arg(f), f);
  speed_->setCurrentIndex(2);
  takeControl_ = new QPushButton("Take control here");
  takeControl_->setObjectName("takeControl");
  takeControl_->setToolTip("Continue live from this moment: the trainee drives from here");
  close_ = new QPushButton("Close replay");
  for (QWidget* w : std::initializer_list<QWidget*>{caption_, back_, play_, forward_})
    layout->addWidget(w);
  events_ = new EventStrip;
  events_->setObjectName("replayEvents");
  events_->hide();
  auto* track = new QVBoxLayout;
  track->setSpacing(0);
  track->addWidget(slider_);
  track->addWidget(events_);
  layout->addLayout(track, 1);
  for (QWidget* w : std::initializer_list<QWidget*>{time_, speed_, takeControl_, close_})
    layout->addWidget(w);

  connect(play_, &QToolButton::toggled, this, &ReplayTimeline::playToggled);
  connect(back_, &QToolButton::clicked, this, [this] { emit frameStepRequested(-1); });
  connect(forward_, &QToolButton::clicked, this, [this] { emit frameStepRequested(1); });
  connect(slider_, &QSlider::valueChanged, this,
          [this](int v) { emit seekRequested(first_ + std::int64_t(v)); });
  connect(events_, &EventStrip::markClicked, this, &ReplayTimeline::seekRequested);
  connect(speed_, &QComboBox::currentIndexChanged, this,
          [this](int i) { emit speedChanged(speed_->itemData(i).toDouble()); });
  connect(takeControl_, &QPushButton::clicked, this, &ReplayTimeline::takeControlRequested);
  connect(close_, &QPushButton::clicked, this, &ReplayTimeline::closeRequested);
}

void ReplayTimeline::setRecording(std::int64_t first, std::int64_t end, double step,
                                  const QString& caption) {
  first_ = first;
  end_ = end;
  step_ = step;
  caption_->setText(caption);
  const QSignalBlocker block(slider_);
  slider_->setRange(0, int(end - first));
  slider_->setSingleStep(4);
  slider_->setPageStep(int(1.0 / step));  // a second
  setEventMarks({});
  showPosition(first, false);
}

void ReplayTimeline::setEventMarks(std::vector<EventStrip::Mark> marks) {
  // The groove runs between half a handle's length from either end of the slider.
  events_->setRange(first_, end_, style()->pixelMetric(QStyle::PM_SliderLength) / 2);
  events_->setVisible(!marks.empty());
  events_->setMarks(std::move(marks));
}

void ReplayTimeline::showPosition(std::int64_t step, bool playing) {
  {
    const QSignalBlocker block(slider_);
    slider_->setValue(int(step - first_));
  }
  {
    const QSignalBlocker block(play_);
    play_->setChecked(playing);
    play_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  }
  time_->setText(QString("%1 / %2").arg(minutesSeconds(double(step) * step_, 2),
                                        minutesSeconds(double(end_) * step_, 2)));
}

}  // namespace impetus::app
