#include "impetus/session/session_debrief.h"

#include <algorithm>
#include <stdexcept>

#include "impetus/probes/probe.h"
#include "impetus/session/session_reader.h"
#include "impetus/session/session_replay.h"

namespace impetus {

ExerciseDebrief replayExerciseDebrief(const std::string& path,
                                  const std::function<void(const ExerciseEvaluator&)>& afterStep,
                                  const std::function<void(const ExerciseEvaluator&)>& atEnd) {
  SessionReader reader(path);
  const SessionInfo& info = reader.info();
  SessionReplay replay(reader);
  Simulation& sim = replay.simulation();
  if (!sim.scene().exercise)
    throw std::invalid_argument(path + ": the session's scene sets no exercise");
  const Scheme* scheme = sim.scene().scheme ? &*sim.scene().scheme : nullptr;
  ExerciseEvaluator exercise(*sim.scene().exercise, sim.world(), scheme);
  // The probe limits' quantities, about 2,000 samples over the session.
  ExerciseReport page{info.sceneName, info.operatorName, info.created, info.duration(), {}};
  std::vector<Probe> limitProbes;
  for (const ExerciseLimit& l : sim.scene().exercise->limits) {
    limitProbes.push_back(l.probe.empty() ? Probe{} : resolveProbe(sim.world(), scheme, l.probe));
    page.samples.emplace_back();
  }
  const std::int64_t stride = std::max<std::int64_t>(1, info.steps / 2000);
  while (replay.advance()) {
    const double t = sim.world().time();
    exercise.afterStep(t);
    if (afterStep) afterStep(exercise);
    if (replay.position() % stride == 0)
      for (size_t k = 0; k < limitProbes.size(); ++k)
        if (limitProbes[k]) page.samples[k].emplace_back(t, limitProbes[k]());
  }
  if (atEnd) atEnd(exercise);
  std::string html = exerciseReportHtml(exercise, page);
  return {std::move(html), std::move(page)};
}

}  // namespace impetus
