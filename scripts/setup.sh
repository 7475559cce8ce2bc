#!/usr/bin/env bash
# Installs what faultsweep needs from Debian 12's archive (as root) and builds it in build/.
# Safe to rerun: apt-get runs only when a package is missing; the build is incremental.
#   bash scripts/setup.sh [--target T]...   only these targets (default: all, tests included)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --target) targets+=(--target "${2:?--target needs a target name}"); shift 2 ;;
    *) echo "setup.sh: unknown argument $1 (expected --target NAME)" >&2; exit 2 ;;
  esac
done

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  openmpi-bin libopenmpi-dev libboost-mpi-dev libboost-serialization-dev
  libhdf5-dev hdf5-tools libeigen3-dev libpcg-cpp-dev catch2 libcli11-dev libtoml11-dev
  libfmt-dev zlib1g-dev liblzma-dev libssl-dev libre2-dev libdeflate-dev clang-format
  nlohmann-json3-dev
  clang libclang-rt-dev
  procps xz-utils hostname
  python3 python3-h5py python3-numpy python3-pandas python3-matplotlib python3-scipy python3-pytest
  python3-setuptools python3-venv python3-xarray python3-h5netcdf python3-tabulate
  pybind11-dev python3-dev
  chromium python3-websocket
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" "${targets[@]}"
echo "setup: built ${targets[*]:-everything} in build/"
