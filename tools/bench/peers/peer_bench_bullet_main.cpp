// Bullet's half of the side-by-side benchmark (float Bullet cannot share a process with the
// double-precision Bullet collision library Impetus links). Prints result rows for peer_bench.
#include <iostream>

#include "peer_factories.h"
#include "peer_runner.h"

int main(int argc, char** argv) {
  try {
    peers::PeerOptions options = peers::parseOptions(argc, argv);
    const auto results = peers::runAll({&peers::makeBulletPeer, &peers::makeBulletDeactivationPeer,
                                        &peers::makeBulletMultiBodyPeer},
                                       options);
    if (!options.rowsOnly) std::cout << peers::markdownTable(results);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "peer_bench_bullet: " << e.what() << "\n";
    return 2;
  }
}
