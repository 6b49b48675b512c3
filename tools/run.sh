#!/usr/bin/env bash
# README command 1: install dependencies, build, and start the operator program on the default scene.
# Extra arguments go to `impetus` (e.g. a scene file). Without a display it runs under Xvfb and
# says how to see it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target impetus impetus-sim
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec build/release/app/impetus "$@"
fi
echo "run: no DISPLAY; starting impetus under Xvfb (screen 1280x1024x24)."
echo "run: to watch it, start it from a desktop session, or attach a VNC server to the Xvfb display."
exec xvfb-run -a -s "-screen 0 1280x1024x24" build/release/app/impetus "$@"
