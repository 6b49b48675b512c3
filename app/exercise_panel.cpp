#include "exercise_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace impetus::app {

namespace {
QString seconds(double t) {
  return QString::number(t, 'f', 2) + " s";
}

/// Sets `list` to `count` rows (adding or removing at the end) without losing the selection.
void setRowCount(QListWidget* list, int count) {
  while (list->count() > count) delete list->takeItem(list->count() - 1);
  while (list->count() < count) list->addItem(new QListWidgetItem);
}
}  // namespace

ExerciseStatus recordedStatus(const ExerciseDesc& exercise, const SessionExercise& outcome) {
  ExerciseStatus status;
  status.present = true;
  status.title = exercise.title;
  status.timeLimit = exercise.timeLimit;
  status.passMark = exercise.passMark;
  double points = 0.0;
  for (const ExerciseObjective& o : exercise.objectives) {
    ExerciseStatus::Objective& shown = status.objectives.emplace_back();
    shown.text = o.text;
    shown.weight = o.weight;
    for (const ExerciseEvent& e : outcome.events)
      if (e.kind == ExerciseEvent::Kind::ObjectiveDone && e.name == o.name) shown.doneAt = e.time;
    if (shown.doneAt >= 0.0) points += o.weight;
  }
  for (const ExerciseLimit& l : exercise.limits) {
    ExerciseStatus::Limit& shown = status.limits.emplace_back();
    shown.text = l.text;
    for (const ExerciseEvent& e : outcome.events)
      if (e.kind == ExerciseEvent::Kind::Violation && e.name == l.name) ++shown.violations;
  }
  status.score = outcome.score;
  status.penalties = points - outcome.score;
  status.finished = outcome.finished;
  status.passed = outcome.passed;
  status.events = outcome.events;
  return status;
}

ExercisePanel::ExercisePanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  title_ = new QLabel;
  title_->setWordWrap(true);
  title_->setStyleSheet("font-weight: bold");
  clock_ = new QLabel;
  objectives_ = new QListWidget;
  objectives_->setObjectName("exerciseObjectives");
  limits_ = new QListWidget;
  limits_->setObjectName("exerciseLimits");
  verdict_ = new QLabel;
  verdict_->setObjectName("exerciseVerdict");
  verdict_->setWordWrap(true);
  events_ = new QListWidget;
  events_->setObjectName("exerciseEvents");
  for (QListWidget* list : {objectives_, limits_, events_}) list->setWordWrap(true);
  connect(events_, &QListWidget::itemClicked, this,
          [this](QListWidgetItem* item) { emit eventChosen(item->data(Qt::UserRole).toDouble()); });
  setMinimumWidth(320);
  layout->addWidget(title_);
  layout->addWidget(clock_);
  layout->addWidget(new QLabel("Objectives"));
  layout->addWidget(objectives_, 2);
  layout->addWidget(new QLabel("Limits"));
  layout->addWidget(limits_, 1);
  layout->addWidget(verdict_);
  layout->addWidget(new QLabel("Events"));
  layout->addWidget(events_, 2);
  export_ = new QPushButton("Export debrief…");
  export_->setObjectName("exportDebrief");
  export_->setToolTip("The debrief as one HTML page, with the limited quantities plotted");
  connect(export_, &QPushButton::clicked, this, &ExercisePanel::exportRequested);
  plot_ = new QPushButton("Plot the limits…");
  plot_->setObjectName("plotLimits");
  plot_->setToolTip("Each probe limit's quantity over the session against its bounds");
  connect(plot_, &QPushButton::clicked, this, &ExercisePanel::plotRequested);
  auto* actions = new QHBoxLayout;
  actions->addWidget(plot_);
  actions->addWidget(export_);
  layout->addLayout(actions);
  showDebriefActions(false);
}

void ExercisePanel::showDebriefActions(bool on) {
  // Events seek only in a replay.
  events_->setToolTip(on ? "Click an event to replay from there" : QString());
  export_->setVisible(on);
  plot_->setVisible(on);
}

void ExercisePanel::showStatus(const ExerciseStatus& status, double time) {
  title_->setText(QString::fromStdString(status.title));
  QString clock = "time " + seconds(time);
  if (status.timeLimit > 0.0) clock += " of " + seconds(status.timeLimit);
  clock_->setText(clock + QString("   score %1").arg(status.score));

  setRowCount(objectives_, int(status.objectives.size()));
  for (size_t i = 0; i < status.objectives.size(); ++i) {
    const ExerciseStatus::Objective& o = status.objectives[i];
    QListWidgetItem* item = objectives_->item(int(i));
    item->setFlags(Qt::ItemIsEnabled);
    item->setCheckState(o.doneAt >= 0.0 ? Qt::Checked : Qt::Unchecked);
    item->setText(QString::fromStdString(o.text) +
                  (o.doneAt >= 0.0 ? QString("  (%1, +%2)").arg(seconds(o.doneAt)).arg(o.weight)
                                   : QString()));
  }
  setRowCount(limits_, int(status.limits.size()));
  for (size_t i = 0; i < status.limits.size(); ++i) {
    const ExerciseStatus::Limit& l = status.limits[i];
    QListWidgetItem* item = limits_->item(int(i));
    QString state = l.violated ? "BROKEN" : l.warned ? "near" : "ok";
    if (l.violations > 0 && !l.violated) state += QString(" (broken %1x)").arg(l.violations);
    item->setText(QString::fromStdString(l.text) + "  -  " + state);
    item->setBackground(l.violated     ? QColor(255, 150, 150)
                        : l.warned     ? QColor(255, 215, 120)
                        : l.violations ? QColor(255, 235, 235)
                                       : QColor(Qt::transparent));
  }

  setRowCount(events_, int(status.events.size()));
  for (size_t i = 0; i < status.events.size(); ++i) {
    const ExerciseEvent& e = status.events[i];
    QListWidgetItem* item = events_->item(int(i));
    item->setData(Qt::UserRole, e.time);
    item->setText(
        QString("%1  %2  %3")
            .arg(seconds(e.time), QString(toString(e.kind)), QString::fromStdString(e.text)));
  }

  if (!status.finished) {
    verdict_->clear();
    return;
  }
  // The debrief: the outcome, why, and the score's parts.
  double points = 0.0;
  for (const ExerciseStatus::Objective& o : status.objectives)
    if (o.doneAt >= 0.0) points += o.weight;
  QString why;
  if (!status.passed) {
    why = "score below the pass mark";
    if (!status.events.empty() && status.events.back().kind == ExerciseEvent::Kind::Failed)
      why = QString::fromStdString(status.events.back().text);
  }
  verdict_->setText(
      QString("<b>%1</b>%2<br>score %3 (objectives %4, penalties %5; pass mark %6)")
          .arg(status.passed ? "PASSED" : "FAILED", why.isEmpty() ? QString() : ": " + why)
          .arg(status.score)
          .arg(points)
          .arg(status.penalties)
          .arg(status.passMark));
  verdict_->setStyleSheet(status.passed ? "background: rgb(170, 230, 170); padding: 4px"
                                        : "background: rgb(255, 170, 170); padding: 4px");
}

}  // namespace impetus::app
