#pragma once
// A recorded session's exercise debrief: the session replayed from its inputs, its scene's
// exercise re-evaluated step by step (the same events, to the step, and the same score), and
// the probe limits' quantities sampled for the page's plots. What `impetus-sim report` prints and
// the window's "Export debrief" writes.

#include <functional>
#include <string>

#include "impetus/exercise/exercise_evaluator.h"
#include "impetus/exercise/exercise_report.h"

namespace impetus {

struct ExerciseDebrief {
  std::string html;       ///< the page (exerciseReportHtml)
  ExerciseReport report;  ///< the session's facts and the probe limits' samples
};

/// Replays the session at `path` (throws SessionError when it cannot be read, and
/// std::invalid_argument when its scene sets no exercise); `afterStep` (optional) sees the
/// evaluator after every step, `atEnd` (optional) as the session ended.
ExerciseDebrief replayExerciseDebrief(
    const std::string& path, const std::function<void(const ExerciseEvaluator&)>& afterStep = {},
    const std::function<void(const ExerciseEvaluator&)>& atEnd = {});

}  // namespace impetus
