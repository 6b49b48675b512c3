// impetus-sim: the headless simulator.
//   impetus-sim validate SCENE.xml
//   impetus-sim run SCENE.xml --duration S [--input IN.csv] [--voltage MOTOR=U ...]
//       [--probe NAME ...] [--csv OUT.csv [--csv-substeps]] [--record OUT.session [--operator
//       NAME]]
//       [--push BODY@T=FX,FY,FZ ...] [--deterministic] [--realtime]
//   impetus-sim replay SESSION [--verify] [--csv OUT.csv] [--probe NAME ...] [--from T]
//       [--scene SCENE.xml]
//   impetus-sim bench SCENE.xml [--steps N] [--input IN.csv]
// Exit codes: 0 ok, 1 bad input (the message names file, line and problem), 2 internal error.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "impetus/exercise/exercise_evaluator.h"
#include "impetus/probes/probe.h"
#include "impetus/scene/input_script.h"
#include "impetus/scene/scene_loader.h"
#include "impetus/session/push.h"
#include "impetus/session/session_debrief.h"
#include "impetus/session/session_reader.h"
#include "impetus/session/session_recorder.h"
#include "impetus/session/session_replay.h"
#include "impetus/session/simulation.h"
#include "impetus/version.h"

namespace {

using namespace impetus;

struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void usage() {
  std::fprintf(
      stderr,
      "usage: impetus-sim validate SCENE.xml\n"
      "       impetus-sim run SCENE.xml --duration S [--input IN.csv] [--voltage MOTOR=U ...]\n"
      "                       [--probe NAME ...] [--csv OUT.csv] [--record OUT.session]\n"
      "                       [--operator NAME] [--push BODY@T=FX,FY,FZ ...]\n"
      "                       [--deterministic] [--realtime] [--csv-substeps]\n"
      "       impetus-sim replay SESSION [--verify] [--csv OUT.csv] [--probe NAME ...]\n"
      "                       [--from T] [--scene SCENE.xml]\n"
      "       impetus-sim report SESSION [--html OUT.html]\n"
      "       impetus-sim bench SCENE.xml [--steps N] [--input IN.csv]\n"
      "       impetus-sim --version\n");
}

double parseNumber(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v))
    throw BadInput(what + ": '" + text + "' is not a number");
  return v;
}

/// impetus-sim bench: steps a scene and prints `name: value` lines.
int bench(const std::string& path, const std::vector<std::string>& args) {
  long steps = 1000;
  std::string inputPath;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--steps" && i + 1 < args.size())
      steps = std::lround(parseNumber(args[++i], "--steps"));
    else if (args[i] == "--input" && i + 1 < args.size())
      inputPath = args[++i];
    else
      throw BadInput("unknown option '" + args[i] + "'");
  }
  if (steps < 1) throw BadInput("--steps must be >= 1");
  Simulation sim(loadScene(path));
  // Scripted console input (driving, grasping...): the speed of a scene at work, not at rest.
  InputScript input = inputPath.empty()
                          ? InputScript{}
                          : InputScript::read(inputPath, sim.scene().console.channels());
  const World& world = sim.world();
  // The scene's exercise, evaluated as `run` does; its own time is reported apart.
  std::optional<ExerciseEvaluator> exercise;
  if (sim.scene().exercise)
    exercise.emplace(*sim.scene().exercise, sim.world(),
                     sim.scene().scheme ? &*sim.scene().scheme : nullptr);
  double worstGap = 0.0, exerciseSeconds = 0.0;
  // Where the physics' time goes, by stage of World::step.
  StepStatistics stages;
  long iterations = 0;
  int iterationsMax = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < steps; ++i) {
    input.apply(sim.world().time(), sim.channels());
    const StepStatus status = sim.step();
    if (!status.ok) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), status.message.c_str());
      return 2;
    }
    if (exercise) {
      const auto before = std::chrono::steady_clock::now();
      exercise->afterStep(sim.world().time());
      exerciseSeconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
    }
    stages.addSeconds(world.statistics());
    iterations += world.statistics().velocityIterations;
    iterationsMax = std::max(iterationsMax, world.statistics().velocityIterations);
    worstGap = std::max(worstGap, world.largestAnchorSeparation());
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "scene: %s\nsteps: %ld\nsteps_per_second: %.1f\nms_per_step: %.4f\n"
      "physics_ms_per_step: %.4f\niterations_mean: %.2f\niterations_max: %d\n"
      "max_joint_error_m: %.6g\nsim_time_s: %.3f\n",
      sim.scene().name.c_str(), steps, steps / wall, 1000.0 * wall / steps,
      1000.0 * stages.totalSeconds / steps, double(iterations) / steps, iterationsMax, worstGap,
      world.time());
  const auto msPerStep = [&](double seconds) { return 1000.0 * seconds / double(steps); };
  std::printf(
      "physics_stages_ms_per_step: forces %.4f, collide %.4f, prepare %.4f, velocities %.4f, "
      "integrate %.4f, positions %.4f\n",
      msPerStep(stages.integrateVelocitySeconds), msPerStep(stages.collideSeconds),
      msPerStep(stages.prepareSeconds), msPerStep(stages.solveVelocitySeconds),
      msPerStep(stages.integratePositionSeconds), msPerStep(stages.solvePositionSeconds));
  if (exercise) std::printf("exercise_ms_per_step: %.5f\n", 1000.0 * exerciseSeconds / steps);
  return 0;
}

