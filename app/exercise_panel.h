#pragma once
// The exercise panel: what the trainee is asked (the objectives as a checklist), the limits and
// their state, the clock and the live score, the events as they happen; when the exercise ends,
// the debrief - passed or failed and why, and the score's breakdown.

#include <QWidget>

#include "impetus/session/session_file.h"
#include "sim_snapshot.h"

class QLabel;
class QListWidget;
class QPushButton;

namespace impetus::app {

/// The debrief of a recorded session: `exercise` (the scene's) with the outcome the session
/// stored - objectives done and limits broken as its events say.
ExerciseStatus recordedStatus(const ExerciseDesc& exercise, const SessionExercise& outcome);

class ExercisePanel : public QWidget {
  Q_OBJECT
 public:
  explicit ExercisePanel(QWidget* parent = nullptr);
  /// Shows `status` at sim time `time` (s).
  void showStatus(const ExerciseStatus& status, double time);

  QListWidget* objectives() const { return objectives_; }
  QListWidget* limits() const { return limits_; }
  QListWidget* events() const { return events_; }
  QLabel* verdict() const { return verdict_; }
  /// "Export debrief…" and "Plot the limits": shown for a recorded session's debrief.
  QPushButton* exportButton() const { return export_; }
  QPushButton* plotButton() const { return plot_; }
  void showDebriefActions(bool on);

 signals:
  /// The trainee or instructor clicked an event (its time, s): a replay seeks there.
  void eventChosen(double time);
  void exportRequested();
  void plotRequested();

 private:
  QLabel* title_;
  QLabel* clock_;
  QListWidget* objectives_;
  QListWidget* limits_;
  QLabel* verdict_;
  QListWidget* events_;
  QPushButton* export_;
  QPushButton* plot_;
};

}  // namespace impetus::app
