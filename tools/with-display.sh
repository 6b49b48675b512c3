#!/usr/bin/env bash
# Runs a GUI test program on the current display, or under Xvfb when there is none.
set -euo pipefail
if [ -n "${DISPLAY:-}" ]; then exec "$@"; fi
exec xvfb-run -a -s "-screen 0 1280x1024x24" "$@"