int validate(const std::string& path) {
  const LoadedScene s = loadScene(path);
  int geoms = static_cast<int>(s.geoms.size());
  std::printf(
      "%s: scene '%s': %d bodies, %d joints, %d motors, %d geoms, %d scheme blocks, %zu console "
      "controls\n",
      path.c_str(), s.name.c_str(), s.world->bodyCount() - 1, s.world->jointCount(),
      s.world->motorCount(), geoms, s.scheme ? s.scheme->blockCount() : 0,
      s.console.controls.size());
  return 0;
}

/// The probes' CSV: header `t,<probe>,...`, one row per step at %.17g.
class ProbeCsv {
 public:
  ProbeCsv(const std::string& path, const std::vector<std::string>& names) {
    if (path.empty()) return;
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) throw BadInput("cannot write '" + path + "'");
    std::fprintf(file_, "t");
    for (const std::string& name : names) std::fprintf(file_, ",%s", name.c_str());
    std::fprintf(file_, "\n");
  }
  ~ProbeCsv() {
    if (file_) std::fclose(file_);
  }
  void row(double t, const std::vector<Probe>& probes) {
    if (!file_) return;
    std::fprintf(file_, "%.17g", t);
    for (const Probe& p : probes) std::fprintf(file_, ",%.17g", p());
    std::fprintf(file_, "\n");
  }

 private:
  FILE* file_ = nullptr;
};

std::vector<Probe> resolveProbes(Simulation& sim, const std::vector<std::string>& names) {
  std::vector<Probe> readers;
  const Scheme* scheme = sim.scene().scheme ? &*sim.scene().scheme : nullptr;
  for (const std::string& name : names) {
    try {
      readers.push_back(resolveProbe(sim.world(), scheme, name));
    } catch (const std::invalid_argument& e) {
      throw BadInput(e.what());
    }
  }
  return readers;
}

void printSummary(const std::string& what, long steps, double t,
                  const std::vector<std::string>& names, const std::vector<Probe>& probes) {
  std::printf("%s: ran %ld steps (%.3f s)", what.c_str(), steps, t);
  for (size_t k = 0; k < names.size(); ++k)
    std::printf(", %s = %.9g", names[k].c_str(), probes[k]());
  std::printf("\n");
}

/// The exercise's events since `from` as the trainee is told them.
size_t printExerciseEvents(const ExerciseEvaluator& exercise, size_t from) {
  const auto& events = exercise.events();
  for (; from < events.size(); ++from) {
    const ExerciseEvent& e = events[from];
    std::printf("t = %.2f s: %s '%s': %s\n", e.time, toString(e.kind), e.name.c_str(),
                e.text.c_str());
  }
  return events.size();
}

/// The exercise's outcome as `name: value` lines.
void printExerciseSummary(const ExerciseEvaluator& exercise) {
  const ExerciseDesc& d = exercise.desc();
  std::printf("exercise: %s\n", d.name.c_str());
  std::printf("score: %.6g\n", exercise.score());
  std::printf("passed: %s\n", exercise.passed() ? "true" : "false");
  for (size_t i = 0; i < d.objectives.size(); ++i) {
    if (exercise.doneAt(i) >= 0.0)
      std::printf("objective.%s: done at %.2f\n", d.objectives[i].name.c_str(), exercise.doneAt(i));
    else
      std::printf("objective.%s: not done\n", d.objectives[i].name.c_str());
  }
  for (size_t i = 0; i < d.limits.size(); ++i)
    std::printf("limit.%s: %d violations\n", d.limits[i].name.c_str(), exercise.violations(i));
}

