#!/usr/bin/env bash
# CPU time per simulated day of one replica the size of a log run per processor: 93,312 nodes
# (CEA-Curie's processors) and 295,540 jobs, EASY + first fit, per-node Weibull failures (shape
# 0.7, mean 1,800 d, 2 h down), as tests/data/jobs/per_processor.toml. Curie's own log is not in
# the data set: Lublin-Feitelson jobs (the built-in model's defaults, sizes up to the machine,
# a submit every 770.7 s on average) stand in for its jobs, so the figure is this tool's cost
# on a machine and job count of that size, not on Curie's workload.
#
# Usage: bench/per_processor.sh [DAYS] BIN [BIN_B]   (not a test; prints a line per run)
#   DAYS   simulated days (the job's horizon; default 365; 0: the whole replica, ~8,400 days)
#   BIN    a faultsweep binary; with BIN_B the two run in turn, ROUNDS times (default 3), and
#          the median of the pair ratios BIN / BIN_B of CPU per simulated day is printed, and
#          whether the two wrote the same /results.
# CPU is user + system time of the whole process (start-up and the jobs' generation included:
# ~0.3 s, small against a year).
set -euo pipefail
days=${1:-365}
shift || true
[ $# -ge 1 ] || { sed -n 2,15p "$0"; exit 2; }
bins=("$@")
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
horizon=""
[ "$days" != 0 ] && horizon="horizon = \"${days}d\""
cat >"$tmp/job.toml" <<TOML
[sweep]
model = "cluster"
seed = 3
replicas = 1
[params]
nodes = 93312
queue = "easy"
allocator = "first_fit"
checkpoint = "none"
$horizon
workload = { source = "lublin", jobs = 295540 }
failures = { process = "renewal", dist = "weibull", shape = 0.7, mean = "1800d", downtime = "2h" }
TOML

# one BIN LABEL: runs the job once; prints "LABEL cpu_s days cpu_per_day done_jobs failures".
one() {
  local bin=$1 label=$2 cpu
  if ! /usr/bin/time -o "$tmp/time" -f "%U %S" "$bin" run "$tmp/job.toml" \
    --out "$tmp/$label.h5" --overwrite -q 2>"$tmp/err"; then
    echo "$bin failed:" >&2
    cat "$tmp/err" >&2
    exit 1
  fi
  cpu=$(awk '{ print $1 + $2 }' "$tmp/time")
  "$bin" inspect "$tmp/$label.h5" >"$tmp/$label.txt"
  awk -v l="$label" -v c="$cpu" '
    $1 == "makespan_s" { d = $5 / 86400 } $1 == "jobs" { n = $5 }
    $1 == "unfinished_jobs" { u = $5 } $1 == "failures" { f = $5 }
    END { printf "%s: %.2f CPU s, %.1f simulated days, %.4f CPU s per simulated day, %d jobs done, %d failures\n",
      l, c, d, c / d, n - u, f }' "$tmp/$label.txt"
}

for r in $(seq 1 "$rounds"); do
  for i in "${!bins[@]}"; do one "${bins[$i]}" "$i" | sed "s/^/round $r, bin /"; done
done | tee "$tmp/all"
if [ "${#bins[@]}" -ge 2 ]; then
  if h5diff -q "$tmp/0.h5" "$tmp/1.h5" /results >/dev/null 2>&1; then
    echo "/results of bin 0 and bin 1: identical"
  else
    echo "/results of bin 0 and bin 1: differ (h5diff $tmp/0.h5 $tmp/1.h5 /results)"
  fi
  awk '{ gsub(",", ""); b = $4; sub(":", "", b); v[$2, b] = $11 }
    END { for (r = 1; (r, 0) in v; r++) printf "%.3f\n", v[r, 0] / v[r, 1] }' "$tmp/all" |
    sort -g | awk '{ q[NR] = $1; s = s " " $1 }
      END { printf "ratio bin 0 / bin 1 of CPU per simulated day: median %.3f (pairs:%s)\n",
        q[int((NR + 1) / 2)], s }'
fi
