#!/usr/bin/env bash
# Cost of recording: SDSC-SP2 (54,034 jobs, 128 nodes) with EASY and per-node Weibull failures
# (shape 0.7, scale 30 d, 1 h down), REPLICAS replicas (default 1), run by the faultsweep binary
# without records and with every table of every replica recorded (jobs, failures, nodes,
# decisions), in turn, ROUNDS times.
# Prints each pair's CPU (user + system) and wall ratio recorded / unrecorded, their medians,
# and the size the records add to the results file per 10,000 jobs. Whole processes: the
# trace's parse and MPI's start are in both.
# Usage: [FAULTSWEEP_DATA=/path/to/data] [ROUNDS=9] [REPLICAS=1] bash bench/bench_records.sh [faultsweep binary]
set -euo pipefail
default_rounds=9
source "$(dirname "$0")/sdsc_sp2.sh"
replicas="${REPLICAS:-1}"
recorded=$(seq -s ", " 0 $((replicas - 1)))

for v in off on; do
  {
    echo '[sweep]'
    echo 'model = "cluster"'
    echo 'seed = 1'
    echo "replicas = $replicas"
    [ "$v" = on ] &&
      echo "record = { points = \"all\", replicas = [$recorded], what = [\"jobs\", \"failures\", \"nodes\", \"decisions\"] }"
    echo '[params]'
    echo 'nodes = 128'
    echo 'queue = "easy"'
    echo 'allocator = "first_fit"'
    echo "workload = { source = \"swf\", file = \"$swf\" }"
    echo 'failures = { process = "renewal", dist = "weibull", shape = 0.7, scale = "30d", downtime = "1h" }'
  } >"$work/$v.toml"
done

# run V: "cpu_s wall_s" of one run.
run() {
  /usr/bin/time -f "%U %S %e" -o "$work/time" "$bin" run "$work/$1.toml" --out "$work/$1.h5" \
    --overwrite -q 2>/dev/null
  awk '{ print $1 + $2, $3 }' "$work/time"
}

median() { sort -n | awk '{ x[NR] = $1 } END { print x[int((NR + 1) / 2)] }'; }

run off >/dev/null && run on >/dev/null  # warm-up: the trace in the page cache
cpu_ratios=() wall_ratios=()
for ((k = 1; k <= rounds; k++)); do
  read -r c0 w0 < <(run off)
  read -r c1 w1 < <(run on)
  cr=$(awk -v a="$c1" -v b="$c0" 'BEGIN { printf "%.3f", a / b }')
  wr=$(awk -v a="$w1" -v b="$w0" 'BEGIN { printf "%.3f", a / b }')
  cpu_ratios+=("$cr") wall_ratios+=("$wr")
  echo "round $k: unrecorded CPU $c0 s wall $w0 s; recorded CPU $c1 s wall $w1 s; ratio CPU $cr wall $wr"
done
s0=$(stat -c %s "$work/off.h5") s1=$(stat -c %s "$work/on.h5")
echo "median recorded / unrecorded: CPU $(printf '%s\n' "${cpu_ratios[@]}" | median)," \
  "wall $(printf '%s\n' "${wall_ratios[@]}" | median) ($rounds pairs)"
awk -v a="$s1" -v b="$s0" -v n="$jobs" -v r="$replicas" \
  'BEGIN { printf "records: %.2f MB in the results file, %.2f MB per 10,000 jobs\n", (a - b) / 1e6, (a - b) / 1e6 / (n * r) * 1e4 }'
