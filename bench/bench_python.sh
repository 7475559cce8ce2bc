#!/usr/bin/env bash
# Cost of policies written in Python: SDSC-SP2 (54,034 jobs, 128 nodes) with EASY and per-node
# Weibull failures (shape 0.7, scale 30 d, 1 h down), run by the faultsweep binary with
#   (a) the built-in EASY queue and first-fit allocator,
#   (b) the built-in EASY queue and the Python first fit of examples/policies/first_fit.py,
#   (c) the Python EASY queue of examples/policies/easy.py and the built-in first fit,
# in turn, ROUNDS times. A replica's CPU time is that of a 4-replica run minus that of a
# 1-replica run, over 3 (the trace's parse and the interpreter's start cancel out); the bench
# prints simulated jobs per CPU second, the median over the rounds, and checks that the three
# give the same /results (they are ports of the same policies).
# Usage: [FAULTSWEEP_DATA=/path/to/data] [ROUNDS=3] bash bench/bench_python.sh [faultsweep binary]
set -euo pipefail
default_rounds=3
source "$(dirname "$0")/sdsc_sp2.sh"
pol="$here/examples/policies"

declare -A queue=([a]='"easy"' [b]='"easy"' [c]="{ python = \"$pol/easy.py\", class = \"Easy\" }")
declare -A alloc=([a]='"first_fit"' [b]="{ python = \"$pol/first_fit.py\", class = \"FirstFit\" }"
  [c]='"first_fit"')
declare -A label=([a]="C++ EASY + C++ first fit" [b]="C++ EASY + Python first fit"
  [c]="Python EASY + C++ first fit")
for v in a b c; do
  for r in 1 4; do
    cat >"$work/$v$r.toml" <<TOML
[sweep]
model = "cluster"
seed = 1
replicas = $r
[params]
nodes = 128
queue = ${queue[$v]}
allocator = ${alloc[$v]}
workload = { source = "swf", file = "$swf" }
failures = { process = "renewal", dist = "weibull", shape = 0.7, scale = "30d", downtime = "1h" }
TOML
  done
done

# cpu_s JOB: user + system CPU seconds of one run.
cpu_s() {
  /usr/bin/time -f "%U %S" -o "$work/time" "$bin" run "$1" --out "${1%.toml}.h5" --overwrite -q \
    2>/dev/null || true
  awk '{ print $1 + $2 }' "$work/time"
}

declare -A rates
for ((k = 1; k <= rounds; k++)); do
  for v in a b c; do
    one=$(cpu_s "$work/${v}1.toml")
    four=$(cpu_s "$work/${v}4.toml")
    rate=$(awk -v a="$one" -v b="$four" -v n="$jobs" 'BEGIN { d = (b - a) / 3; printf "%.0f", (d > 0 ? n / d : 0) }')
    rates[$v]="${rates[$v]:-} $rate"
    echo "round $k ${label[$v]}: $rate jobs/s (CPU: 1 replica $one s, 4 replicas $four s)"
  done
done
for v in b c; do
  if h5diff "$work/a4.h5" "$work/${v}4.h5" /results >/dev/null; then
    echo "${label[$v]}: /results identical to the built-in policies"
  else
    echo "${label[$v]}: /results DIFFER from the built-in policies"
  fi
done
for v in a b c; do
  med=$(tr ' ' '\n' <<<"${rates[$v]}" | grep . | sort -n | awk '{ x[NR] = $1 } END { print x[int((NR + 1) / 2)] }')
  echo "median ${label[$v]}: $med jobs per CPU second (rounds:${rates[$v]})"
done
