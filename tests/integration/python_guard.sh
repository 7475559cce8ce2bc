#!/usr/bin/env bash
# What a Python policy cannot do to a run: hang it (a stop signal cuts a call that loops, on 1
# rank and through mpirun, exit 75, and --resume gives the same results; `time_limit` ends a call
# that never returns with exit 2), mix two versions of itself (every rank runs the bytes the
# results file stores, also when the file is edited while the run starts; --resume with a changed
# file is refused on 2 ranks, naming both SHA-256).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

now_ns() { date +%s%N; }

# A first-fit allocator that, when FS_TEST_SPIN is set, spins in pure Python for that many
# seconds in its first call of each replica (writing FS_TEST_MARK first): the results do not
# depend on the spin. (python_answers.sh checks the answers a policy gives.)
cat >"$WORK/spin.py" <<'PY'
import os
import time

import numpy as np

import faultsweep_policy as fp


class Spin(fp.Allocator):
    def __init__(self, params, rng):
        super().__init__(params, rng)
        self.spun = False

    def allocate(self, view, count):
        spin = float(os.environ.get("FS_TEST_SPIN", "0"))
        if spin > 0 and not self.spun:
            self.spun = True
            mark = os.environ.get("FS_TEST_MARK")
            if mark:
                open(mark, "w").close()
            end = time.monotonic() + spin
            x = 0
            while time.monotonic() < end:
                x += 1
        return np.flatnonzero(view.free)[:count]
PY
cat >"$WORK/spin.toml" <<'TOML'
[sweep]
model = "cluster"
seed = 3
replicas = 6
[params]
nodes = 16
queue = "easy"
allocator = { python = "spin.py", class = "Spin" }
workload = { source = "lublin", jobs = 60, target_load = 0.7 }
failures = { process = "renewal", dist = "exponential", mean = "2d", downtime = "1h" }
TOML

section "a policy call that loops is cut by a stop signal (exit 75, resume identical)"
run_fs ref run "$WORK/spin.toml" --out "$WORK/ref.h5" -q
expect_rc "reference run" 0 ref
# spin_stop LABEL NP SIG: a run on NP ranks whose first allocate() spins for 10 minutes; once it
# spins, SIG goes to the process (to mpirun, which forwards it, on more ranks); the run must end
# with exit 75 well before the spin would (within 10 s: a cut that does not work leaves it
# spinning) and resume to the reference's results. The aim is 2 s on an idle machine; a slower
# stop is reported, not failed: under the suite's load on 2 cores a two-rank stop through mpirun
# has taken 2.4 s.
spin_stop() {
  local label=$1 np=$2 sig=$3 t0 ms
  rm -f "$WORK/$label.mark"
  if [ "$np" -eq 1 ]; then
    FS_TEST_SPIN=600 FS_TEST_MARK="$WORK/$label.mark" \
      start_group "$label" "$FS" run "$WORK/spin.toml" --out "$WORK/$label.h5" -q
  else
    FS_TEST_SPIN=600 FS_TEST_MARK="$WORK/$label.mark" \
      start_group "$label" "${MPIRUN[@]}" -x FS_TEST_SPIN -x FS_TEST_MARK -np "$np" "$FS" run \
      "$WORK/spin.toml" --out "$WORK/$label.h5" -q
  fi
  # The mark is written inside the watched allocate() call, which then spins for 10 minutes: a
  # signal sent any time after the mark appears lands in that call, so none waits longer.
  if ! sleep_until_exists "$WORK/$label.mark" 60; then
    fail "$label: allocate() was not called within 60 s"
    kill_session "$BG_PID"
    wait_rc "$BG_PID"
    return 0
  fi
  t0=$(now_ns)
  kill "-$sig" "$BG_PID"
  # Wait at most 10 s (a cut that does not work would spin for 10 minutes).
  for _ in $(seq 1 200); do kill -0 "$BG_PID" 2>/dev/null || break; sleep 0.05; done
  ms=$((($(now_ns) - t0) / 1000000))
  if kill -0 "$BG_PID" 2>/dev/null; then
    kill_session "$BG_PID"
    wait_rc "$BG_PID"
    fail "$label: SIG$sig while allocate() loops: still running after $ms ms"
    return 0
  fi
  wait_rc "$BG_PID"
  if [ "$RC" -eq 75 ]; then
    local aim="within the 2 s aim"
    [ "$ms" -le 2000 ] || aim="over the 2 s aim (a loaded machine?)"
    pass "$label: SIG$sig while allocate() loops: exit 75 in $ms ms, $aim"
  else
    fail "$label: SIG$sig while allocate() loops: exit $RC in $ms ms (expected 75)"
    tail -3 "$WORK/$label.err" | sed 's/^/    | /'
  fi
  run_ranks "$label.resume" "$np" run "$WORK/spin.toml" --out "$WORK/$label.h5" --resume -q
  expect_rc "$label: --resume" 0 "$label.resume"
  same_results "$label: resumed = uninterrupted" "$WORK/ref.h5" "$WORK/$label.h5"
}
spin_stop term1 1 TERM
spin_stop int1 1 INT
spin_stop usr1 1 USR1
spin_stop mpi2 2 USR1

