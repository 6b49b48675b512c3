// The side-by-side benchmark: Impetus, MuJoCo 2.2.2 and ODE 0.16 in this process, Bullet 3.24 in
// a companion process (peer_bench_bullet, next to this executable), one table.
//   build/bench/tools/bench/peers/peer_bench [--runs N] [--scenes ...] [--engines ...]
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "peer_factories.h"
#include "peer_runner.h"

namespace {

std::string cpuModel() {
  std::ifstream cpu("/proc/cpuinfo");
  for (std::string line; std::getline(cpu, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::string quoted(const std::string& s) {
  return "'" + s + "'";
}

/// Runs the Bullet companion with the same options and collects its rows.
std::vector<peers::PeerResult> runBulletCompanion(int argc, char** argv) {
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  const std::filesystem::path companion = self.parent_path() / "peer_bench_bullet";
  std::string command = quoted(companion.string()) + " --rows";
  for (int i = 1; i < argc; ++i) command += " " + quoted(argv[i]);
  std::vector<peers::PeerResult> rows;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    std::cerr << "peer_bench: cannot start " << companion << "\n";
    return rows;
  }
  std::array<char, 4096> buffer{};
  std::string line;
  while (std::fgets(buffer.data(), buffer.size(), pipe)) {
    line += buffer.data();
    if (line.empty() || line.back() != '\n') continue;
    line.pop_back();
    peers::PeerResult r;
    if (peers::fromLine(line, r)) rows.push_back(r);
    line.clear();
  }
  if (pclose(pipe) != 0) std::cerr << "peer_bench: " << companion << " failed\n";
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const peers::PeerOptions options = peers::parseOptions(argc, argv);
    std::cerr << "peer_bench: " << options.runs << " timed runs per engine and scene\n";
    std::vector<peers::PeerResult> results =
        peers::runAll({&peers::makeImpetusPeer, &peers::makeImpetusNoSleepPeer,
                       &peers::makeMujocoPeer, &peers::makeOdePeer, &peers::makeOdeAutoDisablePeer},
                      options);
    const std::vector<peers::PeerResult> bullet = runBulletCompanion(argc, argv);
    std::vector<peers::PeerResult> ordered;
    const std::vector<peers::PeerResult>* lists[] = {&results, &bullet};
    for (const std::string& scene : options.scenes) {
      for (const std::vector<peers::PeerResult>* list : lists)
        for (const peers::PeerResult& r : *list)
          if (r.scene == scene) ordered.push_back(r);
    }
    std::cout << "Side by side on " << cpuModel() << ", one thread, dt = 10 ms, 1000 steps, "
              << "median of " << options.runs << " timed runs; quality from a separate run.\n\n"
              << peers::markdownTable(ordered) << "\nSettings:\n";
    std::vector<std::string> seen;
    for (const peers::PeerResult& r : ordered) {
      if (std::find(seen.begin(), seen.end(), r.engine) != seen.end()) continue;
      seen.push_back(r.engine);
      std::cout << "- " << r.engine << ": " << r.settings << "\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "peer_bench: " << e.what() << "\n";
    return 2;
  }
}
