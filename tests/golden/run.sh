#!/usr/bin/env bash
# Golden-result regression test: runs every job in tests/golden/jobs/ and compares its
# /results, value for value (bit for bit: %.17g), with tests/golden/expected/<job>.txt.
# A change that moves any result fails here and must say why. To accept new results on
# purpose (say so in the commit message), regenerate them:
#   FAULTSWEEP_UPDATE_GOLDEN=1 FAULTSWEEP_BIN=build/faultsweep bash tests/golden/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${FAULTSWEEP_BIN:-$here/../../build/faultsweep}"
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
for job in "$here"/jobs/*.toml; do
  name="$(basename "$job" .toml)"
  (cd "$here/jobs" && "$bin" run "$job" --out "$work/$name.h5" -q 2>/dev/null)
  /usr/bin/python3 "$here/dump.py" "$work/$name.h5" > "$work/$name.txt"
  if [ "${FAULTSWEEP_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$work/$name.txt" "$here/expected/$name.txt"
    echo "golden: updated $name ($(wc -l < "$work/$name.txt") lines)"
  elif ! diff -q "$here/expected/$name.txt" "$work/$name.txt" >/dev/null; then
    echo "golden: $name differs from tests/golden/expected/$name.txt:"
    diff "$here/expected/$name.txt" "$work/$name.txt" | head -20 || true
    failed=1
  else
    echo "golden: $name identical ($(wc -l < "$work/$name.txt") values lines)"
  fi
done
exit $failed
