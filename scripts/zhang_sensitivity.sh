#!/usr/bin/env bash
# Zhang et al. (JSSPP 2004) sensitivity study (issue 13): why five of the seven findings of
# scripts/reproduce_zhang.sh disagree. Runs every jobs/zhang/sensitivity/*.toml (one variant =
# one changed assumption: a sweep of all points of Figs. 3-6 + its no-failure baseline) on 2 MPI
# ranks under `nice` into results/zhang_sensitivity/, then prints the findings x assumptions
# table and the no-failure baselines (analysis/reproduce/zhang_sensitivity.py).
#   FAULTSWEEP_DATA=/path/to/data bash scripts/zhang_sensitivity.sh [--rerun]
# Env: FAULTSWEEP_BIN (default build/faultsweep), RANKS (default 2), NICE (default 10).
# Complete results are kept (resumed: "nothing to do"); --rerun replaces them.
set -euo pipefail
cd "$(dirname "$0")/.."
rerun=0
[ "${1:-}" = "--rerun" ] && rerun=1
bash scripts/link_data.sh
bin="${FAULTSWEEP_BIN:-build/faultsweep}"
if [ ! -x "$bin" ]; then bash scripts/setup.sh; fi
ranks="${RANKS:-2}"
out=results/zhang_sensitivity
mkdir -p "$out"
start=$(date +%s)
# Conservative backfilling costs ~12x EASY per replica: it runs last.
variants="current synthetic split_4h drop_12h requeue_original sizes_320 interarrivals conservative"
for v in $variants; do for job in "jobs/zhang/sensitivity/${v}_baseline.toml" "jobs/zhang/sensitivity/$v.toml"; do
  "$bin" check "$job" >/dev/null
  t0=$(date +%s)
  flag=--resume; [ "$rerun" = 1 ] && flag=--overwrite
  nice -n "${NICE:-10}" mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$bin" run "$job" $flag -q
  echo "zhang_sensitivity: $job in $(( $(date +%s) - t0 )) s"
done; done
echo "zhang_sensitivity: sweeps took $(( $(date +%s) - start )) s on $ranks ranks"
export PYTHONPATH="$PWD/analysis${PYTHONPATH:+:$PYTHONPATH}"
/usr/bin/python3 analysis/reproduce/zhang_sensitivity.py baselines "$out"
echo
/usr/bin/python3 analysis/reproduce/zhang_sensitivity.py table "$out"
