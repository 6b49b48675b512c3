#pragma once
// Runs engines on scenes: one quality run reading every step's states, then timed runs (states
// not read) whose median gives steps per second. Results travel between the two benchmark
// processes (Bullet's float build cannot share a process with Impetus's double Bullet collision
// library: same symbols) as tab-separated lines.

#include <string>
#include <vector>

#include "peer_engine.h"

namespace peers {

struct PeerResult {
  std::string scene, engine, settings;
  bool skipped = false;
  std::string why;            ///< skipped: the reason
  double stepsPerSecond = 0;  ///< median of the timed runs
  int runs = 0;
  Quality quality;
};

/// One quality run and `runs` timed runs (their median); a scene with variants
/// (BenchScene::variantRaises) runs each variant so and reports the mean step cost over them and
/// the worst quality.
PeerResult runPeer(PeerEngine& engine, const BenchScene& scene, int runs);

std::string toLine(const PeerResult& r);
/// Parses a toLine() line; false when it is not one.
bool fromLine(const std::string& line, PeerResult& r);

/// Whether a row's engine runs with its sleeping on (Impetus's default, ODE's auto-disable,
/// Bullet's deactivation), judged by its label.
bool sleepingVariant(const std::string& engine);
/// Markdown table of all results, grouped by scene, with each engine's speed as a ratio of
/// Impetus's (Impetus / engine: > 1 means Impetus is faster), sleeping engines against Impetus
/// sleeping and the others against Impetus with sleeping off.
std::string markdownTable(const std::vector<PeerResult>& results);

/// Common command line: --runs N, --scenes a,b, --engines x,y (substring of the label).
struct PeerOptions {
  int runs = 5;
  std::vector<std::string> scenes{"chain30", "stack10", "ragdoll", "ragdoll-drops", "chain100"};
  std::vector<std::string> engines;  ///< empty: all
  bool rowsOnly = false;             ///< print toLine() rows (the child process)
};
PeerOptions parseOptions(int argc, char** argv);
bool engineSelected(const PeerOptions& o, const std::string& label);

/// Runs the given engines over the options' scenes.
std::vector<PeerResult> runAll(const std::vector<PeerFactory>& factories, const PeerOptions& o);

}  // namespace peers
