#!/usr/bin/env bash
# A real Slurm with its accounting database: a single-node cluster (slurm_cluster.sh) with
# slurmdbd and MariaDB, a few dozen real jobs (sleeps of several sizes and time limits; jobs that
# fail, time out, are cancelled before and after they start, die with the node; a job array; a
# job with srun steps; a job still waiting at the dump and one still running), the node drained
# for "maintenance" and taken down as "Not responding" and resumed each time. Then it dumps
# `sacct -P` (allocations and steps) and `sacctmgr -P show event` and checks them against its
# own record of what it did: every job once with the state it was meant to end in, submit times
# and time limits as submitted, both outages with their reasons and times; and replays them with
# faultsweep (slurm_replay.sh): the jobs kept and dropped, their times and the outage as Slurm's.
# Set FS_SLURM_DUMP_DIR to keep the dumps and the record (tests/data/slurm/ holds a set).
# Needs root; installs slurm-wlm, munge, slurmdbd and mariadb-server with apt-get when missing.
# Prints SKIP and exits 0 only when they cannot be installed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/slurm_cluster.sh"
source "$(dirname "${BASH_SOURCE[0]}")/slurm_replay.sh"

if [ "$(id -u)" -ne 0 ]; then
  skip "slurm_accounting: needs root (it starts the Slurm daemons and MariaDB)"
  finish
  exit 0
fi
if ! slurm_install slurmctld=slurm-wlm slurmd=slurm-wlm sacct=slurm-client munged=munge \
  slurmdbd=slurmdbd mariadbd=mariadb-server mariadb-install-db=mariadb-server; then
  skip "slurm_accounting: slurm-wlm, slurmdbd and mariadb-server cannot be installed here"
  exit 0
fi

# Times in the dumps are UTC, as sacct prints local time without a zone.
export TZ=UTC
# 16 CPUs on one node whatever the machine has: the jobs only sleep, and more CPUs let jobs of
# several sizes run side by side and queue behind each other.
SLURM_ACCOUNTING=1
SLURM_NODE_LINE="NodeName=$SLURM_HOST CPUs=16 RealMemory=4000"
# The main scheduling loop every 2 s (Slurm's default is 60 s): a job that waited through the drain
# must not wait for the next loop after the resume when no submission or job end starts it.
SLURM_CONF_EXTRA="SlurmdParameters=config_overrides
SchedulerParameters=sched_interval=2"
# The node stays down until the test resumes it, not until slurmd next answers a ping.
SLURM_RETURN_TO_SERVICE=0
t_begin=$(date +%s)
if ! slurm_cluster_start; then
  finish
  exit 1
fi
OUT=${FS_SLURM_DUMP_DIR:-$WORK/dump}
mkdir -p "$OUT"
RECORD="$OUT/record.tsv"
# One line per job (submitted between t1 and t2) or outage (from t1 to t2); sleep is how long a
# job that completes runs.
printf 'what\tname\tjobid\texpected\tt1\tt2\ttimelimit_min\tcpus\tsleep\n' >"$RECORD"

# sub NAME EXPECTED_STATE CPUS TIMELIMIT SLEEP COMMAND [SBATCH OPTIONS...]: submits a batch job
# and records it (an array is one line; the check expects its elements).
declare -A JOB
sub() {
  local name=$1 want=$2 cpus=$3 limit=$4 secs=$5 cmd=$6 before id
  shift 6
  before=$(date +%s)
  id=$(sbatch --parsable -J "$name" -c "$cpus" -t "$limit" -o /dev/null "$@" --wrap "$cmd")
  printf 'job\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${id%%;*}" "$want" "$before" \
    "$(date +%s)" "$limit" "$cpus" "$secs" >>"$RECORD"
  JOB[$name]=${id%%;*}
}
# outage STATE REASON SECONDS: the node in STATE with REASON for SECONDS, then resumed.
outage() {
  local state=$1 reason=$2 secs=$3 t1 t2
  t1=$(date +%s)
  scontrol update nodename="$SLURM_HOST" state="$state" reason="$reason"
  sleep "$secs"
  t2=$(date +%s)
  scontrol update nodename="$SLURM_HOST" state=resume
  record_outage "$state" "$reason" "$t1" "$t2"
}
record_outage() { printf 'outage\t%s\t\t%s\t%s\t%s\t\t\t\n' "$@" >>"$RECORD"; }
# wait_until SECONDS WHAT COMMAND...: polls COMMAND every second; fails after SECONDS.
wait_until() {
  local secs=$1 what=$2 t
  shift 2
  t=$(date +%s)
  until "$@"; do
    if [ $(($(date +%s) - t)) -gt "$secs" ]; then
      fail "$what: not within $secs s"
      squeue 2>&1 | sed 's/^/    | /'
      return 1
    fi
    sleep 1
  done
}
# The fields the dumps keep (sacct --helpformat and sacctmgr's LIST/SHOW EVENT FORMAT OPTIONS).
SACCT_FIELDS=JobID,JobIDRaw,JobName,Partition,Submit,Eligible,Start,End,Elapsed,Timelimit,NNodes
SACCT_FIELDS+=,NCPUS,NodeList,AllocTRES,ReqTRES,State,ExitCode
EVENT_FIELDS=Cluster,ClusterNodes,NodeName,Start,End,Duration,State,StateRaw,Event,Reason,User
CHECK=(/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/slurm_accounting_check.py" "$RECORD" "$OUT")

# dump_accounting EPOCH: dumps everything since EPOCH, again until the dumps hold every job in
# the state it was meant to end in and both outages closed (slurmctld sends the records to
# slurmdbd a moment after the fact).
dump_accounting() {
  local since t
  since=$(date -u -d "@$1" +%Y-%m-%dT%H:%M:%S)
  t=$(date +%s)
  while :; do
    sacct -P -a -X -S "$since" --format="$SACCT_FIELDS" >"$OUT/sacct_jobs.txt"
    sacct -P -a -S "$since" --format="$SACCT_FIELDS" >"$OUT/sacct_steps.txt"
    sacctmgr -P show event Start="$since" format="$EVENT_FIELDS" >"$OUT/sacctmgr_events.txt"
    "${CHECK[@]}" --ready >"$WORK/ready.out" 2>&1 && break
    if [ $(($(date +%s) - t)) -gt 30 ]; then
      fail "the accounting records are not complete after 30 s:"
      sed 's/^/    | /' "$WORK/ready.out"
      return 0
    fi
    sleep 2
  done
  pass "the accounting records are complete after $(($(date +%s) - t)) s"
}
# check_dumps: the checker's "ok - ..." and "FAIL - ..." lines, counted here.
check_dumps() {
  local line
  while IFS= read -r line; do
    case $line in
      "ok - "*) pass "${line#ok - }" ;;
      "FAIL - "*) fail "${line#FAIL - }" ;;
      *) echo "$line" ;;
    esac
  done < <("${CHECK[@]}" 2>&1 || echo "FAIL - the checker stopped")
}
node_up() { sinfo -h -o %T | grep -q -E "^(idle|mixed|allocated)"; }
is_running() { [ "$(squeue -h -j "$1" -o %T)" = RUNNING ]; }
running_only() { [ "$(squeue -h -t PD,R,CG -o %j | sort | tr '\n' ' ')" = "$1" ]; }

