// impetus-soak: a training day on every scene - hours of simulated time under the input a tired
// trainee gives (sticks slammed between stops, buttons mashed, long idle spells), checking every
// step for what must never happen: non-finite numbers (the world's own check stops it), joints
// pulled open, energy that grows with no input, and memory that grows with time.
//
//   impetus-soak [--minutes M] [--seed S] SCENE.xml...
//
// Prints one line per scene and exits 1 if any scene failed (the line says why). A failed scene's
// input is written to SCENE.soak-input.csv in the working directory (the `--input` format of
// impetus-sim run, which then replays the failure).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "impetus/scene/scene_loader.h"
#include "impetus/session/simulation.h"
#include "resident_memory.h"
#include "trainee_spells.h"

using namespace impetus;
using impetus::soak::residentBytes;
using impetus::soak::TraineeSpells;

namespace {

constexpr double kOpenJoint = 0.01;         // m: a joint's anchors this far apart are pulled open
constexpr double kRunawaySpeed = 100.0;     // m/s: no body of these scenes moves this fast
constexpr double kIdleEnergySlack = 1.0;    // J: what an idle spell may gain (a controller's sway)
constexpr double kMemoryGrowthBytes = 2e6;  // after the warm-up

/// Kinetic energy plus what the beams' and flexible gears' springs hold: a flexible arm's slow
/// ringing trades one for the other, and kinetic energy alone would seem to grow.
double mechanicalEnergy(const World& world) {
  return world.kineticEnergy() + world.elasticEnergy();
}

/// A tired trainee (TraineeSpells) at the console's channels: a slam puts every stick at one of
/// its stops, a mash presses or releases every button, an idle spell lets go of everything.
/// Every input given is written as it is given to an --input script (header t,channel...): kept
/// in memory, eight hours of it would be the megabytes the memory check looks for.
class TiredTrainee {
 public:
  TiredTrainee(const ConsoleDesc& console, std::uint64_t seed, const std::string& scriptPath)
      : spells_(seed), script_(scriptPath) {
    if (!script_) throw std::runtime_error("cannot write " + scriptPath);
    script_ << "t";
    for (const ControlDesc& c : console.controls)
      for (size_t k = 0; k < c.channels.size(); ++k) {
        channels_.push_back({c.kind, c.minimum, c.maximum});
        script_ << ',' << c.channels[k];
      }
    script_ << '\n';
    script_.precision(17);
  }
  bool idle() const { return spells_.idle(); }
  /// The input at time t (s), written into `out` (console channel order).
  void apply(double t, std::span<double> out) {
    if (!spells_.due(t)) return;
    script_ << t;
    for (size_t i = 0; i < channels_.size() && i < out.size(); ++i) {
      out[i] = pick(channels_[i]);
      script_ << ',' << out[i];
    }
    script_ << '\n';
    spells_.moved(t);
  }
  void closeScript() { script_.close(); }