section "time_limit: a call that never returns ends the run naming the policy, method and time"
sed 's|class = "Spin" }|class = "Spin", time_limit = "1s" }|' "$WORK/spin.toml" >"$WORK/limit.toml"
t0=$(now_ns)
FS_TEST_SPIN=600 run_fs limit run "$WORK/limit.toml" --out "$WORK/limit.h5" -q
ms=$((($(now_ns) - t0) / 1000000))
expect_rc "a 1 s limit on a call that spins: exit 2 ($ms ms)" 2 limit
check "the message names the policy, the method, the limit and the simulated time" grep -Eq \
  "Python allocator Spin \(spin.py\): allocate\(\) did not return within its time limit of 1(\.0+)?s \(allocator.time_limit\) at simulated time [0-9.e+]+ s" \
  "$WORK/limit.err"
check "without the spin the 1 s limit is never reached" \
  bash -c "'$FS' run '$WORK/limit.toml' --out '$WORK/limit-ok.h5' -q"
sed 's|class = "Spin" }|class = "Spin", time_limit = "-3s" }|' "$WORK/spin.toml" >"$WORK/badlimit.toml"
run_fs badlimit check "$WORK/badlimit.toml"
expect_rc "time_limit = \"-3s\" is refused by check" 2 badlimit
check "the refusal names the key and the value" grep -q 'allocator.time_limit = "-3s"' "$WORK/badlimit.err"
printf 'import time\nimport faultsweep_policy as fp\nclass Slow(fp.Allocator):\n    def __init__(self, params, rng):\n        super().__init__(params, rng)\n        while True:\n            pass\n    def allocate(self, view, count):\n        return []\n' >"$WORK/slow_init.py"
sed 's|python = "spin.py", class = "Spin" }|python = "slow_init.py", class = "Slow", time_limit = "1s" }|' \
  "$WORK/spin.toml" >"$WORK/slow_init.toml"
run_fs slow_init check "$WORK/slow_init.toml"
expect_rc "an __init__ that never returns: check exits 2" 2 slow_init
check "naming __init__" grep -q "Slow(...) (__init__) did not return within its time limit" "$WORK/slow_init.err"

section "every rank runs the bytes the results file stores (2 ranks, file edited at the start)"
# Version 1 rewrites its own file into version 2 (a last-fit allocator) as it is imported: rank
# 0 imports it first, so a rank that read the file later would run version 2.
cat >"$WORK/edit_v1.py" <<'PY'
import time

import numpy as np

import faultsweep_policy as fp

VERSION = 1
if VERSION == 1:
    with open(__file__) as f:
        text = f.read()
    with open(__file__, "w") as f:
        f.write(text.replace("VERSION = 1", "VERSION = 2", 1))


