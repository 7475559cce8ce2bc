#!/usr/bin/env bash
# Sweep efficiency: 400 tasks of ~10 ms CPU each (model `synthetic`), on 1, 2 and 3 ranks.
# efficiency = total task CPU time / (ranks x wall time of the sweep as rank 0 measures it).
# Usage: bench/sweep_efficiency.sh [BUILD_DIR]   (prints one line per rank count; not a test)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build}/faultsweep
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/job.toml" <<'TOML'
[sweep]
model = "synthetic"
replicas = 10
[params]
work = "10ms"
[axes]
mean = { linear = [0, 1], n = 40 }
TOML
for np in 1 2 3; do
  for rep in 1 2 3; do
    if [ "$np" = 1 ]; then
      "$bin" run "$tmp/job.toml" --out "$tmp/o.h5" --overwrite 2> "$tmp/log"
    else
      mpirun --allow-run-as-root --oversubscribe -np "$np" "$bin" run "$tmp/job.toml" \
        --out "$tmp/o.h5" --overwrite 2> "$tmp/log"
    fi
    grep -o 'in [0-9.e+-]* s' "$tmp/log" | awk '{print $2}'
  done | sort -g | awk -v np="$np" '{t[NR]=$1} END {m=t[2]; printf "ranks %d: wall %.3f s (median of 3), efficiency %.1f %% (400 x 10 ms = 4.0 s of work)\n", np, m, 100*4.0/(np*m)}'
done
