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
#   SLURM_RETURN_TO_SERVICE  ReturnToService (default 2: a node set DOWN comes back as soon as
#                          slurmd answers; 0 keeps it down until `scontrol ... state=resume`)
#   SLURM_ACCOUNTING=1     with the accounting database: MariaDB (datadir and socket of its own)
#                          and slurmdbd are started first, slurm.conf says
#                          AccountingStorageType=accounting_storage/slurmdbd and the cluster is
#                          added with sacctmgr, so sacct and `sacctmgr show event` answer
# After it: SLURM_CONF is exported, SLURM_HOST is the node's name, SLURM_BASE_PORT the first of
# the ports the cluster uses (SlurmctldPort; then SlurmdPort, DbdPort and MariaDB's port).
# The EXIT trap (slurm_cleanup) cancels the jobs, stops the daemons and then removes $WORK.

SLURM_DIR="$WORK/slurm"
SLURM_DAEMONS=()
SLURM_HOST=$(hostname -s)
# Ports of our own, far from the defaults, so that a second test or a real Slurm on the same
# machine does not collide with this one.
SLURM_BASE_PORT=$((20000 + $$ % 20000))
SLURM_LOGS=(slurmctld.log slurmd.log slurmctld.out slurmd.out munged.log)
SLURM_ACCOUNTING=${SLURM_ACCOUNTING:-0}

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
$(slurm_accounting_lines)
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=${SLURM_RETURN_TO_SERVICE:-2}
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

# With slurmdbd, AccountingStoragePass names the munge socket that clients and slurmctld use
# to reach it (AuthInfo covers only the cluster's own messages).
slurm_accounting_lines() {
  if [ "$SLURM_ACCOUNTING" = 1 ]; then
    printf '%s\n' "AccountingStorageType=accounting_storage/slurmdbd" \
      "AccountingStorageHost=$SLURM_HOST" "AccountingStoragePort=$((SLURM_BASE_PORT + 2))" \
      "AccountingStoragePass=$SLURM_DIR/run/munge.sock"
  else
    echo "AccountingStorageType=accounting_storage/none"
  fi
}

slurm_cluster_start() {
  slurm_start_munge
  slurm_write_conf
  export SLURM_CONF="$SLURM_DIR/slurm.conf"
  if [ "$SLURM_ACCOUNTING" = 1 ]; then
    slurm_start_accounting || return 1
  fi
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

# --- the accounting database ------------------------------------------------------------------
SLURM_DB_SOCK="$SLURM_DIR/mysql/mysql.sock"
SLURM_DB_PASS="fstest-$$"

slurm_sql() { mariadb --no-defaults --socket="$SLURM_DB_SOCK" -uroot "$@"; }

# MariaDB on a datadir, a socket and a loopback port of its own (the machine's own server, if
# any, is not touched), with a user for slurmdbd, then slurmdbd and the cluster's record.
slurm_start_accounting() {
  local db="$SLURM_DIR/mysql" dbport=$((SLURM_BASE_PORT + 3)) d=$SLURM_DIR
  SLURM_LOGS+=(mariadbd.log slurmdbd.log slurmdbd.out sacctmgr_probe.out)
  mkdir -p "$db/data"
  if ! mariadb-install-db --no-defaults --datadir="$db/data" --user=root \
    --auth-root-authentication-method=socket >"$d/mariadb-install.log" 2>&1; then
    fail "mariadb-install-db could not make a datadir"
    slurm_show_logs
    return 1
  fi
  # slurmdbd warns below these; a small buffer pool keeps the test light.
  slurm_daemon mariadbd mariadbd --no-defaults --datadir="$db/data" --socket="$SLURM_DB_SOCK" \
    --port="$dbport" --bind-address=127.0.0.1 --pid-file="$db/mariadbd.pid" --user=root \
    --log-error="$d/mariadbd.log" --innodb-buffer-pool-size=64M \
    --innodb-lock-wait-timeout=900 --innodb-log-file-size=64M
  local up=0
  for _ in $(seq 60); do
    if slurm_sql -e 'select 1' >/dev/null 2>&1; then up=1; break; fi
    sleep 0.5
  done
  if [ $up -ne 1 ]; then
    fail "MariaDB did not come up within 30 s"
    slurm_show_logs
    return 1
  fi
  slurm_sql -e "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$SLURM_DB_PASS';
    GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';"
  pass "MariaDB is up (socket $SLURM_DB_SOCK, port $dbport)"

  # slurmdbd reads slurmdbd.conf beside $SLURM_CONF; it must be private to SlurmUser.
  cat >"$d/slurmdbd.conf" <<CONF
AuthType=auth/munge
AuthInfo=socket=$d/run/munge.sock
DbdHost=$SLURM_HOST
DbdPort=$((SLURM_BASE_PORT + 2))
SlurmUser=root
LogFile=$d/slurmdbd.log
PidFile=$d/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$dbport
StorageUser=slurm
StoragePass=$SLURM_DB_PASS
StorageLoc=slurm_acct_db
CONF
  chmod 600 "$d/slurmdbd.conf"
  slurm_daemon slurmdbd slurmdbd -D
  up=0
  for _ in $(seq 60); do
    if sacctmgr -n show cluster >"$d/sacctmgr_probe.out" 2>&1; then up=1; break; fi
    sleep 0.5
  done
  if [ $up -ne 1 ]; then
    fail "slurmdbd did not answer within 30 s"
    slurm_show_logs
    return 1
  fi
  # slurmctld registers with the database only as a cluster the database knows.
  if ! sacctmgr -i add cluster fstest >"$d/sacctmgr_add.out" 2>&1; then
    fail "sacctmgr could not add the cluster"
    cat "$d/sacctmgr_add.out"
    return 1
  fi
  pass "slurmdbd is up and knows the cluster fstest"
}
