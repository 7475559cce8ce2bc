#!/usr/bin/env bash
# Sets everything up and runs every test (Catch2 unit tests, MPI integration tests, pytest for
# analysis/, the clang-format check) through ctest; ends with ctest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd build
ctest --output-on-failure --timeout 1200
