# shellcheck shell=bash
# Shared helpers of the integration tests; sourced by each script after `set -euo pipefail`.
#
# Environment (set by tests/CMakeLists.txt):
#   FAULTSWEEP_BIN         the faultsweep binary
#   FAULTSWEEP_SOURCE_DIR  the repository root
# Each script gets its own scratch folder $WORK (removed on exit) and reports every check as
# "ok - ..." or "FAIL - ...", then "N passed, M failed"; it exits non-zero if anything failed.

: "${FAULTSWEEP_BIN:?set FAULTSWEEP_BIN to the faultsweep binary}"
: "${FAULTSWEEP_SOURCE_DIR:?set FAULTSWEEP_SOURCE_DIR to the repository root}"
FS="$FAULTSWEEP_BIN"
# shellcheck disable=SC2034  # used by the scripts that source this file
SRC="$FAULTSWEEP_SOURCE_DIR"
[ -x "$FS" ] || { echo "FAIL - $FS is not an executable"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/faultsweep-it.XXXXXX")
FS_PASSED=0
FS_FAILED=0
FS_BG_PIDS=()
FS_MOUNTS=()

fs_cleanup() {
  local sid m
  # Only what this script started: the sessions of its background commands, its mounts.
  for sid in "${FS_BG_PIDS[@]}"; do kill_session "$sid"; done
  for m in "${FS_MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  rm -rf "$WORK"
}

# mount_tmpfs DIR OPTIONS: a tmpfs on DIR (made if missing; e.g. OPTIONS "size=16k" for a disk
# that fills up, "ro,size=64k" for a read-only one), unmounted on exit. False, with the reason
# in $WORK/mount.err, where mounting is not permitted (not root): the caller skips.
mount_tmpfs() {
  mkdir -p "$1"
  mount -t tmpfs -o "$2" tmpfs "$1" 2>"$WORK/mount.err" || return 1
  FS_MOUNTS+=("$1")
}
trap fs_cleanup EXIT

# MPI launcher: runs as root in containers, more ranks than cores.
MPIRUN=(mpirun --allow-run-as-root --oversubscribe)
export OMPI_MCA_rmaps_base_oversubscribe=1
# No network interfaces to probe here; keep Open MPI on the loopback and shared memory.
export OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# As the Slurm scripts run it: no second of waiting after a rank's non-zero exit (exit 75 after
# a stop; every rank has finished writing by then).
export OMPI_MCA_odls_base_sigkill_timeout=0

section() { printf '\n== %s\n' "$*"; }
pass() {
  FS_PASSED=$((FS_PASSED + 1))
  printf 'ok - %s\n' "$*"
}
fail() {
  FS_FAILED=$((FS_FAILED + 1))
  printf 'FAIL - %s\n' "$*"
}
skip() { printf 'SKIP - %s\n' "$*"; }

# check DESCRIPTION COMMAND...: passes if the command succeeds.
check() {
  local what=$1
  shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}

# Prints the tally and exits with the right status; the last line of every script.
finish() {
  printf '\n%d passed, %d failed\n' "$FS_PASSED" "$FS_FAILED"
  [ "$FS_FAILED" -eq 0 ]
}

# run_fs NAME ARGS...: runs faultsweep, stdout/stderr to $WORK/NAME.out/.err, exit code in RC.
run_fs() {
  local name=$1
  shift
  RC=0
  "$FS" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || RC=$?
}

# run_mpi NAME NP ARGS...: the same under mpirun with NP ranks.
run_mpi() {
  local name=$1 np=$2
  shift 2
  RC=0
  "${MPIRUN[@]}" -np "$np" "$FS" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || RC=$?
}

# run_ranks NAME NP ARGS...: run_fs on 1 rank (without mpirun, as a user would), else run_mpi.
run_ranks() {
  if [ "$2" -eq 1 ]; then run_fs "$1" "${@:3}"; else run_mpi "$@"; fi
}

# expect_rc WHAT EXPECTED NAME: checks RC from the last run_fs/run_mpi; shows stderr on failure.
expect_rc() {
  local what=$1 want=$2 name=$3
  if [ "$RC" -eq "$want" ]; then
    pass "$what (exit $RC)"
  else
    fail "$what: exit $RC, expected $want"
    sed 's/^/    | /' "$WORK/$name.err" | tail -20
  fi
}

# has_model NAME: true if the binary knows the model.
has_model() { "$FS" models "$1" >/dev/null 2>&1; }

# same_results WHAT A B: /results and /summary of two files are identical (h5diff, NaN == NaN).
same_results() {
  local what=$1 a=$2 b=$3 g ok=1
  for g in /results /summary; do
    if ! h5diff -r "$a" "$b" "$g" >"$WORK/h5diff.log" 2>&1; then
      ok=0
      fail "$what: $g differs between $(basename "$a") and $(basename "$b")"
      head -20 "$WORK/h5diff.log" | sed 's/^/    | /'
    fi
  done
  [ $ok -eq 1 ] && pass "$what: /results and /summary identical"
  return 0
}

# attr_complete FILE: prints the root attribute `complete` (0 or 1).
attr_complete() {
  h5dump -a /complete "$1" 2>/dev/null | sed -n 's/^ *(0): *//p' | head -1
}

# start_group NAME CMD...: starts CMD in a new session (setsid) in the background; sets BG_PID
# (also the session id). Output goes to $WORK/NAME.out/.err.
start_group() {
  local name=$1
  shift
  setsid "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  BG_PID=$!
  FS_BG_PIDS+=("$BG_PID")
}

# start_ranks NAME NP ARGS...: start_group of faultsweep ARGS on NP ranks (1: without mpirun).
start_ranks() {
  if [ "$2" -eq 1 ]; then start_group "$1" "$FS" "${@:3}"; else
    start_group "$1" "${MPIRUN[@]}" -np "$2" "$FS" "${@:3}"
  fi
}

# kill_session SID: kill -9 every process of the session, like a node that loses power. Open MPI
# puts each rank in a process group of its own, so killing mpirun's group would leave the ranks
# running (and writing the journal); they all keep the session id, though.
kill_session() {
  local pids
  pids=$(session_alive "$1")
  # A process listed may be gone by the time of the kill (its parent died of the first kill -9):
  # kill then fails, which must not end the calling script (set -e).
  # shellcheck disable=SC2086
  if [ -n "$pids" ]; then kill -9 $pids 2>/dev/null || true; fi
  return 0
}

# session_alive SID: the pids of the session that are still running (zombies are dead already:
# in a container nobody may reap them).
session_alive() {
  ps -o pid=,stat= -s "$1" 2>/dev/null | awk '$2 !~ /^Z/ { print $1 }' || true
}

# session_gone SID SECONDS: true once no process of the session is running; false if some still
# are after SECONDS (a loaded machine can take a while to end processes killed -9).
session_gone() {
  local t=0
  while [ -n "$(session_alive "$1")" ]; do
    [ $t -ge $(($2 * 20)) ] && return 1
    sleep 0.05
    t=$((t + 1))
  done
  return 0
}

# wait_rc PID: waits for a background process and sets RC to its exit status.
wait_rc() {
  RC=0
  wait "$1" || RC=$?
}

# sleep_until_exists FILE SECONDS: waits for FILE to appear (returns 1 on timeout).
sleep_until_exists() {
  local f=$1 limit=$2 t=0
  while [ ! -e "$f" ]; do
    sleep 0.05
    t=$((t + 1))
    [ $t -ge $((limit * 20)) ] && return 1
  done
  return 0
}

# fs_journal_py count FILE | wait FILE R SECONDS [PID [ALSO]] | signal SIG FILE R ...: the
# journal reader of the tests that kill a run at a point of its progress. FILE is a result
# journal (OUT.journal, in any of its layouts, sweep/journal.hpp: FSJOURNAL1, 2 with a slice, 3
# with a slice and the results version; fixed-size records of u64 task, one f64 per metric, u32
# CRC-32) or a records journal (OUT.records.journal, sweep/record_store.hpp: u64 task, u64
# length, the bytes, u32 CRC-32). Only records whose CRC matches count. `wait` and `signal` read
# what was appended since their last look, every 0.02 s, in one process (the records journal of
# a recorded run grows by megabytes).
fs_journal_py() {
  /usr/bin/python3 - "$@" <<'PY'
import os, signal, struct, sys, time, zlib

RESULTS = {b"FSJOURNAL1\n": 2, b"FSJOURNAL2\n": 3, b"FSJOURNAL3\n": 3}  # strings in the header
RECORDS = b"FSRECORDS-JOURNAL1\n"


def crc(b):
    return zlib.crc32(b) & 0xFFFFFFFF


class Journal:
    def __init__(self, path):
        self.path, self.pos, self.rec, self.tasks = path, None, None, set()

    def header(self, d):  # False while the header is not all written
        if RECORDS.startswith(d[:len(RECORDS)]) and len(d) < len(RECORDS) + 4:
            return False
        if d.startswith(RECORDS):
            if struct.unpack_from("<I", d, len(RECORDS))[0] != crc(RECORDS):
                sys.exit(f"{self.path}: the records journal's header is damaged")
            self.pos = len(RECORDS) + 4
            return True
        if len(d) < 11:
            return False
        if d[:11] not in RESULTS:
            sys.exit(f"{self.path}: not a faultsweep journal")
        pos = 11
        for _ in range(RESULTS[d[:11]]):
            if len(d) < pos + 8:
                return False
            pos += 8 + struct.unpack_from("<Q", d, pos)[0]
        pos += 4 if d[:11] == b"FSJOURNAL3\n" else 0  # the results version
        if len(d) < pos + 8:
            return False
        metrics, stored = struct.unpack_from("<II", d, pos)
        if stored != crc(d[:pos + 4]):
            sys.exit(f"{self.path}: the journal's header is damaged")
        self.pos, self.rec = pos + 8, 8 + 8 * metrics + 4
        return True

    def poll(self):  # the tasks of the intact records so far
        try:
            f = open(self.path, "rb")
        except FileNotFoundError:
            return self.tasks
        with f:
            if self.pos is None and not self.header(f.read()):
                return self.tasks
            f.seek(self.pos)
            d = f.read()
        at = 0
        if self.rec:
            while at + self.rec <= len(d):
                end = at + self.rec - 4
                if crc(d[at:end]) == struct.unpack_from("<I", d, end)[0]:
                    self.tasks.add(struct.unpack_from("<Q", d, at)[0])
                at += self.rec
        else:  # a damaged record ends what the run would resume from, as it ends the count
            view = memoryview(d)
            while len(d) - at >= 20:
                task, n = struct.unpack_from("<QQ", d, at)
                if n > len(d) - at - 20 or crc(view[at:at + 16 + n]) != struct.unpack_from(
                        "<I", d, at + 16 + n)[0]:
                    break
                self.tasks.add(task)
                at += 20 + n
        self.pos += at
        return self.tasks


def alive(pid):  # a zombie has ended
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in "ZX"
    except (FileNotFoundError, IndexError):
        return False


def session(sid):  # its live processes
    pids = []
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{d}/stat") as f:
                state, _, _, sess = f.read().rsplit(")", 1)[1].split()[:4]
        except (OSError, ValueError):
            continue
        if int(sess) == sid and state not in "ZX":
            pids.append(int(d))
    return pids


def send(name, pid):  # KILL: the whole session, as kill_session does
    sig = getattr(signal, "SIG" + name)
    for p in session(pid) + [pid] if sig == signal.SIGKILL else [pid]:
        try:
            os.kill(p, sig)
        except ProcessLookupError:
            pass


if sys.argv[1] == "count":
    print(len(Journal(sys.argv[2]).poll()))
    sys.exit(0)
args = sys.argv[3:] if sys.argv[1] == "signal" else sys.argv[2:]
path, want, limit = args[0], int(args[1]), float(args[2])
pid = int(args[3]) if len(args) > 3 and args[3] else 0
journal = Journal(path)
also = Journal(args[4]) if len(args) > 4 else None
end = time.monotonic() + limit
while True:
    ended = pid and not alive(pid)  # before the look: what it wrote before ending is seen
    tasks = journal.poll() & also.poll() if also else journal.poll()
    if len(tasks) >= want:
        code = 0
        if sys.argv[1] == "signal" and not ended:
            send(sys.argv[2], pid)
    elif ended:
        code = 2
    elif time.monotonic() > end:
        code = 1
    else:
        time.sleep(0.02)
        continue
    print(len(tasks))
    sys.exit(code)
PY
}

# journal_records FILE: the number of intact records in FILE (fs_journal_py says which files).
journal_records() { fs_journal_py count "$1"; }

# wait_for_records FILE R SECONDS [PID [ALSO]]: waits until FILE holds R intact records (with
# ALSO, a records journal: R tasks journaled in both, i.e. with their records) and returns 0;
# returns 2 as soon as PID has ended short of that (a run that completes removes its journals),
# 1 after SECONDS. Sets RECORDS to the count seen last.
wait_for_records() {
  local rc=0
  # shellcheck disable=SC2034  # used by the scripts that source this file
  RECORDS=$(fs_journal_py wait "$@") || rc=$?
  return "$rc"
}

# signal_at_records SIG FILE R SECONDS PID [ALSO]: wait_for_records, which also sends SIG (KILL,
# TERM, USR1...) to PID the moment it sees the R records: no latency of this shell's between the
# two. KILL goes to every process of PID's session, as kill_session's does (call that too, for
# processes started meanwhile).
signal_at_records() {
  local rc=0
  # shellcheck disable=SC2034  # used by the scripts that source this file
  RECORDS=$(fs_journal_py signal "$@") || rc=$?
  return "$rc"
}

# signal_mid_run LABEL SIG FILE R TOTAL PID: signal_at_records with 60 s, said as a check: a pass
# once SIG went at R (or more) of the run's TOTAL tasks; a failure if the run ended first, or if
# it got no further within 60 s (then it is killed). Returns signal_at_records' status.
signal_mid_run() {
  local label=$1 sig=$2 file=$3 want=$4 total=$5 pid=$6 st=0
  signal_at_records "$sig" "$file" "$want" 60 "$pid" || st=$?
  case $st in
    0) pass "$label: SIG$sig sent once $RECORDS of the $total tasks were journaled (>= $want)" ;;
    2) fail "$label: the run ended before $want tasks were journaled ($RECORDS)" ;;
    *)
      fail "$label: $RECORDS tasks journaled after 60 s, fewer than $want"
      kill_session "$pid"
      ;;
  esac
  return "$st"
}

# caught PID [SIG]: true once PID has a handler for SIG (default 10, SIGUSR1): a program that
# installs its handlers in main() dies of the signal before that, as any program would.
caught() {
  local mask
  mask=$(awk '/^SigCgt/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
  [ -n "$mask" ] && (((16#$mask >> (${2:-10} - 1)) & 1))
}

# The ranks' process name (what pgrep -x matches: the first 15 characters).
FS_RANK_NAME=$(basename "$FS" | cut -c1-15)

# ranks_with_handler SID SIG: how many processes of the session run faultsweep's program (the
# ranks, not the launcher) with a handler for SIG.
ranks_with_handler() {
  local n=0 pid
  for pid in $(pgrep -s "$1" -x "$FS_RANK_NAME" || true); do
    caught "$pid" "$2" && n=$((n + 1))
  done
  echo "$n"
}
