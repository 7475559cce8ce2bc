#!/usr/bin/env bash
# Zhang et al. (JSSPP 2004) sensitivity study: why five of the seven findings of
# scripts/reproduce_zhang.sh disagree. Runs every jobs/zhang/sensitivity/*.toml (one variant =
# one changed assumption: a sweep of all points of Figs. 3-6 + its no-failure baseline) on 2 MPI
# ranks under `nice` into results/zhang_sensitivity/, then prints the findings x assumptions
# table and the no-failure baselines (analysis/reproduce/zhang_sensitivity.py).
#   FAULTSWEEP_DATA=/path/to/data bash scripts/zhang_sensitivity.sh [--rerun]
# Env: FAULTSWEEP_BIN (default build/faultsweep), RANKS (default 2), NICE (default 10).
# Complete results are kept (resumed: "nothing to do"); --rerun replaces them.
set -euo pipefail
source "$(dirname "$0")/study_lib.sh"
study_init "$@"
out=results/zhang_sensitivity
mkdir -p "$out"
# Conservative backfilling costs ~12x EASY per replica: it runs last.
variants="current synthetic split_4h drop_12h requeue_original sizes_320 interarrivals conservative"
for v in $variants; do for job in "jobs/zhang/sensitivity/${v}_baseline.toml" "jobs/zhang/sensitivity/$v.toml"; do
  NICE=${NICE:-10} study_run zhang_sensitivity "$job"
done; done
echo "zhang_sensitivity: sweeps took $(( $(date +%s) - study_start )) s on $study_ranks ranks"
export PYTHONPATH="$PWD/analysis${PYTHONPATH:+:$PYTHONPATH}"
/usr/bin/python3 analysis/reproduce/zhang_sensitivity.py baselines "$out"
echo
/usr/bin/python3 analysis/reproduce/zhang_sensitivity.py table "$out"
