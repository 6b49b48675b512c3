#!/usr/bin/env bash
# Installs every Debian 12 package Impetus needs to build, run, test and benchmark.
# Idempotent: skips apt entirely when everything is already installed.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config git clang-format
  # fuzz targets: clang with the libFuzzer runtime
  clang libclang-rt-dev
  # engine
  libeigen3-dev libtinyxml2-dev libbullet-dev libsqlite3-dev libzstd-dev
  # render + app
  libopenscenegraph-dev openscenegraph qt6-base-dev libqt6opengl6-dev qt6-charts-dev
  libsdl2-dev libgl-dev libglu1-mesa-dev libgl1-mesa-dri fonts-dejavu-core
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev xvfb xauth
  # peer engines, used only by the side-by-side benchmark
  libmujoco-dev libode-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
