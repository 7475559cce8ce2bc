#!/usr/bin/env bash
# A stop signal while the program is still starting: from the moment the faultsweep command has
# been executed (before that no program can have a handler), a storm of SIGUSR1 -- one every
# millisecond to a single process, one every 20 ms to mpirun, which forwards each to ranks that
# may be loading their libraries or in MPI_Init. Every run must end in exit 75 (stopped) or 0,
# never by a signal (exit 138 from the shell or mpirun) -- except mpirun itself hit in its
# tear-down after its ranks exited 75 (it says so), which is counted and reported. FS_START_TRIALS trials per rank count
# (default 6).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
JOB="$SRC/tests/data/jobs/stop_paths.toml"
TRIALS=${FS_START_TRIALS:-6}

FS_REAL=$(readlink -f "$FS")
FS_REAL_MAIN=$(readlink -f "$(dirname "$FS")/libexec/faultsweep/faultsweep" 2>/dev/null || true)
# ours PID: PID has executed the faultsweep command (the launcher, or the program it runs). From
# then on a program that installs its handlers in main() is exposed for as long as its
# libraries take to load; faultsweep is not. (The kernel switches /proc/PID/exe a few
# microseconds before the new program's first instruction; 2 ms more are waited below.)
ours() {
  local exe
  exe=$(readlink "/proc/$1/exe" 2>/dev/null) || return 1
  [ "$exe" = "$FS_REAL" ] || [ "$exe" = "$FS_REAL_MAIN" ]
}
# ranks_started SID NP: NP processes of the session have executed the faultsweep command.
ranks_started() {
  local n=0 pid
  for pid in $(pgrep -s "$1" || true); do ours "$pid" && n=$((n + 1)); done
  [ "$n" -ge "$2" ]
}
# ranks_caught SID NP: NP processes of the session run the program with its SIGUSR1 handler.
ranks_caught() {
  local n=0 pid
  for pid in $(pgrep -s "$1" || true); do
    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$FS_REAL_MAIN" ] && caught "$pid" && n=$((n + 1))
  done
  [ "$n" -ge "$2" ]
}
# storm LABEL NP PERIOD_S: starts the run, waits until the process (1 rank) or every rank (2
# ranks) has executed the faultsweep command, then sends SIGUSR1 every PERIOD_S seconds.
storm() {
  local label=$1 np=$2 period=$3
  if [ "$np" -eq 1 ]; then
    start_group "$label" "$FS" run "$JOB" --out "$WORK/$label.h5" -q
    while ! ours "$BG_PID" && kill -0 "$BG_PID" 2>/dev/null; do :; done
  else
    start_group "$label" "${MPIRUN[@]}" -np "$np" "$FS" run "$JOB" --out "$WORK/$label.h5" -q
    while ! ranks_started "$BG_PID" "$np" && kill -0 "$BG_PID" 2>/dev/null; do :; done
  fi
  sleep 0.002
  # 1 rank: until the process ends. Through mpirun: until every rank has its handler (the
  # start-up is what this test is about), at least 3 signals, and never once the stop is taken
  # (rank 0 writes OUT.stopping) or a rank has ended: mpirun then heads for its tear-down with
  # the default action back, and a signal would end it as it would any program (the Slurm
  # scripts stop sending at the same marker).
  local n=0
  while kill -0 "$BG_PID" 2>/dev/null; do
    if [ "$np" -gt 1 ]; then
      [ -e "$WORK/$label.h5.stopping" ] && break
      [ "$n" -gt 0 ] && ! ranks_started "$BG_PID" "$np" && break
      [ "$n" -ge 3 ] && ranks_caught "$BG_PID" "$np" && break
    fi
    { [ "$np" -eq 1 ] || caught "$BG_PID"; } && kill -USR1 "$BG_PID" 2>/dev/null && n=$((n + 1))
    sleep "$period"
  done
  wait_rc "$BG_PID"
  if [ "$RC" -eq 75 ] || [ "$RC" -eq 0 ]; then
    pass "$label: $n signals from the start: exit $RC"
  elif [ "$np" -gt 1 ] && [ "$RC" -eq 138 ] && grep -q "Exit code: *75" "$WORK/$label.err"; then
    # mpirun reports a rank's exit 75 and then died of a signal: the signal reached it in its
    # tear-down, after the ranks had stopped (a rank that stops before MPI starts exits at once
    # and writes no marker, so no sender can always tell in time). The ranks did what they must.
    pass "$label: $n signals from the start: the ranks exited 75; mpirun, in its tear-down, was" \
      "ended by the last signal (exit 138)"
    TEARDOWN=$((TEARDOWN + 1))
  else
    fail "$label: $n signals from the start: exit $RC, expected 75 or 0 (never a signal)"
    tail -3 "$WORK/$label.err" | sed 's/^/    | /'
  fi
  # A rank may still be ending when mpirun has: only one still running seconds later is left.
  check "$label: no rank left running (within 5 s of the exit)" session_gone "$BG_PID" 5
}

section "1 rank: SIGUSR1 every millisecond from the moment it runs faultsweep"
for i in $(seq 1 "$TRIALS"); do storm "one$i" 1 0.001; done

section "2 ranks: SIGUSR1 to mpirun every 20 ms once the ranks run faultsweep (forwarded to them)"
TEARDOWN=0
for i in $(seq 1 "$TRIALS"); do storm "two$i" 2 0.02; done
echo "mpirun ended by a signal in its tear-down, after its ranks exited 75: $TEARDOWN of $TRIALS"

finish
