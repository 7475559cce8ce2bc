#!/usr/bin/env bash
# slurm-scripts/faultsweep.sbatch without a Slurm: the batch script runs directly, as Slurm would
# start it (FS_LOGDIR, FS_ATTEMPT, SLURM_JOB_ID in its environment), with a stand-in `sbatch`
# that records each submission and a stand-in `squeue` that lists the jobs of $WORK/queued. A
# stand-in `mpirun` on PATH runs the real one but reproduces what kills it under load:
#   slowstart-dfl  it dies of a SIGUSR1 in its first 1.5 s (before it has a handler)
#   slowstart      the same 1.5 s with the signal disposition it was started with
#   teardown       it forwards SIGUSR1 to the real mpirun, then spends 4 s ending, where a
#                  SIGUSR1 kills it (mpirun's own tear-down after the ranks' exit 75)
#   teardown-kill  it is killed (SIGKILL, as Slurm at the walltime) once the ranks have exited
# In each case the batch shell gets Slurm's SIGUSR1; the job must end in a resubmission with
# --resume (the chain goes on), never in a final 138 or 137. Then the merge job of a sliced
# sweep whose slice 0 chain has ended while slice 1 still runs: it must give up at once, name
# slice 0 and print a command that resubmits it; and one whose array tasks never ran their
# script: it must submit those slices again. FS_SLURM_SCRIPTS=DIR tests other scripts (an
# older copy of slurm-scripts/).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
SCRIPTS=${FS_SLURM_SCRIPTS:-$SRC/slurm-scripts}
REAL_MPIRUN=$(command -v mpirun)
export REAL_MPIRUN

mkdir -p "$WORK/bin" "$WORK/run"
cat >"$WORK/bin/sbatch" <<'SH'
#!/usr/bin/env bash
n=$(($(cat "$WORK_FAKE/next_id" 2>/dev/null || echo 100) + 1))
echo "$n" >"$WORK_FAKE/next_id"
# The job's own variables come in sbatch's environment (--export=ALL): logged before the options.
echo "$n $(env | grep -E '^FS_(ATTEMPT|FAILS|MODE|SLICE_INDEX)=' | sort | tr '\n' ',') $*" \
  >>"$WORK_FAKE/sbatch.log"
echo "$n"
SH
cat >"$WORK/bin/squeue" <<'SH'
#!/usr/bin/env bash
cat "$WORK_FAKE/queued" 2>/dev/null || true
SH
cat >"$WORK/bin/mpirun" <<'PY'
#!/usr/bin/env python3
import os, signal, subprocess, sys, time
mode, real = os.environ["FAKE_MPIRUN"], os.environ["REAL_MPIRUN"]
open(os.environ["WORK_FAKE"] + "/mpirun.started", "w").close()
if mode.startswith("slowstart"):
    if mode == "slowstart-dfl":
        signal.signal(signal.SIGUSR1, signal.SIG_DFL)
    time.sleep(1.5)
    os.execv(real, [real] + sys.argv[1:])
child = subprocess.Popen([real] + sys.argv[1:])
signal.signal(signal.SIGUSR1, lambda s, f: child.send_signal(signal.SIGUSR1))
rc = child.wait()
signal.signal(signal.SIGUSR1, signal.SIG_DFL)
if mode == "teardown-kill":
    os.kill(os.getpid(), signal.SIGKILL)
time.sleep(4)
sys.exit(rc if rc >= 0 else 128 - rc)
PY
chmod +x "$WORK/bin/"*
export WORK_FAKE="$WORK"

# 16 points x 4 replicas x 0.25 s: 8 s on 2 ranks, long enough to be stopped while it runs.
cat >"$WORK/run/sweep.toml" <<'TOML'
[sweep]
model = "synthetic"
seed = 11
output = "sweep.h5"
replicas = 4
[params]
work = "250ms"
[axes]
mean = { linear = [-1.0, 1.0], n = 16 }
TOML
cat >"$WORK/site.conf" <<SITE
FS_BIN="$FS"
FS_MPIRUN_FLAGS="-q --allow-run-as-root --oversubscribe"
FS_LOG_ROOT="$WORK/logs"
FS_MERGE_GRACE=3
SITE

