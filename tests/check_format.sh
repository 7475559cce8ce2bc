#!/usr/bin/env bash
# Fails if any C++ source under include/, src/, tests/ or bench/ is not clang-formatted.
# One clang-format process for all files; the files it complains about are listed.
set -euo pipefail
cd "$1"
mapfile -t files < <(find include src tests bench fuzz \( -name '*.cpp' -o -name '*.hpp' \) | sort)
rc=0
log=$(clang-format --dry-run --Werror "${files[@]}" 2>&1) || rc=$?
if [ "$rc" -ne 0 ]; then
  echo "not clang-formatted:"
  grep -oE '^[^:]+\.(cpp|hpp):[0-9]+:[0-9]+: error' <<<"$log" | cut -d: -f1 | sort -u
  [ -n "$log" ] || echo "(clang-format exit $rc with no output)"
  exit 1
fi
echo "all ${#files[@]} C++ sources clang-formatted"
