#!/usr/bin/env bash
# How a step's cost grows with the number of robots: N = 1, 2, 4, 8, 16 MF-4s on one ground, 12 m
# apart, each included with its own prefix and driven by its own copy of the gates course's
# stick script (scenes/mf4-gates.csv), 10 simulated seconds each, one thread. Prints steps/s,
# the cost per robot and its ratio to one robot's.
#
#   bash tools/bench/fleet.sh [--runs R]   (the best of R runs a size, default 3)
#
# Expects the release build (tools/test.sh or `cmake --build --preset release`).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=3
if [[ "${1:-}" == "--runs" ]]; then runs=$2; fi
sim=build/release/tools/impetus-sim
[[ -x $sim ]] || { echo "fleet.sh: build the release preset first" >&2; exit 1; }
robot=$(pwd)/scenes/robots/mf4.xml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '| MF-4s | steps/s | ms a step | ms a robot | a robot vs one alone |\n|---|---|---|---|---|\n'
single=""
for n in 1 2 4 8 16; do
  cols=1
  while (( cols * cols < n )); do cols=$((cols + 1)); done
  {
    echo "<scene name=\"$n MF-4s\">"
    echo '  <world gravity="0 0 -9.81" step="0.01" frame="0.04"/>'
    echo '  <material name="ground" friction="0.8"/>'
    echo '  <body name="ground" fixed="true"><geom type="plane" material="ground"/></body>'
    for ((k = 0; k < n; ++k)); do
      echo "  <include file=\"$robot\" prefix=\"r${k}_\" pos=\"$((k % cols * 12)) $((k / cols * 12)) 0\"/>"
    done
    echo '</scene>'
  } > "$work/fleet$n.xml"
  # Every robot gets the course's columns (t,drive.y,drive.x) under its own prefix.
  awk -F, -v n="$n" 'NR == 1 { printf "t"; for (k = 0; k < n; ++k) printf ",r%d_drive.y,r%d_drive.x", k, k; print ""; next }
                     { printf "%s", $1; for (k = 0; k < n; ++k) printf ",%s,%s", $2, $3; print "" }' \
    scenes/mf4-gates.csv > "$work/fleet$n.csv"
  best=0
  for ((r = 0; r < runs; ++r)); do
    s=$("$sim" bench "$work/fleet$n.xml" --input "$work/fleet$n.csv" --steps 1000 |
        awk '/^steps_per_second/ { print $2 }')
    best=$(awk -v a="$best" -v b="$s" 'BEGIN { print (b > a) ? b : a }')
  done
  [[ -n $single ]] || single=$best
  awk -v n="$n" -v s="$best" -v one="$single" 'BEGIN {
    printf "| %d | %.0f | %.3f | %.4f | %.2f |\n", n, s, 1000 / s, 1000 / s / n, one / (s * n) }'
done