class Edit(fp.Allocator):
    def allocate(self, view, count):
        time.sleep(0.005)  # (slow enough that rank 1 runs replicas too)
        free = np.flatnonzero(view.free)
        return free[:count] if VERSION == 1 else free[::-1][:count]
PY
sed 's|python = "spin.py", class = "Spin" }|python = "edit.py", class = "Edit" }|; s/replicas = 6/replicas = 12/' \
  "$WORK/spin.toml" >"$WORK/edit.toml"
cp "$WORK/edit_v1.py" "$WORK/edit.py"
run_fs edit1 run "$WORK/edit.toml" --out "$WORK/edit1.h5" -q
expect_rc "1 rank (version 1 throughout)" 0 edit1
check "the file on disk is version 2 now" grep -q "^VERSION = 2" "$WORK/edit.py"
cp "$WORK/edit_v1.py" "$WORK/edit.py"
V1_SHA=$(sha256sum "$WORK/edit_v1.py" | cut -c1-64)
run_mpi edit2 2 run "$WORK/edit.toml" --out "$WORK/edit2.h5" -q
expect_rc "2 ranks" 0 edit2
same_results "2 ranks = 1 rank: no replica ran the edited file" "$WORK/edit1.h5" "$WORK/edit2.h5"
check "the stored source is version 1" \
  bash -c "h5dump -a /job_file '$WORK/edit2.h5' | grep -q 'policy source edit.py sha256 $V1_SHA'"
check "/inputs records the same SHA-256" bash -c "h5dump -g /inputs '$WORK/edit2.h5' | grep -q '$V1_SHA'"

# The other ranks rebuild the bytes from the job's text: files of every shape (CRLF lines,
# blank lines, lines that are only "#", no newline at the end) come out the same.
printf 'import numpy as np\r\n\r\nimport faultsweep_policy as fp\r\n#\r\n\r\n\r\nclass Shape(fp.Allocator):\r\n    def allocate(self, view, count):\r\n        return np.flatnonzero(view.free)[:count]' \
  >"$WORK/shape.py"
sed 's|python = "edit.py", class = "Edit" }|python = "shape.py", class = "Shape" }|' "$WORK/edit.toml" >"$WORK/shape.toml"
run_mpi shape 2 run "$WORK/shape.toml" --out "$WORK/shape.h5" -q
expect_rc "2 ranks, a CRLF file without a final newline" 0 shape
check "its SHA-256 is the file's" bash -c \
  "h5dump -a /job_file '$WORK/shape.h5' | grep -q 'policy source shape.py sha256 $(sha256sum "$WORK/shape.py" | cut -c1-64)'"

section "--resume with a changed policy file is refused on 2 ranks, naming both SHA-256"
FS_TEST_SPIN=600 FS_TEST_MARK="$WORK/chg.mark" start_group chg "${MPIRUN[@]}" \
  -x FS_TEST_SPIN -x FS_TEST_MARK -np 2 "$FS" run "$WORK/spin.toml" --out "$WORK/chg.h5" -q
# Once allocate() spins (the mark), as in spin_stop.
if sleep_until_exists "$WORK/chg.mark" 60; then
  kill -USR1 "$BG_PID"
else
  fail "chg: allocate() was not called within 60 s"
  kill_session "$BG_PID"
fi
wait_rc "$BG_PID"
check "stopped (exit 75: $RC)" test "$RC" -eq 75
OLD_SHA=$(sha256sum "$WORK/spin.py" | cut -c1-64)
echo "# an edit" >>"$WORK/spin.py"
NEW_SHA=$(sha256sum "$WORK/spin.py" | cut -c1-64)
run_mpi chg.resume 2 run "$WORK/spin.toml" --out "$WORK/chg.h5" --resume -q
expect_rc "--resume on 2 ranks with a changed spin.py" 2 chg.resume
check "the refusal names both SHA-256" grep -q "policy source spin.py: sha256 $OLD_SHA -> $NEW_SHA" \
  "$WORK/chg.resume.err"

finish
