#!/usr/bin/env bash
# A recording process killed with SIGKILL (no chance to clean up) leaves a session file that
# opens with everything the recorder had committed (it commits each simulated second), and that
# part still re-simulates bit for bit.
#   sigkill_recording.sh IMPETUS_SIM SCENES_DIR
set -euo pipefail
sim=$1 scenes=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
session=$dir/killed.session
# --realtime: the run lasts a minute of wall time, so the kill lands in the middle of it.
"$sim" run "$scenes/mf4-container.xml" --duration 60 --input "$scenes/mf4-container.csv" \
  --deterministic --realtime --record "$session" > "$dir/out.txt" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^recording' "$dir/out.txt" && break; sleep 0.05; done
grep -q '^recording' "$dir/out.txt" || { echo "the recorder never started"; cat "$dir/out.txt"; exit 1; }
# Killed once the live file holds two committed seconds, however fast this machine simulates.
recorded() {
  "$sim" replay "$session" --from 1e9 2> /dev/null |
    sed -n 's/.*, \([0-9.]*\) s (\([0-9]*\) steps).*/\1/p' | head -1
}
committed=0
for _ in $(seq 600); do
  committed=$(recorded || true)
  awk -v s="${committed:-0}" 'BEGIN { exit !(s >= 2.0) }' && break
  sleep 0.1
done
awk -v s="${committed:-0}" 'BEGIN { exit !(s >= 2.0) }' ||
  { echo "the live session never showed two committed seconds"; exit 1; }
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
info=$("$sim" replay "$session" --verify)
echo "$info"
seconds=$(sed -n 's/.*, \([0-9.]*\) s (\([0-9]*\) steps).*/\1/p' <<< "$info" | head -1)
echo "committed before the kill: $committed s; in the file after it: $seconds s"
awk -v s="$seconds" -v c="$committed" 'BEGIN { exit !(s >= c) }' ||
  { echo "lost a committed second"; exit 1; }
grep -q 'recorder did not finish' <<< "$info"
grep -q 'every state matches the recording' <<< "$info"
echo "sigkill: ok"
