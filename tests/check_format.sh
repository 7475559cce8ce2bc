#!/usr/bin/env bash
# Fails if any C++ source under include/, src/, tests/ or bench/ is not clang-formatted.
set -euo pipefail
cd "$1"
bad=$(find include src tests bench -name '*.cpp' -o -name '*.hpp' | sort | while read -r f; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"; done)
if [ -n "$bad" ]; then echo "not clang-formatted:"; echo "$bad"; exit 1; fi
echo "all C++ sources clang-formatted"
