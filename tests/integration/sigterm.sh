#!/usr/bin/env bash
# Stopping cleanly (DESIGN §6): on SIGTERM (Slurm before the walltime) or SIGUSR1 (which mpirun
# forwards to every rank) a sweep saves what has finished in a partial file marked incomplete,
# keeps its journal and exits 75; --resume then finishes it, identical to an uninterrupted run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
JOB="$SRC/tests/data/jobs/synthetic_sigterm.toml"
# Each run is stopped the moment its journal holds STOP_AT of the job's 60 tasks of 200 ms: about
# 2 s into the 12 s the job takes on 1 rank (1 s of 6 on 2 ranks), at the same stage of the run
# however loaded the machine, with seconds of work left for the stop to cut.
STOP_AT=10

section "reference: uninterrupted run on 1 rank"
run_fs ref run "$JOB" --out "$WORK/ref.h5" -q
expect_rc "reference run" 0 ref
check "reference is marked complete (complete = 1)" test "$(attr_complete "$WORK/ref.h5")" = 1

# stop_at LABEL SIG: sends SIG to the run started last (BG_PID) the moment its journal holds
# STOP_AT tasks. A run that ends first, or gets no further within 60 s (then it is killed), fails.
stop_at() {
  signal_mid_run "$1" "$2" "$WORK/$1.h5.journal" "$STOP_AT" 60 "$BG_PID" || true
}

# check_partial LABEL: the state an interrupted run must leave behind; it holds at least the
# RECORDS tasks journaled when the signal was sent.
check_partial() {
  local label=$1 out="$WORK/$1.h5"
  check "$label: says it was interrupted and how to go on" grep -q "rerun with --resume" \
    "$WORK/$label.err"
  check "$label: a partial output exists" test -f "$out"
  check "$label: the output has complete = 0" test "$(attr_complete "$out")" = 0
  run_fs "$label.inspect" inspect "$out"
  expect_rc "$label: inspect reads the partial file" 0 "$label.inspect"
  check "$label: inspect says INCOMPLETE" grep -q "INCOMPLETE" "$WORK/$label.inspect.out"
  check "$label: the journal is kept" test -s "$out.journal"
  local ndone
  ndone=$(sed -n 's/.*replicas *\([0-9]*\) of \([0-9]*\) tasks done.*/\1/p' \
    "$WORK/$label.inspect.out")
  if [ -n "$ndone" ] && [ "$ndone" -lt 60 ] && [ "$ndone" -ge "$RECORDS" ]; then
    pass "$label: $ndone of 60 tasks done before the stop (>= the $RECORDS seen at the signal)"
  else
    fail "$label: expected $RECORDS (seen at the signal) to 59 tasks done, inspect says '${ndone}'"
  fi
  check "$label: no temporary files left" test -z "$(find "$WORK" -name "$label.h5.tmp*")"
}

# resume_check LABEL NP: resumes on NP ranks (1: without mpirun) and compares with the reference.
resume_check() {
  local label=$1 np=$2 out="$WORK/$1.h5"
  run_ranks "$label.resume" "$np" run "$JOB" --out "$out" --resume -q
  expect_rc "$label: --resume on $np rank(s)" 0 "$label.resume"
  check "$label: now complete = 1" test "$(attr_complete "$out")" = 1
  run_fs "$label.inspect2" inspect "$out"
  check "$label: inspect says COMPLETE" grep -q "COMPLETE" "$WORK/$label.inspect2.out"
  check "$label: the journal is removed" test ! -e "$out.journal"
  same_results "$label: resumed vs uninterrupted" "$WORK/ref.h5" "$out"
}

section "SIGTERM to a run on 1 rank"
start_group term "$FS" run "$JOB" --out "$WORK/term.h5"
stop_at term TERM
wait_rc "$BG_PID"
expect_rc "SIGTERM mid-run exits 75" 75 term
check "term: the message names signal 15" grep -q "interrupted by signal 15" "$WORK/term.err"
check_partial term
resume_check term 1

section "SIGINT (Ctrl-C) on 1 rank, resumed from the partial file alone"
start_group int "$FS" run "$JOB" --out "$WORK/int.h5" -q
stop_at int INT
wait_rc "$BG_PID"
expect_rc "SIGINT mid-run exits 75" 75 int
check_partial int
# Without the journal, --resume starts from what the partial file holds.
rm -f "$WORK/int.h5.journal"
resume_check int 1
check "int: it resumed from the partial file" grep -q "resuming from the partial file" \
  "$WORK/int.resume.err"

section "SIGUSR1 to mpirun -np 2 (forwarded to every rank)"
start_group usr1 "${MPIRUN[@]}" -np 2 "$FS" run "$JOB" --out "$WORK/usr1.h5"
# To mpirun alone, which forwards it: both ranks are running tasks by then.
stop_at usr1 USR1
wait_rc "$BG_PID"
expect_rc "SIGUSR1 to mpirun exits 75" 75 usr1
check "usr1: the message names signal 10" grep -q "interrupted by signal 10" "$WORK/usr1.err"
# A rank may still be ending when mpirun has: only one still running seconds later is left.
check "usr1: no rank is left running (within 5 s of the exit)" session_gone "$BG_PID" 5
check_partial usr1
resume_check usr1 2

finish
