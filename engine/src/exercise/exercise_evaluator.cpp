#include "impetus/exercise/exercise_evaluator.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

namespace impetus {

bool ExerciseRegion::contains(const Vec3& p) const {
  if (shape == Shape::Sphere) return (p - centre).norm() <= radius;
  return ((p - centre).cwiseAbs().array() <= 0.5 * size.array()).all();
}

const char* toString(ExerciseEvent::Kind kind) {
  static constexpr const char* kNames[] = {"objective done", "warning",   "limit broken",
                                           "failed",         "completed", "hint"};
  static_assert(std::size(kNames) == size_t(ExerciseEvent::Kind::Hint) + 1);
  return kNames[size_t(kind)];
}

namespace {
/// A rest is slower than this (m/s).
constexpr double kRestSpeed = 0.02;
/// A contact limit's touch that resumes less than this after it ended (s) is the same touch: two
/// steps (20 ms) of a bounce, well under an operator's reaction.
constexpr double kSameTouch = 0.1;

Probe requireProbe(World& world, const Scheme* scheme, const std::string& name,
                   const std::string& what) {
  try {
    return resolveProbe(world, scheme, name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + ": " + e.what());
  }
}

/// Whether a condition true now (`holds`) has been so for `duration` (s) at `time`; `since` keeps
/// when it began (negative: it does not hold).
bool heldFor(bool holds, double time, double duration, double& since) {
  if (!holds) {
    since = -1.0;
    return false;
  }
  if (since < 0.0) since = time;
  return time - since >= duration - 1e-9;
}

BodyId requireBody(const World& world, const std::string& name, const std::string& what) {
  const BodyId id = world.findBody(name);
  if (id < 0) throw std::invalid_argument(what + ": no body named '" + name + "'");
  return id;
}
}  // namespace

ExerciseEvaluator::ExerciseEvaluator(const ExerciseDesc& desc, World& world, const Scheme* scheme)
    : desc_(desc), world_(world) {
  for (const ExerciseObjective& o : desc_.objectives) {
    ObjectiveState s;
    const std::string what = "objective '" + o.name + "'";
    if (!o.probe.empty()) s.probe = requireProbe(world, scheme, o.probe, what);
    if (!o.body.empty()) {
      s.body = requireBody(world, o.body, what);
      s.startHeight = world.body(s.body).position.z();
    }
    objectives_.push_back(std::move(s));
  }
  for (const ExerciseLimit& l : desc_.limits) {
    LimitState s;
    const std::string what = "limit '" + l.name + "'";
    if (!l.probe.empty()) s.probe = requireProbe(world, scheme, l.probe, what);
    if (!l.body.empty()) s.body = requireBody(world, l.body, what);
    for (const std::string& w : l.with) s.with.push_back(requireBody(world, w, what));
    limits_.push_back(std::move(s));
  }
  for (const ExerciseHint& h : desc_.hints) {
    HintState s;
    if (!h.probe.empty()) s.probe = requireProbe(world, scheme, h.probe, "hint '" + h.name + "'");
    hints_.push_back(std::move(s));
  }
}

bool ExerciseEvaluator::touches(BodyId body, const std::vector<BodyId>& with,
                                bool fixedOnly) const {
  for (const ContactPoint& c : world_.contacts()) {
    if (c.normalImpulse <= 0.0) continue;  // a speculative point that did not push
    BodyId other;
    if (c.bodyA == body)
      other = c.bodyB;
    else if (c.bodyB == body)
      other = c.bodyA;
    else
      continue;
    if (fixedOnly && world_.body(other).type != BodyType::Static) continue;
    if (with.empty() || std::find(with.begin(), with.end(), other) != with.end()) return true;
  }
  return false;
}

bool ExerciseEvaluator::holds(const ExerciseObjective& o, ObjectiveState& s) const {
  switch (o.kind) {
    case ExerciseObjective::Kind::Region:
      return o.region.contains(world_.body(s.body).position);
    case ExerciseObjective::Kind::Hold:
    case ExerciseObjective::Kind::Cross: {
      const double v = s.probe();
      return v >= o.min && v <= o.max;
    }
    case ExerciseObjective::Kind::Rest: {
      const RigidBody& b = world_.body(s.body);
      return o.region.contains(b.position) && b.linearVelocity.norm() < kRestSpeed;
    }
    case ExerciseObjective::Kind::Lift:
      return world_.body(s.body).position.z() >= s.startHeight + o.height &&
             !touches(s.body, {}, true);
  }
  return false;
}

void ExerciseEvaluator::record(double time, ExerciseEvent::Kind kind, const std::string& name,
                               const std::string& text) {
  events_.push_back({time, kind, name, text});
}

void ExerciseEvaluator::afterStep(double time) {
  if (finished_) return;
  const double dt = std::max(0.0, time - lastTime_);
  lastTime_ = time;
  // Objectives: each once its prerequisites are done, held for its duration.
  for (size_t i = 0; i < objectives_.size(); ++i) {
    ObjectiveState& s = objectives_[i];
    const ExerciseObjective& o = desc_.objectives[i];
    if (s.doneAt >= 0.0) continue;
    const bool ready = std::all_of(o.after.begin(), o.after.end(),
                                   [&](int k) { return objectives_[size_t(k)].doneAt >= 0.0; });
    if (heldFor(ready && holds(o, s), time, o.duration, s.since)) {
      s.doneAt = time;
      record(time, ExerciseEvent::Kind::ObjectiveDone, o.name, o.text);
    }
  }
  // Limits: a violation counts once when it begins; per-second penalties run while it lasts.
  for (size_t i = 0; i < limits_.size(); ++i) {
    LimitState& s = limits_[i];
    const ExerciseLimit& l = desc_.limits[i];
    bool violated = false, warned = false;
    if (l.kind == ExerciseLimit::Kind::Probe) {
      const double v = s.probe();
      violated = !(v >= l.min && v <= l.max);  // NaN breaks it too
      warned = !violated && (v > l.max - l.warn || v < l.min + l.warn);
    } else {
      violated = touches(s.body, s.with, false);
    }
    if (warned && !s.warned && !violated)
      record(time, ExerciseEvent::Kind::Warning, l.name, l.text);
    s.warned = warned;
    // A contact that lets go and comes back within kSameTouch is one collision bouncing (a link
    // striking a frame leaves it by a millimetre and is driven back 20 ms later), not a new one.
    const bool sameTouch = l.kind == ExerciseLimit::Kind::Contact && s.touchEnded >= 0.0 &&
                           time - s.touchEnded < kSameTouch;
    if (!violated && s.violated && l.kind == ExerciseLimit::Kind::Contact) s.touchEnded = time;
    if (violated && !s.violated && !sameTouch) {
      ++s.violations;
      if (!l.perSecond) s.penalty += l.penalty;
      record(time, ExerciseEvent::Kind::Violation, l.name, l.text);
      if (l.stop) {
        failed_ = finished_ = true;
        record(time, ExerciseEvent::Kind::Failed, l.name, l.text);
      }
    }
    if (violated && l.perSecond) s.penalty += l.penalty * dt;
    s.violated = violated;
    if (finished_) return;
  }
  // Hints: each once, when its conditions have held for its time.
  for (size_t i = 0; i < hints_.size(); ++i) {
    HintState& s = hints_[i];
    const ExerciseHint& h = desc_.hints[i];
    if (s.shown) continue;
    bool holds = h.objective < 0 || objectives_[size_t(h.objective)].doneAt < 0.0;
    if (holds && s.probe) {
      const double v = s.probe();
      holds = v >= h.min && v <= h.max;
    }
    if (heldFor(holds, time, h.duration, s.since)) {
      s.shown = true;
      record(time, ExerciseEvent::Kind::Hint, h.name, h.text);
    }
  }
  const bool allDone = std::all_of(objectives_.begin(), objectives_.end(),
                                   [](const ObjectiveState& s) { return s.doneAt >= 0.0; });
  if (allDone) {
    finished_ = true;
    record(time, ExerciseEvent::Kind::Completed, desc_.name, desc_.title);
  } else if (desc_.timeLimit > 0.0 && time >= desc_.timeLimit - 1e-9) {
    failed_ = finished_ = true;
    record(time, ExerciseEvent::Kind::Failed, "time", "the time is up");
  }
}

double ExerciseEvaluator::penalties() const {
  double p = 0.0;
  for (const LimitState& s : limits_) p += s.penalty;
  for (size_t i = 0; i < hints_.size(); ++i)
    if (hints_[i].shown) p += desc_.hints[i].penalty;
  return p;
}

double ExerciseEvaluator::score() const {
  double points = 0.0;
  for (size_t i = 0; i < objectives_.size(); ++i)
    if (objectives_[i].doneAt >= 0.0) points += desc_.objectives[i].weight;
  return points - penalties();
}

bool ExerciseEvaluator::passed() const {
  if (!finished_ || failed_) return false;
  return score() >= desc_.passMark - 1e-9;
}

}  // namespace impetus
