#!/usr/bin/env bash
# `faultsweep fit --format csv` at scale: a synthetic failure log of NODES nodes (default
# 1,000,000) whose identifiers are spread over 0 .. 2^31 - 1 (identifiers, not indices), each
# node failing as a Weibull renewal process (shape 0.7, a scale of its own between 20 and 200
# days) over one year, so that nodes have from 0 to a few dozen failures and most of them are
# fitted. Times `fit` with its HDF5 output RUNS times (default 3) and prints the wall seconds
# (and CPU seconds: on a shared machine the wall time measures the load) and the peak resident
# memory of each run, and their medians. Reports; never passes or fails.
#   bash bench/bench_fit.sh [BUILD_DIR=build] [NODES=1000000] [RUNS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
nodes=${2:-1000000}
runs=${3:-3}
bin=$build/faultsweep
[ -x "$bin" ] || { echo "bench_fit: $bin not built"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/synthetic.csv

/usr/bin/python3 - "$nodes" "$log" <<'EOF'
import sys
import numpy as np
nodes, path = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(20)
year = 365 * 86400.0
ids = rng.choice(2**31 - 1, size=nodes, replace=False) + 1  # distinct, never dense
scale = rng.uniform(20, 200, size=nodes) * 86400.0
t = np.zeros(nodes)
rows_t, rows_n = [], []
alive = np.arange(nodes)
while alive.size:
    t[alive] += scale[alive] * rng.weibull(0.7, size=alive.size)
    alive = alive[t[alive] < year]
    rows_t.append(t[alive].copy())
    rows_n.append(ids[alive])
times = np.concatenate(rows_t)
who = np.concatenate(rows_n)
order = np.argsort(times, kind="stable")
with open(path, "w") as f:
    f.write("time_s,node,downtime_s\n")
    for a, b in zip(np.round(times[order], 1), who[order]):
        f.write(f"{a},{b},3600\n")
print(f"bench_fit: {nodes} nodes, {times.size} failure records, "
      f"{np.unique(who).size} nodes that failed", flush=True)
EOF

walls=() cpus=() rss=()
for r in $(seq 1 "$runs"); do
  rm -f "$work/fit.h5"
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin" fit --format csv "$log" --out "$work/fit.h5" \
    >"$work/report" 2>"$work/stderr" || { cat "$work/stderr"; exit 1; }
  read -r wall user sys kb <"$work/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')
  walls+=("$wall") cpus+=("$cpu") rss+=("$kb")
  echo "run $r: ${wall} s wall, ${cpu} s CPU, peak RSS $((kb / 1024)) MB"
done
head -1 "$work/report"
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "fit, $nodes nodes: median of ${runs} runs $(median "${walls[@]}") s wall," \
  "$(median "${cpus[@]}") s CPU," \
  "peak RSS $(($(median "${rss[@]}") / 1024)) MB (aims: <= 10 s, <= 2048 MB)"
