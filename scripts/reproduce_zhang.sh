#!/usr/bin/env bash
# Reproduces Zhang, Squillante, Sivasubramaniam & Sahoo (JSSPP 2004) §4-§5 on the CTC-SP2 log:
# links <repo>/data -> $FAULTSWEEP_DATA, runs every jobs/zhang/*.toml on 2 MPI ranks into
# results/zhang/*.h5 (resuming a partial run; ~75 s in all at 100 replicas per point), then
# prints Table 1 and the findings (§4-§5.1, then §5.2 via zhang_s5.py) and draws Figures 3-11
# (5(c), 6(c): checkpoint overhead) into results/zhang/figures/.
#   FAULTSWEEP_DATA=/path/to/data bash scripts/reproduce_zhang.sh [--rerun]
# Env: FAULTSWEEP_BIN (default build/faultsweep, built by scripts/setup.sh if missing),
#      RANKS (default 2). Complete results are kept (`run --resume` says "nothing to do"; it
#      refuses, listing the changes, if a job file changed since): --rerun replaces them.
set -euo pipefail
source "$(dirname "$0")/study_lib.sh"
study_init "$@"
mkdir -p results/zhang
for job in jobs/zhang/*.toml; do study_run reproduce_zhang "$job"; done
echo "reproduce_zhang: sweeps took $(( $(date +%s) - study_start )) s on $study_ranks ranks"
export PYTHONPATH="$PWD/analysis${PYTHONPATH:+:$PYTHONPATH}"
/usr/bin/python3 analysis/reproduce/zhang.py table1 results/zhang
echo
/usr/bin/python3 analysis/reproduce/zhang.py findings results/zhang
/usr/bin/python3 analysis/reproduce/zhang.py figures results/zhang --out results/zhang/figures
echo
/usr/bin/python3 analysis/reproduce/zhang.py s5-findings results/zhang
/usr/bin/python3 analysis/reproduce/zhang.py s5-figures results/zhang --out results/zhang/figures
