#!/usr/bin/env bash
# The Slurm scripts (slurm-scripts/) on a real Slurm: brings up a single-node cluster from
# Debian's packages (munged, slurmctld, slurmd as root, everything under a temp folder), then
#  1. a sweep whose jobs get a 2-minute walltime (stop signal 30 s before it) while it needs about 2 minutes of work: each job is told
#     to stop 30 s before its walltime (--signal=B:USR1@30), exits 75 and resubmits itself with
#     --resume until the sweep is complete;
#  2. the same sweep as a job array of 3 slices (each also cut by the walltime and resubmitted)
#     and a dependent merge job;
#  3. the short sweep under FS_LAUNCHER=srun, cut once by the walltime;
#  4. an early stop: Slurm's SIGUSR1 (scancel --batch) reaches the job in the first instant of
#     its mpirun: the job must count it as a stop and resubmit, the chain completes;
# and checks the files are complete and identical in /results and /summary (h5diff). Every
# history's exit codes are printed (one line per sweep). tests/integration/slurm_under_load.sh
# runs this test under an artificial load.
# Needs root; installs slurm-wlm and munge with apt-get when missing. Prints SKIP and exits 0
# only when they cannot be installed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/slurm_cluster.sh"
SCRIPTS="$SRC/slurm-scripts"
LIMIT_S=${FS_SLURM_TEST_LIMIT_S:-720}  # how long the sweeps may take in all
# FS_SLURM_TEST_TIME: the jobs' walltime in minutes (default 2). Slurm sends the stop signal up
# to a minute earlier than asked (its event loop's resolution), so a 1-minute job may be told to
# stop as it starts.

if [ "$(id -u)" -ne 0 ]; then
  skip "slurm: needs root (it starts slurmctld, slurmd and munged)"
  finish
  exit 0
fi
if ! slurm_install slurmctld=slurm-wlm slurmd=slurm-wlm munged=munge; then
  skip "slurm: slurm-wlm and munge cannot be installed here"
  exit 0
fi

# Five ranks (a 2-rank chain and 3 slices) share the cores: the synthetic model spins on the
# wall clock, so its tasks take as long on a shared core.
SLURM_PARTITION_OPTS="OverSubscribe=FORCE:4"
if ! slurm_cluster_start; then
  finish
  exit 1
fi

# --- the sweep: 24 points x 20 replicas x 0.5 s = 240 s of work ---------------------------------
RUN="$WORK/run"
mkdir -p "$RUN"
cat >"$RUN/walltime.toml" <<'TOML'
# About 2 minutes on 2 ranks: jobs with a 2-minute walltime must hand it on at least once.
[sweep]
model = "synthetic"
seed = 7519
output = "walltime.h5"
replicas = 20
[params]
work = "500ms"
sd = 2.0
[axes]
mean = { linear = [-3.0, 3.0], n = 24 }
TOML
cat >"$RUN/site.conf" <<SITE
FS_BIN="$FS"
FS_LAUNCHER=mpirun
FS_MPIRUN_FLAGS="-q --allow-run-as-root --oversubscribe"
FS_TIME=${FS_SLURM_TEST_TIME:-2}
FS_SIGNAL_LEAD=30
FS_MAX_RESUBMITS=10
FS_LOG_ROOT="$RUN/logs"
SITE

cd "$RUN"
section "submit: a chained sweep on 2 ranks and a 3-slice job array"
t0=$(date +%s)
RC=0
"$SCRIPTS/submit.sh" --site "$RUN/site.conf" --ntasks 2 --name chain walltime.toml chain.h5 \
  >"$WORK/submit_chain.out" 2>"$WORK/submit_chain.err" || RC=$?
expect_rc "submit.sh for the chained sweep" 0 submit_chain
RC=0
"$SCRIPTS/submit.sh" --site "$RUN/site.conf" --ntasks 1 --slices 3 --name sliced walltime.toml \
  sliced.h5 >"$WORK/submit_sliced.out" 2>"$WORK/submit_sliced.err" || RC=$?
expect_rc "submit.sh for the job array" 0 submit_sliced

# The srun launcher (Open MPI ranks started by Slurm through PMIx) on a shorter sweep: 24 points
# x 8 replicas x 0.5 s = 96 s of work, about 50 s on 2 ranks, so cut once by the walltime.
sed -e 's/^replicas = 20$/replicas = 8/' walltime.toml >short.toml
RC=0
FS_LAUNCHER=srun FS_SRUN_FLAGS="--mpi=pmix" "$SCRIPTS/submit.sh" --site "$RUN/site.conf" \
  --ntasks 2 --name viasrun short.toml viasrun.h5 >"$WORK/submit_srun.out" \
  2>"$WORK/submit_srun.err" || RC=$?
expect_rc "submit.sh with FS_LAUNCHER=srun" 0 submit_srun

# A stop at the very start of mpirun: no walltime cut (5 minutes), but the batch shell gets
# SIGUSR1 as soon as its history says the launcher started.
RC=0
"$SCRIPTS/submit.sh" --site "$RUN/site.conf" --ntasks 1 --time 5 --name early short.toml \
  early.h5 >"$WORK/submit_early.out" 2>"$WORK/submit_early.err" || RC=$?
expect_rc "submit.sh for the early stop" 0 submit_early
early_id=$(cat "$WORK/submit_early.out")
early_sent=0

section "wait (at most $LIMIT_S s) until no job of ours is left"
while squeue -h -o %i 2>/dev/null | grep -q .; do
  if [ $early_sent -eq 0 ] && grep -q "job $early_id start" "$RUN/logs/early/history" 2>/dev/null; then
    scancel --batch --signal=USR1 "$early_id" && early_sent=1
  fi
  if [ $(($(date +%s) - t0)) -gt "$LIMIT_S" ]; then
    fail "jobs still queued or running after $LIMIT_S s:"
    squeue 2>&1 | sed 's/^/    | /'
    break
  fi
  [ $early_sent -eq 1 ] && sleep 3 || sleep 0.05