# submit NAME ARGS...: submit.sh with the stand-in sbatch (writes the sweep's folder).
submit() {
  local name=$1
  shift
  (cd "$WORK/run" && PATH="$WORK/bin:$PATH" bash "$SCRIPTS/submit.sh" --site "$WORK/site.conf" \
    --name "$name" "$@") >"$WORK/submit_$name.out" 2>"$WORK/submit_$name.err"
}

# job NAME ENV...: runs the batch script of sweep NAME in the background as Slurm would (job id
# 500); its pid in JOB_PID.
job() {
  local name=$1
  shift
  rm -f "$WORK/mpirun.started"
  start_group "job_$name" env PATH="$WORK/bin:$PATH" FS_LOGDIR="$WORK/logs/$name" \
    SLURM_JOB_ID=500 "$@" bash "$SCRIPTS/faultsweep.sbatch"
  JOB_PID=$BG_PID
}

# stopped_case NAME MODE WHEN: Slurm's USR1 reaches the batch shell when WHEN ("start": the
# stand-in mpirun has just started; "run": the sweep's journal holds 2 of its 64 tasks); the job
# must resubmit.
stopped_case() {
  local name=$1 mode=$2 when=$3 rc=0
  section "$name: FAKE_MPIRUN=$mode, SIGUSR1 at $when"
  submit "$name" sweep.toml "$name.h5"
  : >"$WORK/sbatch.log"
  job "$name" FAKE_MPIRUN="$mode" FS_ATTEMPT=0
  if [ "$when" = start ]; then
    sleep_until_exists "$WORK/mpirun.started" 30 || fail "$name: the stand-in mpirun did not start"
  else
    wait_for_records "$WORK/run/$name.h5.journal" 2 60 "$JOB_PID" ||
      fail "$name: the sweep did not journal 2 tasks (saw $RECORDS) while the job ran"
  fi
  kill -USR1 "$JOB_PID"
  wait "$JOB_PID" || rc=$?
  check "$name: the job asks for its successor (exit 75, got $rc)" test "$rc" -eq 75
  check "$name: the successor is submitted as attempt 1 after this job" \
    grep -q "FS_ATTEMPT=1.*--dependency=afterany:500" "$WORK/sbatch.log"
  check "$name: the history records the resubmission" \
    grep -q "resubmitted as job" "$WORK/logs/$name/history"
  sed 's/^/    | /' "$WORK/logs/$name/history"
}

stopped_case early_dfl slowstart-dfl start
check "early_dfl: the launcher's death by the signal counts as stopped" \
  grep -q "counts as stopped.*nothing was written" "$WORK/logs/early_dfl/history"
stopped_case early slowstart start
# mpirun, started with USR1 ignored, usually forwards the repeated signal to the ranks (exit 75);
# under load the signal can still reach a rank in its exec (exit 138): either way a stop.
check "early: the job's end counts as a stop (exit 75, or the launcher's death after the request)" \
  grep -q -e "end attempt 0: exit 75 " -e "counts as stopped" "$WORK/logs/early/history"
stopped_case teardown teardown run
check "teardown: no signal reached mpirun in its tear-down (exit 75)" \
  grep -q "end attempt 0: exit 75 " "$WORK/logs/teardown/history"
check "teardown: faultsweep left its acknowledgement, teardown.h5.stopping" \
  test -s "$WORK/run/teardown.h5.stopping"
stopped_case killed teardown-kill run
check "killed: the journal is kept for the successor" test -e "$WORK/run/killed.h5.journal"

