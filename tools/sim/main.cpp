// impetus-sim: the headless simulator.
//   impetus-sim validate SCENE.xml
//   impetus-sim run SCENE.xml --duration S [--voltage MOTOR=U ...] [--probe NAME ...] [--csv
//   OUT.csv]
//                             [--deterministic]
// Exit codes: 0 ok, 1 bad input (the message names file, line and problem), 2 internal error.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "impetus/probes/probe.h"
#include "impetus/scene/input_script.h"
#include "impetus/scene/scene_loader.h"
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
      "                       [--probe NAME ...] [--csv OUT.csv] [--deterministic]\n"
      "       impetus-sim bench SCENE.xml [--steps N]\n"
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
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--steps" && i + 1 < args.size())
      steps = std::lround(parseNumber(args[++i], "--steps"));
    else
      throw BadInput("unknown option '" + args[i] + "'");
  }
  if (steps < 1) throw BadInput("--steps must be >= 1");
  LoadedScene s = loadScene(path);
  World& world = *s.world;
  const std::vector<double> channels(s.console.channels().size(), 0.0);
  double physicsSeconds = 0.0, worstGap = 0.0;
  long iterations = 0;
  int iterationsMax = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < steps; ++i) {
    if (s.scheme) s.scheme->step(channels, s.step);
    const StepStatus status = world.step(s.step);
    if (!status.ok) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), status.message.c_str());
      return 2;
    }
    physicsSeconds += world.statistics().totalSeconds;
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
      s.name.c_str(), steps, steps / wall, 1000.0 * wall / steps, 1000.0 * physicsSeconds / steps,
      double(iterations) / steps, iterationsMax, worstGap, world.time());
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

int run(const std::string& path, const std::vector<std::string>& args) {
  double duration = -1.0;
  std::vector<std::pair<std::string, double>> voltages;
  std::vector<std::string> probes;
  std::string csvPath, inputPath;
  bool deterministic = false;
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
    } else if (args[i] == "--deterministic") {
      deterministic = true;
    } else {
      throw BadInput("unknown option '" + args[i] + "'");
    }
  }
  if (!(duration > 0.0)) throw BadInput("run needs --duration S with S > 0");
  LoadedScene s = loadScene(path);
  World& world = *s.world;
  world.settings().solver.deterministic = deterministic;
  std::vector<Probe> readers;
  for (const std::string& name : probes) {
    try {
      readers.push_back(resolveProbe(world, name));
    } catch (const std::invalid_argument& e) {
      throw BadInput(e.what());
    }
  }
  std::vector<DcMotor*> overridden;
  for (const auto& [motor, u] : voltages) {
    DcMotor* m = world.findMotor(motor);
    if (!m) throw BadInput("--voltage: no motor named '" + motor + "'");
    overridden.push_back(m);
  }
  FILE* csv = nullptr;
  if (!csvPath.empty()) {
    csv = std::fopen(csvPath.c_str(), "w");
    if (!csv) throw BadInput("cannot write '" + csvPath + "'");
    std::fprintf(csv, "t");
    for (const std::string& name : probes) std::fprintf(csv, ",%s", name.c_str());
    std::fprintf(csv, "\n");
  }
  std::vector<double> channels(s.console.channels().size(), 0.0);
  InputScript input =
      inputPath.empty() ? InputScript{} : InputScript::read(inputPath, s.console.channels());
  const long steps = std::lround(duration / s.step);
  for (long i = 0; i < steps; ++i) {
    input.apply(world.time(), channels);  // rows hold until the next one
    if (s.scheme) s.scheme->step(channels, s.step);
    for (size_t k = 0; k < voltages.size(); ++k) overridden[k]->setVoltage(voltages[k].second);
    const StepStatus status = world.step(s.step);
    if (!status.ok) {
      if (csv) std::fclose(csv);
      std::fprintf(stderr, "%s: %s\n", path.c_str(), status.message.c_str());
      return 2;
    }
    if (csv) {
      std::fprintf(csv, "%.17g", world.time());
      for (const Probe& p : readers) std::fprintf(csv, ",%.17g", p());
      std::fprintf(csv, "\n");
    }
  }
  if (csv) std::fclose(csv);
  std::printf("%s: ran %ld steps (%.3f s)", path.c_str(), steps, world.time());
  for (size_t k = 0; k < probes.size(); ++k)
    std::printf(", %s = %.9g", probes[k].c_str(), readers[k]());
  std::printf("\n");
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
    if (args.size() >= 2 && args[0] == "bench")
      return bench(args[1], {args.begin() + 2, args.end()});
    usage();
    return 1;
  } catch (const impetus::SceneError& e) {
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
