#!/usr/bin/env bash
# Records survive every path a sweep's results take: a run killed -9 mid-way and resumed, a run
# on 2 ranks, and two slices merged all hold the same /records (and /results) as one
# uninterrupted run; `inspect` lists them (records_export.sh tests `export`).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cat >"$WORK/job.toml" <<'TOML'
[sweep]
model = "cluster"
seed = 5
replicas = 6
record = { points = [0, 2], replicas = [0, 1, 5] }

[params]
nodes = 64
checkpoint = "periodic"
checkpoint_interval = "1h"
workload = { source = "fars", jobs = 20000, mean_interarrival = 300, mean_runtime = "3h", mean_size = 8 }
failures = { process = "renewal", dist = "weibull", shape = 0.7, mean = "3d", downtime = "1h" }

[axes]
queue = ["fcfs", "easy", "conservative"]
TOML

# same_records WHAT A B: /results and /records of two files are identical.
same_records() {
  same_results "$1" "$2" "$3"
  if h5diff -r "$2" "$3" /records >"$WORK/h5diff.log" 2>&1; then
    pass "$1: /records identical"
  else
    fail "$1: /records differ"
    head -20 "$WORK/h5diff.log" | sed 's/^/    | /'
  fi
}

section "uninterrupted"
run_fs ref run "$WORK/job.toml" --out "$WORK/ref.h5" -q
expect_rc "uninterrupted recorded run" 0 ref
groups=$(h5ls -r "$WORK/ref.h5" | grep -c '^/records/point_[0-9]*/replica_[0-9]* *Group' || true)
check "6 recorded tasks (2 points x 3 replicas): $groups" test "$groups" -eq 6
check "no records journal left after a complete run" test ! -e "$WORK/ref.h5.records.journal"

# signal_recorded SIG NAME OUT PID: sends SIG to the run the moment a recorded task is in both
# journals of OUT, its result in OUT.journal and its records in OUT.records.journal (synced
# first, sweep/run/coordinator.cpp): the kill then lands mid-run with records to resume from, or to
# lose with `drop`. A whole run takes well under a second here, half of it after that moment.
signal_recorded() {
  local st=0
  signal_at_records "$1" "$3.journal" 1 60 "$4" "$3.records.journal" || st=$?
  if [ $st -eq 2 ]; then
    fail "$2: the run ended before a recorded task was journaled"
  elif [ $st -ne 0 ]; then
    fail "$2: no recorded task journaled within 60 s"
  fi
}

# kill_and_resume NAME [drop|damage]: kills a run -9 once a recorded task is journaled with its
# records, then resumes it (after deleting the side journal with `drop`, or flipping a byte of
# its first record's tables with `damage`: the tasks whose records are lost run again, and the
# resume says so).
kill_and_resume() {
  local name=$1 out="$WORK/$1.h5" sid
  start_group "$name" "$FS" run "$WORK/job.toml" --out "$out" -q
  sid=$BG_PID
  signal_recorded KILL "$name" "$out" "$sid"
  kill_session "$sid"
  wait "$sid" 2>/dev/null || true
  if [ -e "$out.journal" ] && [ ! -e "$out" ]; then
    pass "$name: killed mid-run, $(journal_records "$out.journal") of 18 tasks journaled"
  else
    fail "$name: the run finished before the kill: make the tasks longer"
  fi
  check "$name: a recorded task was journaled with its records before the kill" \
    wait_for_records "$out.journal" 1 0 "" "$out.records.journal"
  [ "${2:-}" = drop ] && rm -f "$out.records.journal"
  if [ "${2:-}" = damage ]; then
    # Byte 23 + 16 + 8: past the header (23 bytes) and the record's task and length (16).
    printf '\xa5' | dd of="$out.records.journal" bs=1 seek=47 conv=notrunc status=none
    run_fs "$name.inspect" inspect "$out.records.journal"
    expect_rc "$name: inspect of the damaged side journal" 0 "$name.inspect"
    # The first record damaged: skipped if another follows it, else dropped as the tail.
    check "$name: inspect says what a resume would skip or drop of it" grep -Eq \
      "^  records    [0-9]+ recorded tasks? .*(1 damaged record .*would be skipped|bytes of a torn or unreadable tail would be dropped)" \
      "$WORK/$name.inspect.out"
  fi
  run_fs "$name.resume" run "$WORK/job.toml" --out "$out" --resume -q
  expect_rc "$name: resume after kill -9" 0 "$name.resume"
  if [ "${2:-}" = damage ]; then
    check "$name: the resume says which recorded tasks run again" \
      grep -Eq "records journal .*recorded tasks? runs? again" "$WORK/$name.resume.err"
  fi
  same_records "$name: kill -9 + resume vs uninterrupted" "$WORK/ref.h5" "$out"
}

section "kill -9 mid-run, then resume"
kill_and_resume killed
kill_and_resume killed_lost drop
kill_and_resume killed_damaged damage

section "SIGTERM, then resume from the partial results file alone"
out="$WORK/termed.h5"
start_group termed "$FS" run "$WORK/job.toml" --out "$out" -q
sid=$BG_PID
signal_recorded TERM termed "$out" "$sid"
wait_rc "$sid"
if [ "$RC" -eq 75 ] && [ -e "$out" ]; then
  pass "stopped by SIGTERM with a partial file (exit 75)"
  rm -f "$out.journal" "$out.records.journal"  # only the partial file is left to resume from
  run_fs termed.resume run "$WORK/job.toml" --out "$out" --resume -q
  expect_rc "resume from the partial file" 0 termed.resume
  same_records "partial file + resume vs uninterrupted" "$WORK/ref.h5" "$out"
else
  fail "SIGTERM: exit $RC (expected 75 with a partial file): make the tasks longer"
fi

section "2 ranks"
run_mpi two 2 run "$WORK/job.toml" --out "$WORK/two.h5" -q
expect_rc "2 ranks" 0 two
same_records "2 ranks vs 1" "$WORK/ref.h5" "$WORK/two.h5"

section "slices merged"
run_fs s1 run "$WORK/job.toml" --out "$WORK/s1.h5" --slice 0/2 -q
run_fs s2 run "$WORK/job.toml" --out "$WORK/s2.h5" --slice 1/2 -q
run_fs merge merge "$WORK/merged.h5" "$WORK/s1.h5" "$WORK/s2.h5" "$WORK/killed.h5"
expect_rc "merge of two slices and a whole file" 0 merge
same_records "merged vs uninterrupted" "$WORK/ref.h5" "$WORK/merged.h5"

section "inspect"
run_fs inspect inspect "$WORK/ref.h5"
check "inspect lists the records" grep -q 'records: 6 tasks' "$WORK/inspect.out"

finish