section "the successor of the first case completes the sweep"
: >"$WORK/sbatch.log"
rc=0
job early_dfl FAKE_MPIRUN=teardown FS_ATTEMPT=1
wait "$JOB_PID" || rc=$?
check "it exits 0 (got $rc)" test "$rc" -eq 0
check "early_dfl.h5 is complete" test "$(attr_complete "$WORK/run/early_dfl.h5")" = 1
check "no acknowledgement is left after a complete run" test ! -e "$WORK/run/early_dfl.h5.stopping"

section "merge: slice 0's chain has ended incomplete while slice 1 still runs"
submit sliced --slices 2 sweep.toml sliced.h5
array=$(awk '$2 == "array" {print $1}' "$WORK/logs/sliced/jobids")
(cd "$WORK/run" || exit
  "$FS" run sweep.toml --slice 0/2 --out sliced.slice-0-of-2.h5 -q &
  pid=$!
  wait_for_records sliced.slice-0-of-2.h5.journal 2 60 $pid || true
  kill -TERM $pid
  wait $pid) >/dev/null 2>&1 || true
check "slice 0 left a partial file and its journal" test -e "$WORK/run/sliced.slice-0-of-2.h5.journal"
{
  echo "2026-01-01T00:00:00Z job ${array}_0 start attempt 0 slice 0/2: mpirun -np 2"
  echo "2026-01-01T00:00:09Z job ${array}_0 end attempt 0 slice 0/2: exit 3 (a file could not be read or written)"
} >>"$WORK/logs/sliced/history"
echo "777 sweep 1 1" >>"$WORK/logs/sliced/jobids"
echo "777" >"$WORK/queued"
: >"$WORK/sbatch.log"
rc=0
t0=$(date +%s)
job sliced FS_MODE=merge FS_ATTEMPT=0
wait "$JOB_PID" || rc=$?
sed 's/^/    | /' "$WORK/logs/sliced/history"
check "the merge gives up (exit 1, got $rc) within a bounded wait" \
  test "$rc" -eq 1 -a $(($(date +%s) - t0)) -lt 60
check "it does not wait for slice 1 by resubmitting itself" test ! -s "$WORK/sbatch.log"
check "the history names slice 0 and its last exit" \
  grep -q "slice 0/2 ended without completing (its last job: exit 3" "$WORK/logs/sliced/history"
cmd=$(sed -n 's/.*resume the slices and the merge by hand: //p' "$WORK/logs/sliced/history")
check "the history gives the command that resumes it: $cmd" test -n "$cmd"
if [ -n "$cmd" ]; then
  rc=0
  PATH="$WORK/bin:$PATH" $cmd >"$WORK/resume.out" 2>&1 || rc=$?
  check "that command runs (exit $rc)" test "$rc" -eq 0
  check "it resubmits slice 0's chain and a merge after it" \
    grep -q "FS_SLICE_INDEX=0" "$WORK/sbatch.log"
  check "and a merge job after it" grep -q "FS_MODE=merge.*--dependency=afterany:" "$WORK/sbatch.log"
fi

section "merge: the array's tasks never ran their script (Slurm ended them first)"
submit lost --slices 2 sweep.toml lost.h5
: >"$WORK/queued"
: >"$WORK/sbatch.log"
rc=0
job lost FS_MODE=merge FS_ATTEMPT=0
wait "$JOB_PID" || rc=$?
sed 's/^/    | /' "$WORK/logs/lost/history"
check "the merge waits (exit 75, got $rc)" test "$rc" -eq 75
for i in 0 1; do
  check "slice $i is submitted again, as a sweep (not in the merge job's mode)" \
    grep -q "FS_MODE=sweep,FS_SLICE_INDEX=$i," "$WORK/sbatch.log"
done
check "the merge resubmits itself after them" grep -q "FS_MODE=merge.*afterany:[0-9]*:[0-9]*" \
  "$WORK/sbatch.log"
finish
