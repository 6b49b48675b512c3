#!/usr/bin/env bash
# The side-by-side benchmark in one command: installs the packages (MuJoCo, ODE and Bullet come
# from Debian), builds the bench preset and prints the table of tools/bench/peers (speed and
# quality of Impetus, MuJoCo 2.2.2, ODE 0.16, Bullet 3.24 SI and btMultiBody on chain30, stack10,
# ragdoll and chain100). Extra arguments go to peer_bench (--runs N, --scenes, --engines).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/setup-deps.sh
cmake --preset bench >/dev/null
cmake --build --preset bench --target peer_bench peer_bench_bullet
exec build/bench/tools/bench/peers/peer_bench "$@"
