#!/usr/bin/env bash
# Gottumukkala §6.4: RA-Opt vs ALL / RR / RA on 10,000 Weibull nodes, and the study of
# why it does not reproduce. Fits LANL system 18 per node, draws the 10,000-node failure traces
# (node scales x1, x0.38, x10; seeds 1, 2), runs jobs/gottumukkala/ch6_raopt.toml and
# jobs/gottumukkala/ch6_sensitivity.toml on 2 MPI ranks under `nice`, then prints Figs. 6.8, 6.9
# and the variants table (`gottumukkala.py ch6_study`).
#   FAULTSWEEP_DATA=/path/to/data bash scripts/gottumukkala_ch6.sh [--rerun]
# Env: FAULTSWEEP_BIN (default build/faultsweep), RANKS (default 2), NICE (default 10),
#      CH6_TRACES_ONLY=1 (fit and draw the traces, run nothing), CH6_OUT (where the fit and the
#      traces go; default results/gottumukkala, which the job files read: scripts/reproduce.sh
#      --quick puts them under results/quick/ and points its job copies there).
# Complete results are kept (resumed: "nothing to do"); --rerun replaces them.
set -euo pipefail
source "$(dirname "$0")/study_lib.sh"
study_init "$@"
py=/usr/bin/python3
out=${CH6_OUT:-results/gottumukkala}
mkdir -p "$out"
"$study_bin" fit data/failures/lanl/LA-UR-05-7318-failure-data-1996-2005.csv.xz --system 18 \
  --out "$out/fit18.h5" --overwrite >/dev/null
# name scale-factor shape-factor: the node sets of jobs/gottumukkala/ch6_sensitivity.toml
for s in 1 2; do
  while read -r tag scale shape; do
    name="$out/ch6_trace_${tag}_$s.csv"
    [ "$tag" = x1 ] && name="$out/ch6_trace_$s.csv"
    [ -f "$name" ] && [ "$study_flag" = --resume ] && continue
    "$py" analysis/reproduce/gottumukkala_ch6_trace.py "$out/fit18.h5" --system 18 --seed "$s" \
      --scale-factor "$scale" --shape-factor "$shape" --out "$name"
  done <<'NODES'
x1 1 1
x0.38 0.38 1
x10 10 1
white 0.38 0.85
NODES
done
# The traces alone (scripts/reproduce.sh runs the jobs itself).
[ "${CH6_TRACES_ONLY:-0}" = 1 ] && exit 0
for job in jobs/gottumukkala/ch6_raopt.toml jobs/gottumukkala/ch6_sensitivity.toml; do
  NICE=${NICE:-10} study_run gottumukkala_ch6 "$job"
done
"$py" analysis/reproduce/gottumukkala.py fig6_8 "$out/ch6_raopt.h5"
"$py" analysis/reproduce/gottumukkala.py fig6_9 "$out/ch6_raopt.h5"
echo
"$py" analysis/reproduce/gottumukkala.py ch6_study "$out/ch6_sensitivity.h5"
