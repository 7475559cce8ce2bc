#!/usr/bin/env bash
# FARS sensitivity: the synthetic set of jobs/fars/ again with the round-robin node
# allocator instead of first fit (the one choice that moves every gain to the paper's level, see
# ../README.md "Sensitivity"). The job files are generated from the originals with that one line
# changed (and the output renamed), so nothing else can drift; results go to
# results/fars/round_robin/ under the original names, so `fars.py table` reads them unchanged:
#   bash jobs/fars/sensitivity/round_robin.sh [JOB...]   # from the checkout's root; all: ~10 min on 2 ranks
#   python3 analysis/reproduce/fars.py table results/fars/round_robin
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=results/fars/round_robin
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
mkdir -p "$out"
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(baseline_exp baseline_weibull load_exp load_weibull mtbf_exp mtbf_weibull
  precision_recall_exp precision_recall_weibull)
for j in "${jobs[@]}"; do
  grep -q '^allocator = "first_fit"' "jobs/fars/$j.toml"
  sed -e 's/^allocator = "first_fit"/allocator = "round_robin"       # sensitivity: was first_fit/' \
      -e "s#^output = \"results/fars/#output = \"$out/#" "jobs/fars/$j.toml" > "$gen/$j.toml"
  nice -n 10 mpirun --allow-run-as-root --oversubscribe -np "${RANKS:-2}" build/faultsweep run \
    "$gen/$j.toml" --out "$out/$j.h5" -q --overwrite
done
