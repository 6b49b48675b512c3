#pragma once
// Evaluates an exercise once per step after the physics, from the world and the scheme's
// signals only: deterministic, so a replayed session re-evaluates to the same events and score.

#include <vector>

#include "impetus/dynamics/world.h"
#include "impetus/exercise/exercise.h"
#include "impetus/probes/probe.h"

namespace impetus {

class Scheme;

struct ExerciseEvent {
  enum class Kind {
    ObjectiveDone,  ///< an objective was reached
    Warning,        ///< a limit is near (within its warning band)
    Violation,      ///< a limit was broken
    Failed,         ///< a stopping limit was broken or time ran out: the exercise ends, failed
    Completed,      ///< every objective done: the exercise ends
    Hint,           ///< a hint was shown (at its penalty)
  };
  double time = 0.0;  ///< (s)
  Kind kind = Kind::ObjectiveDone;
  std::string name;  ///< the objective's or limit's name ("time" for the time limit)
  std::string text;  ///< what the trainee reads
};

const char* toString(ExerciseEvent::Kind kind);

class ExerciseEvaluator {
 public:
  /// Resolves the exercise's probes and bodies against `world` and `scheme`; throws
  /// std::invalid_argument naming what is unknown. Both must outlive the evaluator.
  ExerciseEvaluator(const ExerciseDesc& desc, World& world, const Scheme* scheme);

  /// Evaluates the state after the step that ended at `time` (s). Does nothing once finished.
  void afterStep(double time);

  const ExerciseDesc& desc() const { return desc_; }
  const std::vector<ExerciseEvent>& events() const { return events_; }
  bool finished() const { return finished_; }
  /// Finished with every objective done, no stopping limit broken, and the pass mark reached.
  bool passed() const;
  /// The objectives' points earned minus the limits' penalties.
  double score() const;
  double penalties() const;
  /// When each objective was done (s), or a negative number.
  double doneAt(size_t objective) const { return objectives_[objective].doneAt; }
  int violations(size_t limit) const { return limits_[limit].violations; }
  /// Whether a limit is broken now, or near (its warning band).
  bool violated(size_t limit) const { return limits_[limit].violated; }
  bool warned(size_t limit) const { return limits_[limit].warned; }
  bool hintShown(size_t hint) const { return hints_[hint].shown; }

 private:
  struct ObjectiveState {
    Probe probe;
    BodyId body = World::kGround;
    double startHeight = 0.0;
    double since = -1.0;  ///< the condition has held since (s); negative: not holding
    double doneAt = -1.0;
  };
  struct HintState {
    Probe probe;
    double since = -1.0;
    bool shown = false;
  };
  struct LimitState {
    Probe probe;
    BodyId body = World::kGround;
    std::vector<BodyId> with;
    bool violated = false, warned = false;
    double touchEnded = -1.0;  ///< s: when a contact limit's last touch ended (-1: none yet)
    int violations = 0;
    double penalty = 0.0;
  };
  bool holds(const ExerciseObjective& o, ObjectiveState& s) const;
  bool touches(BodyId body, const std::vector<BodyId>& with, bool fixedOnly) const;
  void record(double time, ExerciseEvent::Kind kind, const std::string& name,
              const std::string& text);

  ExerciseDesc desc_;
  World& world_;
  std::vector<ObjectiveState> objectives_;
  std::vector<LimitState> limits_;
  std::vector<HintState> hints_;
  std::vector<ExerciseEvent> events_;
  double lastTime_ = 0.0;
  bool finished_ = false, failed_ = false;
};

}  // namespace impetus
