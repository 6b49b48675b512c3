#!/usr/bin/env bash
# README command 2: install dependencies, build, and run every test:
#   1. Release build: engine, CLI and GUI tests (GUI tests run in a real window under Xvfb);
#   2. ASan+UBSan build of the engine and its tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
jobs=$(nproc)
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

echo "test: all suites passed in $(( $(date +%s) - start )) s"
