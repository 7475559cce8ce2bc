#!/usr/bin/env bash
# The real-Slurm test (slurm.sh) under an artificial load, RUNS times in a row (default 5): one
# busy loop per core runs for the whole time, as on a shared node where mpirun starts slowly.
# Every run must pass (every chain complete); prints each run's result and the exit codes seen
# in each sweep's history. Not part of ctest (it takes RUNS x several minutes); run it as root
# from the repository:
#
#   FAULTSWEEP_BIN=build/faultsweep FAULTSWEEP_SOURCE_DIR=$PWD \
#     bash tests/integration/slurm_under_load.sh [RUNS]
#
# Each run's log and its sweeps' logs stay in the folder it prints. FS_LOAD_NICE=N runs the busy loops at nice N (default 0: they compete with the test as equals);
# FS_LOAD_LOOPS=N sets their number (default: the number of cores).
set -euo pipefail
: "${FAULTSWEEP_BIN:?set FAULTSWEEP_BIN to the faultsweep binary}"
: "${FAULTSWEEP_SOURCE_DIR:?set FAULTSWEEP_SOURCE_DIR to the repository root}"
FAULTSWEEP_BIN=$(realpath "$FAULTSWEEP_BIN")
FAULTSWEEP_SOURCE_DIR=$(realpath "$FAULTSWEEP_SOURCE_DIR")
export FAULTSWEEP_BIN FAULTSWEEP_SOURCE_DIR
runs=${1:-5}
# The sweeps take longer under load: more room than the 420 s of a plain run.
export FS_SLURM_TEST_LIMIT_S=${FS_SLURM_TEST_LIMIT_S:-1200}
# Under load Slurm may take most of a minute to start a batch script: 2-minute walltimes.
export FS_SLURM_TEST_TIME=${FS_SLURM_TEST_TIME:-2}
loops=${FS_LOAD_LOOPS:-$(nproc)}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/faultsweep-load.XXXXXX")

busy=()
stop_load() {
  local p
  for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap stop_load EXIT
for ((i = 0; i < loops; i++)); do
  nice -n "${FS_LOAD_NICE:-0}" bash -c 'while :; do :; done' &
  busy+=($!)
done
echo "load: $loops busy loop(s) at nice ${FS_LOAD_NICE:-0}; logs in $out"

failed=0
for ((r = 1; r <= runs; r++)); do
  t0=$(date +%s)
  rc=0
  FS_SLURM_KEEP="$out/logs$r" bash "$here/slurm.sh" >"$out/run$r.log" 2>&1 || rc=$?
  [ $rc -eq 0 ] || failed=$((failed + 1))
  echo "run $r: exit $rc after $(($(date +%s) - t0)) s; $(tail -1 "$out/run$r.log");" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
  sed -n '/== exit codes in the histories/,/^$/p' "$out/run$r.log" | grep '^  ' || true
  grep '^FAIL' "$out/run$r.log" || true
done
echo "$((runs - failed)) of $runs runs passed"
[ $failed -eq 0 ]