section "phase 1: $(date -u +%T) jobs of several sizes; two cancelled (waiting, running)"
t0=$(date +%s)
for i in 1 2 3; do sub "timeout_$i" TIMEOUT 1 1 "" "sleep 300"; done
for i in 1 2; do sub "nodefail_$i" NODE_FAIL 1 10 "" "sleep 600" --no-requeue; done
sub cancel_running CANCELLED 1 5 "" "sleep 300"
# The whole node while others run: it waits (sacct leaves out jobs that were never eligible,
# such as held ones, so this one waits for resources instead).
sub cancel_pending CANCELLED 16 5 "" "sleep 5"
sub failed FAILED 1 1 2 "sleep 2; exit 3"
sub steps COMPLETED 2 2 7 "srun -n1 sleep 3; srun -n1 sleep 4"
# shellcheck disable=SC2016  # expanded by the job's shell
sub array COMPLETED 1 2 4+k 'sleep $((4 + SLURM_ARRAY_TASK_ID))' --array=0-5
# sleep seconds, CPUs, time limit (minutes)
n=0
for spec in "5 1 1" "10 2 2" "15 4 2" "20 8 3" "30 4 5" "12 2 1" "25 1 4" "6 4 1" "18 2 3" \
  "9 8 2" "14 1 2" "7 6 1"; do
  read -r secs cpus limit <<<"$spec"
  n=$((n + 1))
  sub "sleep${secs}_c${cpus}_$n" COMPLETED "$cpus" "$limit" "$secs" "sleep $secs"
done
sub begin_later COMPLETED 1 1 5 "sleep 5" --begin=now+20
sleep 4
scancel "${JOB[cancel_pending]}"
wait_until 30 "cancel_running starts" is_running "${JOB[cancel_running]}"
sleep 3
scancel "${JOB[cancel_running]}"

section "phase 2: $(date -u +%T) after the time-outs, the node down as not responding"
wait_until 180 "only the two nodefail jobs left" running_only "nodefail_1 nodefail_2 " || true
sleep 2
outage DOWN "Not responding" 10
wait_until 30 "the node is back" node_up

# Slurm records a drain as an event once the node is drained (no job left on it), as an
# operator waits for before the maintenance.
sleep 3
section "phase 3: $(date -u +%T) the node drained for maintenance; jobs submitted meanwhile wait"
scontrol update nodename="$SLURM_HOST" state=DRAIN reason="maintenance"
d1=$(date +%s)
for spec in "5 4 1" "7 2 1" "3 1 1"; do
  read -r secs cpus limit <<<"$spec"
  n=$((n + 1))
  sub "after_sleep${secs}_c${cpus}_$n" COMPLETED "$cpus" "$limit" "$secs" "sleep $secs"
done
sleep $((d1 + 12 - $(date +%s)))
d2=$(date +%s)
scontrol update nodename="$SLURM_HOST" state=resume
record_outage DRAIN maintenance "$d1" "$d2"

section "phase 4: $(date -u +%T) one job running and one waiting at the dump"
sub running_at_dump RUNNING 1 10 "" "sleep 600"
sub pending_at_dump PENDING 16 5 "" "sleep 5"
wait_until 120 "only the jobs meant to stay are left" \
  running_only "pending_at_dump running_at_dump " || true

section "the dumps against the record"
dump_accounting "$t_begin"
check_dumps
replay_dumps "$OUT"
pass "the whole test took $(($(date +%s) - t_begin)) s (jobs from $((t0 - t_begin)) s on)"

[ "$FS_FAILED" -gt 0 ] && slurm_show_logs
finish