done
elapsed=$(($(date +%s) - t0))
pass "the queue drained after $elapsed s"

show_logs() {
  echo "    --- $1/history"
  sed 's/^/    | /' "$RUN/logs/$1/history" 2>/dev/null | tail -30
  tail -n 5 "$RUN/logs/$1/"*.out 2>/dev/null | sed 's/^/    | /' | tail -40 || true
}

section "the chained sweep"
starts=$(grep -c 'start attempt' "$RUN/logs/chain/history" 2>/dev/null || true)
stops=$(grep -c 'resubmitted as job' "$RUN/logs/chain/history" 2>/dev/null || true)
if [ "${stops:-0}" -ge 1 ] && [ "${starts:-0}" -eq $((${stops:-0} + 1)) ]; then
  pass "the walltime cut the sweep $stops time(s); $starts jobs in the chain"
else
  fail "expected >= 1 interruption and one more job than interruptions: $starts starts, $stops resubmissions"
  show_logs chain
fi
# USR1 at the lead, or Slurm's TERM at the walltime if the stop took longer than the lead.
check "every interrupted job was told by a signal (log says SIGUSR1 or SIGTERM)" \
  test "$(cat "$RUN"/logs/chain/fs-chain-*.out 2>/dev/null | grep -c 'got SIG')" -ge "$stops"
check "the last job exited 0" grep -q 'exit 0$' <(grep 'end attempt' "$RUN/logs/chain/history" | tail -1)
check "chain.h5 is complete (complete = 1)" test "$(attr_complete "$RUN/chain.h5" 2>/dev/null)" = 1
check "the journal is gone" test ! -e "$RUN/chain.h5.journal"
[ "$(attr_complete "$RUN/chain.h5" 2>/dev/null)" = 1 ] || show_logs chain

section "the job array and the merge"
for i in 0 1 2; do
  check "slice $i/3 wrote its file" test -f "$RUN/sliced.slice-$i-of-3.h5"
done
sstops=$(grep -c 'resubmitted as job' "$RUN/logs/sliced/history" 2>/dev/null || true)
pass "the walltime cut slices ${sstops:-0} time(s) in all"
check "the merge job merged the slices" grep -q 'merge: .* complete' "$RUN/logs/sliced/history"
check "sliced.h5 is complete (complete = 1)" test "$(attr_complete "$RUN/sliced.h5" 2>/dev/null)" = 1
[ "$(attr_complete "$RUN/sliced.h5" 2>/dev/null)" = 1 ] || show_logs sliced

if [ -f "$RUN/chain.h5" ] && [ -f "$RUN/sliced.h5" ]; then
  same_results "chained (unsliced) vs 3 slices merged" "$RUN/chain.h5" "$RUN/sliced.h5"
fi
section "the srun launcher"
if [ "$(attr_complete "$RUN/viasrun.h5" 2>/dev/null)" = 1 ]; then
  pass "viasrun.h5 is complete (complete = 1) after $(grep -c 'start attempt' \
    "$RUN/logs/viasrun/history") job(s), $(grep -c 'resubmitted as' "$RUN/logs/viasrun/history") cut"
  check "srun started one sweep of 2 ranks" grep -q "on 2 ranks" "$RUN"/logs/viasrun/fs-*.out
  "${MPIRUN[@]}" -np 2 "$FS" run "$RUN/short.toml" --out "$RUN/short_ref.h5" -q \
    >"$WORK/short_ref.out" 2>&1 || true
  same_results "srun chain vs a plain mpirun run" "$RUN/short_ref.h5" "$RUN/viasrun.h5"
else
  fail "viasrun.h5 is not complete"
  show_logs viasrun
fi

section "an early stop (SIGUSR1 as mpirun starts)"
check "the signal was sent to the batch shell as its launcher started" test $early_sent -eq 1
check "the job resubmitted itself" grep -q "resubmitted as job" "$RUN/logs/early/history"
if [ "$(attr_complete "$RUN/early.h5" 2>/dev/null)" = 1 ]; then
  pass "early.h5 is complete (complete = 1)"
  [ -e "$RUN/short_ref.h5" ] || "${MPIRUN[@]}" -np 2 "$FS" run "$RUN/short.toml" \
    --out "$RUN/short_ref.h5" -q >"$WORK/short_ref.out" 2>&1 || true
  same_results "early-stopped chain vs a plain mpirun run" "$RUN/short_ref.h5" "$RUN/early.h5"
else
  fail "early.h5 is not complete"
  show_logs early
fi

section "exit codes in the histories"
for h in chain sliced viasrun early; do
  echo "  $h: $(sed -n 's/.* end attempt .*: exit \([0-9]*\).*/\1/p' "$RUN/logs/$h/history" \
    2>/dev/null | tr '\n' ' ')"
done
# FS_SLURM_KEEP=DIR keeps the sweeps' logs (histories, job outputs) and Slurm's own logs there.
if [ -n "${FS_SLURM_KEEP:-}" ]; then
  mkdir -p "$FS_SLURM_KEEP" && cp -r "$RUN/logs/." "$FS_SLURM_KEEP/"
  cp "$SLURM_DIR/slurmctld.log" "$SLURM_DIR/slurmd.log" "$FS_SLURM_KEEP/" 2>/dev/null || true
fi
if [ "$FS_FAILED" -gt 0 ]; then
  echo "    --- slurmctld.log (tail)"
  tail -20 "$SLURM_DIR/slurmctld.log" | sed 's/^/    | /'
fi
finish
