#!/usr/bin/env bash
# Writes docs/reference/<model>.md, the job-file reference of every model, from the binary
# (`faultsweep models NAME --markdown`); with --check, fails if a committed page differs from
# what the binary prints (a key, choice or metric added without regenerating the pages).
#   bash scripts/reference.sh [--check]          (FAULTSWEEP_BIN, default build/faultsweep)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${FAULTSWEEP_BIN:-build/faultsweep}"
dir=docs/reference
mkdir -p "$dir"
names=$("$bin" models --markdown | sed -n 's/^# Model `\(.*\)`$/\1/p' | tr '\n' ' ')
status=0
for name in $names; do
  if [ "${1:-}" = --check ]; then
    if ! "$bin" models "$name" --markdown | diff -u "$dir/$name.md" - >/dev/null; then
      echo "reference: $dir/$name.md differs from \`faultsweep models $name --markdown\`;" \
           "regenerate it with: bash scripts/reference.sh"
      "$bin" models "$name" --markdown | diff -u "$dir/$name.md" - | head -20 || true
      status=1
    else
      echo "reference: $dir/$name.md is current"
    fi
  else
    "$bin" models "$name" --markdown > "$dir/$name.md"
    echo "reference: wrote $dir/$name.md"
  fi
done
for page in "$dir"/*.md; do
  [ "$(basename "$page")" = README.md ] && continue
  case " $names " in *" $(basename "$page" .md) "*) ;; *)
    echo "reference: $page names no model"; status=1 ;; esac
done
exit $status
