#!/usr/bin/env bash
# Sets everything up and runs every test (Catch2 unit tests, MPI integration tests, pytest for
# analysis/, the clang-format check) through ctest; ends with ctest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd build
# Three at a time on 2 cores (tests/CMakeLists.txt says why, and which start first).
ctest --output-on-failure --timeout 1200 -j3
