#!/usr/bin/env bash
# Replays Slurm accounting dumps (what slurm_accounting.sh writes; tests/data/slurm/ holds a set)
# with faultsweep: the jobs of `sacct -P -X` as the workload (source = "sacct", size = "cpus" on
# 16 nodes, the test node's CPUs) under the node's "Not responding" outage of `sacctmgr -P show
# event` (failures format = "slurm"), both from the first submit on, recording the jobs and the
# failures. Then checks every job kept or dropped as the read summary says, each kept job's
# submit time, run time, estimate and size equal to Slurm's, and the failure equal to the
# outage (slurm_replay_check.py).
# Sourced by slurm_accounting.sh (replay_dumps DIR on its fresh dumps); run alone it replays
# tests/data/slurm/, which needs no Slurm.
set -euo pipefail
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
fi
SLURM_REPLAY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

replay_dumps() {
  local dir=$1 run="$WORK/replay" start_iso start line
  section "replay of the dumps in $dir"
  mkdir -p "$run"
  cp "$dir/sacct_jobs.txt" "$dir/sacctmgr_events.txt" "$run/"
  # t = 0 at the first submit, for the jobs and the events alike.
  start_iso=$(awk -F'|' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "Submit") c = i; next }
    { print $c }' "$run/sacct_jobs.txt" | sort | head -1)
  start=$(date -u -d "${start_iso/T/ }" +%s)
  cat >"$run/replay.toml" <<TOML
[sweep]
model = "cluster"
replicas = 1
output = "replay.h5"
record = { points = "all", replicas = [0], what = ["jobs", "failures"] }
[params]
nodes = 16
queue = "fcfs"
workload = { source = "sacct", file = "sacct_jobs.txt", size = "cpus", start = "$start_iso" }
failures = { process = "trace", format = "slurm", file = "sacctmgr_events.txt", reason = "not responding", start = "$start_iso" }
TOML
  RC=0
  (cd "$run" && "$FS" run replay.toml -q) >"$WORK/replay.out" 2>"$WORK/replay.err" || RC=$?
  expect_rc "faultsweep run of the sacct workload under the recorded outage" 0 replay
  [ "$RC" -eq 0 ] || return 0
  while IFS= read -r line; do
    case $line in
      "ok - "*) pass "${line#ok - }" ;;
      "FAIL - "*) fail "${line#FAIL - }" ;;
      *) echo "$line" ;;
    esac
  done < <(/usr/bin/python3 "$SLURM_REPLAY_DIR/slurm_replay_check.py" "$dir" "$run/replay.h5" "$start" \
    <(cat "$WORK/replay.out" "$WORK/replay.err") 2>&1 || echo "FAIL - the replay checker broke")
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  replay_dumps "$SRC/tests/data/slurm"
  finish
fi