 private:
  struct Channel {
    ControlDesc::Kind kind;
    double minimum, maximum;
  };
  double pick(const Channel& c) {
    if (spells_.idle()) return 0.0;
    switch (c.kind) {
      case ControlDesc::Kind::Joystick:
        return spells_.stickStop();
      case ControlDesc::Kind::Slider:
        return spells_.uniform(c.minimum, c.maximum);
      default:  // toggles and buttons, mashed
        return spells_.pick(0, 1);
    }
  }
  TraineeSpells spells_;
  std::vector<Channel> channels_;
  std::ofstream script_;
};

/// The widest a joint was pulled open, which joint and when.
struct WorstGap {
  double gap = 0.0;  ///< m
  std::string joint;
  double time = 0.0;  ///< s
};

/// The joint whose anchors are farthest apart now.
std::string widestJoint(const World& world) {
  int widest = 0;
  for (int j = 1; j < world.jointCount(); ++j)
    if (world.joint(j).anchorSeparation(world.bodies()) >
        world.joint(widest).anchorSeparation(world.bodies()))
      widest = j;
  return world.jointCount() > 0 ? world.joint(widest).name() : std::string();
}

/// Runs one scene for `seconds` of simulated time; returns the failure, empty when none.
std::string run(Simulation& sim, TiredTrainee& trainee, double seconds, WorstGap& worst,
                double& memoryGrowth) {
  const World& world = sim.world();
  const double warmUp = std::min(60.0, 0.2 * seconds);  // s of simulated time before memory counts
  double memoryAtWarmUp = -1.0, idlePeakEnergy = -1.0, idleStart = 0.0;
  worst = WorstGap{};
  memoryGrowth = 0.0;
  const auto when = [&] { return " at t = " + std::to_string(world.time()) + " s"; };
  while (world.time() < seconds - 1e-9) {
    trainee.apply(world.time(), sim.channels());
    const StepStatus status = sim.step();
    if (!status.ok) return status.message + when();
    if (const double gap = world.largestAnchorSeparation(); gap > worst.gap)
      worst = {gap, widestJoint(world), world.time()};
    if (worst.gap > kOpenJoint)
      return "joint '" + worst.joint + "' pulled " + std::to_string(1e3 * worst.gap) + " mm open" +
             when();
    for (BodyId b = 0; b < world.bodyCount(); ++b)
      if (!(world.body(b).linearVelocity.norm() < kRunawaySpeed))
        return "body '" + world.body(b).name + "' runs away" + when();
    // With no input the world can only lose energy, after the last command's motion has settled
    // (the first 5 s of a spell); a balancing controller's sway is the slack. Measured against
    // the peak of the next 5 s, not one sample: a servo-held flexible arm rings for a while,
    // trading energy with its servos' stiffness (which mechanicalEnergy does not hold), and a
    // sample at a trough of that exchange made the next crest look like growth (the space arm:
    // +1.001 J at 0.6 Hz, decaying).
    if (trainee.idle()) {
      const double idle = world.time() - idleStart, energy = mechanicalEnergy(world);
      if (idle >= 5.0 && idle < 10.0) idlePeakEnergy = std::max(idlePeakEnergy, energy);
      if (idle >= 10.0 && idlePeakEnergy >= 0.0 && energy > idlePeakEnergy + kIdleEnergySlack)
        return "energy grew by " + std::to_string(energy - idlePeakEnergy) + " J with no input" +
               when();
    } else {
      idleStart = world.time();
      idlePeakEnergy = -1.0;
    }
    if (memoryAtWarmUp < 0.0 && world.time() >= warmUp) memoryAtWarmUp = residentBytes();
  }
  memoryGrowth = memoryAtWarmUp < 0.0 ? 0.0 : residentBytes() - memoryAtWarmUp;
  if (memoryGrowth > kMemoryGrowthBytes)
    return "resident memory grew " + std::to_string(memoryGrowth / 1e6) + " MB";
  return {};
}

std::string soakScene(const std::string& path, double seconds, std::uint64_t seed, WorstGap& worst,
                      double& memoryGrowth) {
  Simulation sim(loadScene(path));
  std::string stem = path.substr(path.find_last_of('/') + 1);
  stem = stem.substr(0, stem.rfind(".xml"));
  const std::string input = stem + ".soak-input.csv";
  TiredTrainee trainee(sim.scene().console, seed, input);
  std::string failure = run(sim, trainee, seconds, worst, memoryGrowth);
  trainee.closeScript();
  if (failure.empty())
    std::remove(input.c_str());
  else
    failure += " (input: " + input + ")";
  return failure;
}

}  // namespace

int main(int argc, char** argv) {
  double minutes = 480.0;  // a training day
  std::uint64_t seed = 1;
  std::vector<std::string> scenes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--minutes" && i + 1 < argc)
      minutes = std::atof(argv[++i]);
    else if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "usage: impetus-soak [--minutes M] [--seed S] SCENE.xml...\n");
      return 1;
    } else
      scenes.push_back(a);
  }
  if (scenes.empty() || !(minutes > 0.0)) {
    std::fprintf(stderr, "usage: impetus-soak [--minutes M] [--seed S] SCENE.xml...\n");
    return 1;
  }
  int failed = 0;
  for (const std::string& scene : scenes) {
    WorstGap worst;
    double memory = 0.0;
    std::string failure;
    try {
      failure = soakScene(scene, 60.0 * minutes, seed, worst, memory);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    const std::string where =
        worst.joint.empty() ? ""
                            : " ('" + worst.joint + "' at " + std::to_string(worst.time) + " s)";
    std::printf("%s: %.1f simulated min, worst joint gap %.3f mm%s, memory %+.2f MB: %s\n",
                scene.c_str(), minutes, 1e3 * worst.gap, where.c_str(), memory / 1e6,
                failure.empty() ? "ok" : ("FAILED: " + failure).c_str());
    std::fflush(stdout);
    if (!failure.empty()) ++failed;
  }
  return failed == 0 ? 0 : 1;
}
