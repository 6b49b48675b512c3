#pragma once
// The debrief of an exercise as one self-contained HTML page (no scripts, no external files):
// the verdict and the score's parts, the objectives and limits, the events on a timeline and
// listed, and a plot of every probe limit's quantity against its bounds.

#include <string>
#include <vector>

#include "impetus/exercise/exercise_evaluator.h"

namespace impetus {

struct ExerciseReport {
  std::string scene, operatorName, recorded;  ///< what the session says
  double duration = 0.0;                      ///< (s)
  /// Per limit (desc order): the limit's probe sampled along the session (time s, value);
  /// empty for contact limits.
  std::vector<std::vector<std::pair<double, double>>> samples;
};

/// The page for `exercise` as it ended, with `report`'s session facts and samples.
std::string exerciseReportHtml(const ExerciseEvaluator& exercise, const ExerciseReport& report);

}  // namespace impetus