int run(const std::string& path, const std::vector<std::string>& args) {
  double duration = -1.0;
  std::vector<std::pair<std::string, double>> voltages;
  std::vector<ScheduledPush> pushes;
  std::vector<std::string> probes;
  std::string csvPath, inputPath, recordPath, operatorName;
  bool deterministic = false, realtime = false, csvSubsteps = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto value = [&](const char* option) {
      if (i + 1 >= args.size()) throw BadInput(std::string(option) + " needs a value");
      return args[++i];
    };
    if (args[i] == "--duration") {
      duration = parseNumber(value("--duration"), "--duration");
    } else if (args[i] == "--voltage") {
      const std::string v = value("--voltage");
      const size_t eq = v.find('=');
      if (eq == std::string::npos) throw BadInput("--voltage takes MOTOR=U, got '" + v + "'");
      voltages.emplace_back(v.substr(0, eq),
                            parseNumber(v.substr(eq + 1), "--voltage " + v.substr(0, eq)));
    } else if (args[i] == "--probe") {
      probes.push_back(value("--probe"));
    } else if (args[i] == "--csv") {
      csvPath = value("--csv");
    } else if (args[i] == "--input") {
      inputPath = value("--input");
    } else if (args[i] == "--record") {
      recordPath = value("--record");
    } else if (args[i] == "--operator") {
      operatorName = value("--operator");
    } else if (args[i] == "--deterministic") {
      deterministic = true;
    } else if (args[i] == "--push") {
      try {
        pushes.push_back(parsePush(value("--push")));
      } catch (const std::invalid_argument& e) {
        throw BadInput(std::string("--push: ") + e.what());
      }
    } else if (args[i] == "--realtime") {
      realtime = true;
    } else if (args[i] == "--csv-substeps") {
      csvSubsteps = true;
    } else {
      throw BadInput("unknown option '" + args[i] + "'");
    }
  }
  if (!(duration > 0.0)) throw BadInput("run needs --duration S with S > 0");
  Simulation sim(loadScene(path));
  sim.setDeterministic(deterministic);
  const std::vector<Probe> readers = resolveProbes(sim, probes);
  for (const auto& [motor, u] : voltages) {
    try {
      sim.overrideVoltage(motor, u);
    } catch (const std::invalid_argument& e) {
      throw BadInput(std::string("--voltage: ") + e.what());
    }
  }
  for (const ScheduledPush& p : pushes) {
    try {
      sim.schedulePush(p);
    } catch (const std::invalid_argument& e) {
      throw BadInput(std::string("--push: ") + e.what());
    }
  }
  ProbeCsv csv(csvPath, probes);
  if (csvSubsteps)  // a row per sub-step: an impact's peaks inside the 10 ms step
    sim.world().setSubstepObserver([&] { csv.row(sim.world().time(), readers); });
  InputScript input = inputPath.empty()
                          ? InputScript{}
                          : InputScript::read(inputPath, sim.scene().console.channels());
  std::unique_ptr<SessionRecorder> recorder;
  if (!recordPath.empty())
    recorder = std::make_unique<SessionRecorder>(recordPath, sim,
                                                 RecordingOptions{.operatorName = operatorName});
  if (recorder) {
    std::printf("recording %s\n", recordPath.c_str());
    std::fflush(stdout);
  }
  // The console's lamps, as the trainee would see them light (the humanoid's "Fallen").
  struct Lamp {
    std::string label;
    Probe read;
    bool lit = false;
  };
  std::vector<Lamp> lamps;
  const Scheme* scheme = sim.scene().scheme ? &*sim.scene().scheme : nullptr;
  for (const ControlDesc& c : sim.scene().console.controls)
    if (c.kind == ControlDesc::Kind::Lamp)
      lamps.push_back({c.label.empty() ? c.name : c.label,
                       resolveIndicatorSignal(sim.world(), scheme, c.signal)});
  std::optional<ExerciseEvaluator> exercise;
  if (sim.scene().exercise) exercise.emplace(*sim.scene().exercise, sim.world(), scheme);
  size_t exerciseEvents = 0;
  const long steps = std::lround(duration / sim.stepSize());
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < steps; ++i) {
    input.apply(sim.world().time(), sim.channels());  // rows hold until the next one
    const StepStatus status = sim.step();
    for (Lamp& lamp : lamps)
      if (const bool lit = lamp.read() > 0.5; lit != lamp.lit) {
        lamp.lit = lit;
        std::printf("t = %.2f s: lamp '%s' %s\n", sim.world().time(), lamp.label.c_str(),
                    lit ? "on" : "off");
      }
    if (!status.ok) {
      // The recording keeps everything up to the failure, and says why it ended.
      if (recorder) {
        if (exercise) recorder->setExercise(outcomeOf(*exercise));
        recorder->finish(sim, "stopped: " + status.message);
      }
      std::fprintf(stderr, "%s: %s\n", path.c_str(), status.message.c_str());
      return 2;
    }
    if (recorder) recorder->afterStep(sim);
    if (exercise) {
      exercise->afterStep(sim.world().time());
      exerciseEvents = printExerciseEvents(*exercise, exerciseEvents);
    }
    if (!csvSubsteps) csv.row(sim.world().time(), readers);
    if (realtime)  // real-time factor 1 against the wall clock
      std::this_thread::sleep_until(start +
                                    std::chrono::duration<double>((i + 1) * sim.stepSize()));
  }
  if (recorder) {
    if (exercise) recorder->setExercise(outcomeOf(*exercise));
    recorder->finish(sim);
  }
  printSummary(path, steps, sim.world().time(), probes, readers);
  if (exercise) printExerciseSummary(*exercise);
  return 0;
}

