#pragma once
// A training exercise as a scene declares it (<exercise>, scenes/README.md): objectives the
// trainee reaches, limits they must respect, and how that is scored.

#include <string>
#include <vector>

#include "impetus/math/types.h"

namespace impetus {

/// A region of space: a box (centre, full edge lengths, world axes) or a sphere.
struct ExerciseRegion {
  enum class Shape { Box, Sphere } shape = Shape::Box;
  Vec3 centre = Vec3::Zero();  ///< (m)
  Vec3 size = Vec3::Zero();    ///< box edges (m)
  double radius = 0.0;         ///< sphere (m)
  bool contains(const Vec3& p) const;
};

struct ExerciseObjective {
  enum class Kind {
    Region,  ///< `body`'s centre of mass inside `region` (for `duration`)
    Hold,    ///< `probe` within [min, max] for `duration`
    Cross,   ///< `probe` reaches `above` (>=) or `below` (<=)
    Rest,    ///< `body` inside `region` and at rest (slower than 0.02 m/s) for `duration`
    Lift,    ///< `body` `height` above where it started, touching no fixed body, for `duration`
  };
  Kind kind = Kind::Cross;
  std::string name, text;
  int line = 0;  ///< in the scene file (for messages)
  std::string probe, body;
  ExerciseRegion region;
  double min = -1e300, max = 1e300;  ///< Hold: the band; Cross: above (min) or below (max)
  double height = 0.0;               ///< Lift (m)
  double duration = 0.0;             ///< (s)
  double weight = 1.0;               ///< points when done
  std::vector<int> after;            ///< objectives that must be done first (indices)
};

struct ExerciseLimit {
  enum class Kind {
    Probe,    ///< `probe` must stay within [min, max]; warned within `warn` of a bound
    Contact,  ///< `body` must not touch any of `with` (empty: anything)
  };
  Kind kind = Kind::Probe;
  std::string name, text;
  int line = 0;
  std::string probe, body;
  std::vector<std::string> with;
  double min = -1e300, max = 1e300, warn = 0.0;
  double penalty = 0.0;  ///< points per violation, or per second of violation
  bool perSecond = false;
  bool stop = false;  ///< a violation ends the exercise, failed
};

/// Tutoring: shown once when its conditions have held for `duration` - `objective` (an index)
/// still not done, and `probe` within [min, max] if given - at a cost of `penalty` points.
struct ExerciseHint {
  std::string name, text;
  int line = 0;
  int objective = -1;  ///< -1: no objective condition
  std::string probe;   ///< empty: no probe condition
  double min = -1e300, max = 1e300;
  double duration = 0.0;  ///< (s)
  double penalty = 0.0;
};

struct ExerciseDesc {
  std::string name, title;
  double timeLimit = 0.0;  ///< (s); 0: none
  double passMark = 0.0;   ///< score needed (with every objective done) to pass
  std::vector<ExerciseObjective> objectives;
  std::vector<ExerciseLimit> limits;
  std::vector<ExerciseHint> hints;
};

}  // namespace impetus
