#pragma once
// The debrief's plots in the window: each probe limit's quantity over the recorded session
// against its bounds (dashed), re-simulated from the session - the page's plots, in a window of
// their own.

#include <QDialog>
#include <vector>

#include "impetus/exercise/exercise.h"
#include "impetus/exercise/exercise_report.h"

class QChart;

namespace impetus::app {

class LimitPlots : public QDialog {
  Q_OBJECT
 public:
  LimitPlots(const ExerciseDesc& exercise, const ExerciseReport& report, QWidget* parent = nullptr);
  /// One chart per probe limit, in the exercise's order (tests).
  const std::vector<QChart*>& charts() const { return charts_; }

 private:
  std::vector<QChart*> charts_;
};

}  // namespace impetus::app