void printSessionHeader(const std::string& path, const SessionInfo& info) {
  std::printf("%s: scene '%s', operator '%s', recorded %s, %.2f s (%lld steps)%s%s\n", path.c_str(),
              info.sceneName.c_str(), info.operatorName.c_str(), info.created.c_str(),
              info.duration(), static_cast<long long>(info.steps),
              info.deterministic ? ", deterministic" : "",
              info.endReason.empty() ? ", recorder did not finish (crash?)"
                                     : (", ended: " + info.endReason).c_str());
}

/// impetus-sim report: the debrief of a recorded exercise, re-evaluated along the replay; with
/// --html OUT also as a self-contained page with the limited quantities plotted.
int report(const std::string& path, const std::vector<std::string>& args) {
  std::string htmlPath;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--html" && i + 1 < args.size())
      htmlPath = args[++i];
    else
      throw BadInput("unknown option '" + args[i] + "'");
  }
  printSessionHeader(path, SessionReader(path).info());
  size_t printed = 0;
  std::string page;
  try {
    page = replayExerciseDebrief(
               path,
               [&](const ExerciseEvaluator& exercise) {
                 printed = printExerciseEvents(exercise, printed);
               },
               [](const ExerciseEvaluator& exercise) { printExerciseSummary(exercise); })
               .html;
  } catch (const std::invalid_argument& e) {
    throw BadInput(e.what());
  }
  if (!htmlPath.empty()) {
    std::ofstream out(htmlPath);
    out << page;
    if (!out) throw BadInput("cannot write '" + htmlPath + "'");
    std::printf("report: %s\n", htmlPath.c_str());
  }
  return 0;
}

/// impetus-sim replay: re-simulates a session from its recorded inputs.
int replay(const std::string& path, const std::vector<std::string>& args) {
  std::vector<std::string> probes;
  std::string csvPath, scenePath;
  bool verify = false;
  double from = 0.0;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto value = [&](const char* option) {
      if (i + 1 >= args.size()) throw BadInput(std::string(option) + " needs a value");
      return args[++i];
    };
    if (args[i] == "--verify")
      verify = true;
    else if (args[i] == "--probe")
      probes.push_back(value("--probe"));
    else if (args[i] == "--csv")
      csvPath = value("--csv");
    else if (args[i] == "--scene")
      scenePath = value("--scene");
    else if (args[i] == "--from")
      from = parseNumber(value("--from"), "--from");
    else
      throw BadInput("unknown option '" + args[i] + "'");
  }
  SessionReader reader(path);
  const SessionInfo& info = reader.info();
  printSessionHeader(path, info);
  SessionReplay replay(reader, scenePath);
  if (verify) {
    if (!info.deterministic)
      std::printf("note: recorded without --deterministic: re-simulation may differ\n");
    if (const auto divergence = replay.verify()) {
      std::fprintf(stderr, "%s: verify: first divergence at step %lld: %s\n", path.c_str(),
                   static_cast<long long>(divergence->step), divergence->what.c_str());
      return 1;
    }
    std::printf("verify: %lld steps re-simulated, every state matches the recording\n",
                static_cast<long long>(info.steps));
    return 0;
  }
  const std::vector<Probe> readers = resolveProbes(replay.simulation(), probes);
  ProbeCsv csv(csvPath, probes);
  replay.seek(info.firstStep + std::llround(from / info.step));
  long steps = 0;
  while (replay.advance()) {
    csv.row(replay.simulation().world().time(), readers);
    ++steps;
  }
  printSummary(path, steps, replay.simulation().world().time(), probes, readers);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 1 && args[0] == "--version") {
      std::printf("impetus-sim %s\n", impetus::version());
      return 0;
    }
    if (args.size() >= 2 && args[0] == "validate" && args.size() == 2) return validate(args[1]);
    if (args.size() >= 2 && args[0] == "run") return run(args[1], {args.begin() + 2, args.end()});
    if (args.size() >= 2 && args[0] == "replay")
      return replay(args[1], {args.begin() + 2, args.end()});
    if (args.size() >= 2 && args[0] == "report")
      return report(args[1], {args.begin() + 2, args.end()});
    if (args.size() >= 2 && args[0] == "bench")
      return bench(args[1], {args.begin() + 2, args.end()});
    usage();
    return 1;
  } catch (const impetus::SceneError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const impetus::SessionError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const BadInput& e) {
    std::fprintf(stderr, "impetus-sim: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "impetus-sim: internal error: %s\n", e.what());
    return 2;
  }
}
