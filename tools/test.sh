#!/usr/bin/env bash
# README command 2: install dependencies, build, and run every test:
#   1. Release build: engine, CLI and GUI tests (GUI tests run in a real window under Xvfb);
#   2. ASan+UBSan build of the engine and its tests;
#   3. libFuzzer targets (clang, ASan+UBSan): the scene loader and the session-file reader, each
#      for FUZZ_SECONDS (default 60) from a seed corpus of the shipped scenes and a fresh session.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
jobs=$(nproc)
# ccache keys on paths relative to the checkout, so every clone shares one cache.
export CCACHE_BASEDIR="$(pwd)" CCACHE_NOHASHDIR=1
start=$(date +%s)

echo "== release build"
cmake --preset release
cmake --build --preset release -j "$jobs"
echo "== release tests"
ctest --preset release -j "$jobs"

echo "== sanitizer build (ASan+UBSan, engine only)"
cmake --preset asan
cmake --build --preset asan -j "$jobs"
echo "== sanitizer tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --preset asan -j "$jobs"

echo "== fuzz build (clang, libFuzzer, ASan+UBSan)"
cmake --preset fuzz
cmake --build --preset fuzz -j "$jobs"
echo "== fuzzing"
seconds=${FUZZ_SECONDS:-60}
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
mkdir -p "$corpus/scene" "$corpus/session"
cp scenes/*.xml "$corpus/scene/"
for f in scenes/robots/*.xml; do cp "$f" "$corpus/scene/robot-$(basename "$f")"; done
build/release/tools/impetus-sim run scenes/mf4-door.xml --duration 0.3 --deterministic \
  --record "$corpus/session/door.session" > /dev/null
root=$(pwd)
for run in scene_loader_fuzz:scene session_reader_fuzz:session; do
  target=${run%%:*} seeds=$corpus/${run##*:}
  # Crash inputs land in $corpus (printed with the report); a failure shows the whole log.
  (cd "$corpus" && "$root/build/fuzz/tools/fuzz/$target" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=4096 "$seeds" > "$target.log" 2>&1) ||
    { cat "$corpus/$target.log"; echo "$target failed"; exit 1; }
  echo "$target: $(tail -1 "$corpus/$target.log")"
done

echo "test: all suites passed in $(( $(date +%s) - start )) s"
