#!/usr/bin/env bash
# One coordinator past this machine's cores: RANKS ranks oversubscribed on the cores here (Open
# MPI told to yield when idle), every task a sleep of TASK_S seconds without CPU (model
# `synthetic`, `sleep`), TASKS_PER_RANK tasks a rank. Measured efficiency = tasks x TASK_S /
# (ranks x the sweep's wall time as rank 0 reports it), median of REPS runs, beside the
# discrete-event model's prediction for the same sweep (bench_coordinator --predict). Not a test.
# Usage: bench/coordinator_ranks.sh [BUILD_DIR]
#   env: RANKS ("8 32 128 256"), TASK_S (0.2), TASKS_PER_RANK (20), REPS (3), LATENCY_US (1000)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
bin=$build/faultsweep
model=$build/bench/bench_coordinator
ranks_list=${RANKS:-8 32 128 256}
task_s=${TASK_S:-0.2}
per_rank=${TASKS_PER_RANK:-20}
reps=${REPS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%8s %7s %10s %10s %12s %12s\n' ranks tasks "ideal s" "wall s" measured model
for n in $ranks_list; do
  tasks=$((n * per_rank))
  printf '[sweep]\nmodel = "synthetic"\nreplicas = %d\n[params]\nwork = "0s"\nsleep = "%ss"\n' \
    "$tasks" "$task_s" >"$tmp/job.toml"
  walls=()
  for ((r = 0; r < reps; r++)); do
    mpirun --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 -np "$n" \
      "$bin" run "$tmp/job.toml" --out "$tmp/o.h5" --overwrite 2>"$tmp/log" >/dev/null ||
      { echo "ranks $n: the run failed:"; tail -5 "$tmp/log"; exit 1; }
    walls+=("$(grep -o 'in [0-9.e+-]* s' "$tmp/log" | tail -1 | awk '{print $2}')")
  done
  wall=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
  ideal=$(awk -v t="$tasks" -v s="$task_s" -v n="$n" 'BEGIN {printf "%.3f", t * s / n}')
  measured=$(awk -v i="$ideal" -v w="$wall" 'BEGIN {printf "%.1f %%", 100 * i / w}')
  predicted=$("$model" --predict "$n" "$task_s" "$tasks" "${LATENCY_US:-1000}" 0)
  printf '%8d %7d %10s %10s %12s %10s %%\n' "$n" "$tasks" "$ideal" "$wall" "$measured" "$predicted"
done
