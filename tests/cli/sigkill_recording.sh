#!/usr/bin/env bash
# A recording process killed with SIGKILL (no chance to clean up) leaves a session file that
# opens with at most the last second lost, and that part still re-simulates bit for bit.
#   sigkill_recording.sh IMPETUS_SIM SCENES_DIR
set -euo pipefail
sim=$1 scenes=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
session=$dir/killed.session
# --realtime: simulated time keeps pace with the wall clock, so 3 s of wall time is ~3 s recorded.
"$sim" run "$scenes/mf4-container.xml" --duration 60 --input "$scenes/mf4-container.csv" \
  --deterministic --realtime --record "$session" > "$dir/out.txt" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^recording' "$dir/out.txt" && break; sleep 0.05; done
grep -q '^recording' "$dir/out.txt" || { echo "the recorder never started"; cat "$dir/out.txt"; exit 1; }
sleep 3
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
info=$("$sim" replay "$session" --verify)
echo "$info"
seconds=$(sed -n 's/.*, \([0-9.]*\) s (\([0-9]*\) steps).*/\1/p' <<< "$info" | head -1)
echo "recorded before the kill: $seconds s of ~3 s"
awk -v s="$seconds" 'BEGIN { exit !(s >= 2.0) }' || { echo "lost more than a second"; exit 1; }
grep -q 'recorder did not finish' <<< "$info"
grep -q 'every state matches the recording' <<< "$info"
echo "sigkill: ok"
