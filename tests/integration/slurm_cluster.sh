# shellcheck shell=bash
# A single-node Slurm cluster from Debian's packages for the integration tests; sourced after
# lib.sh. Everything (munge key and socket, slurm.conf, state, logs) lives under $SLURM_DIR in
# the test's scratch folder, and every daemon is started by the test as root in a session of its
# own, so the test leaves nothing behind on the machine.
#
#   slurm_install CMD=PACKAGE...   apt-get installs the packages of the commands that are missing;
#                                  returns 1 (after showing the apt log) if that fails
#   slurm_cluster_start            munged, slurm.conf, slurmctld and slurmd; waits until the node
#                                  is up; returns 1 (after showing the logs) if it does not come up
#   slurm_show_logs                the tails of the daemons' logs
#
# Set before slurm_cluster_start (all optional):
#   SLURM_NODE_LINE        the NodeName line (default: what `slurmd -C` reports)
#   SLURM_PARTITION_OPTS   more options for the partition line (e.g. OverSubscribe=FORCE:4)
#   SLURM_CONF_EXTRA       more lines for slurm.conf
# After it: SLURM_CONF is exported, SLURM_HOST is the node's name, SLURM_BASE_PORT the first of
# the ports the cluster uses (SlurmctldPort; SlurmdPort is the next one).
# The EXIT trap (slurm_cleanup) cancels the jobs, stops the daemons and then removes $WORK.

SLURM_DIR="$WORK/slurm"
SLURM_DAEMONS=()
SLURM_HOST=$(hostname -s)
# Ports of our own, far from the defaults, so that a second test or a real Slurm on the same
# machine does not collide with this one.
SLURM_BASE_PORT=$((20000 + $$ % 20000))
SLURM_LOGS=(slurmctld.log slurmd.log slurmctld.out slurmd.out munged.log)

slurm_install() {
  local pair missing=()
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null || missing+=("${pair#*=}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing ${missing[*]} with apt-get"
  if ! (export DEBIAN_FRONTEND=noninteractive && apt-get update -qq &&
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$WORK/apt.log" 2>&1); then
    tail -5 "$WORK/apt.log" 2>/dev/null || true
    return 1
  fi
}

slurm_cleanup() {
  set +e
  if [ -n "${SLURM_CONF:-}" ] && [ -e "$SLURM_DIR/slurmctld.pid" ]; then
    scancel --full -u root >/dev/null 2>&1
    sleep 1
  fi
  local pid i
  # Reverse order: slurmd and slurmctld before the database and munged they talk to.
  for ((i = ${#SLURM_DAEMONS[@]} - 1; i >= 0; i--)); do
    kill -TERM "${SLURM_DAEMONS[i]}" 2>/dev/null
  done
  sleep 1
  for pid in "${SLURM_DAEMONS[@]}"; do kill_session "$pid"; done
  fs_cleanup
}
trap slurm_cleanup EXIT

# slurm_daemon NAME CMD...: starts CMD in a session of its own, output to $SLURM_DIR/NAME.out.
slurm_daemon() {
  local name=$1
  shift
  setsid "$@" >"$SLURM_DIR/$name.out" 2>&1 &
  SLURM_DAEMONS+=($!)
}

slurm_show_logs() {
  local f
  for f in "${SLURM_LOGS[@]}"; do
    echo "    --- $f"
    tail -15 "$SLURM_DIR/$f" 2>/dev/null | sed 's/^/    | /'
  done
}

# munged with a key of its own on a socket of its own.
slurm_start_munge() {
  mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool" "$SLURM_DIR/run"
  chmod 700 "$SLURM_DIR"
  dd if=/dev/urandom of="$SLURM_DIR/munge.key" bs=1024 count=1 status=none
  chmod 400 "$SLURM_DIR/munge.key"
  slurm_daemon munged munged -F --force --key-file="$SLURM_DIR/munge.key" \
    --socket="$SLURM_DIR/run/munge.sock" --pid-file="$SLURM_DIR/run/munged.pid" \
    --log-file="$SLURM_DIR/munged.log" --seed-file="$SLURM_DIR/munge.seed"
  for _ in $(seq 100); do [ -S "$SLURM_DIR/run/munge.sock" ] && break; sleep 0.1; done
  check "munged is up (socket $SLURM_DIR/run/munge.sock)" test -S "$SLURM_DIR/run/munge.sock"
}

slurm_write_conf() {
  local node_line=${SLURM_NODE_LINE:-$(slurmd -C | head -1)}
  local d=$SLURM_DIR base=$SLURM_BASE_PORT
  cat >"$d/slurm.conf" <<CONF
ClusterName=fstest
SlurmctldHost=$SLURM_HOST
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/run/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=900
KillWait=10
InactiveLimit=0
Waittime=0
${SLURM_CONF_EXTRA:-}
$node_line State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP ${SLURM_PARTITION_OPTS:-}
CONF
  SLURM_NODE_LINE=$node_line
}

slurm_cluster_start() {
  slurm_start_munge
  slurm_write_conf
  export SLURM_CONF="$SLURM_DIR/slurm.conf"
  slurm_daemon slurmctld slurmctld -D -c -i
  slurm_daemon slurmd slurmd -D
  local up=0
  for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -q -E '^(idle|mixed|allocated)'; then up=1; break; fi
    sleep 1
  done
  if [ $up -eq 1 ]; then
    pass "slurmctld and slurmd are up; node: $SLURM_NODE_LINE"
    return 0
  fi
  fail "the node did not come up within 60 s"
  slurm_show_logs
  return 1
}
