#!/usr/bin/env bash
# Policies written in Python (examples/policies/): the ports of first fit, round robin and EASY
# give /results and /summary identical to the built-in policies on golden jobs (moldable jobs,
# failure rules, checkpoints), the ports of the preventive_migrate and bucket_all strategies to
# the built-in ones (also on 2 ranks); a Python policy with random choices gives identical
# results on 1, 2 and 3 ranks and after kill -9 + --resume; a changed policy source blocks
# --resume; an exception, a refused decision (a move, a hold, a checkpoint) and a stop while
# Python code runs end the run as documented.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
POL="$SRC/examples/policies"
FF="{ python = \"$POL/first_fit.py\", class = \"FirstFit\" }"
RR="{ python = \"$POL/round_robin.py\", class = \"RoundRobin\" }"
EASY="{ python = \"$POL/easy.py\", class = \"Easy\" }"
FREE="{ python = \"$POL/free_size.py\", class = \"FreeSize\" }"

# twin NAME GOLDEN SED_CPP SED_PY: the golden job edited twice (built-in / Python), both run,
# results compared.
twin() {
  local name=$1 golden="$SRC/tests/golden/jobs/$2.toml"
  sed -e "$3" "$golden" >"$WORK/$name-cpp.toml"
  sed -e "$4" "$golden" >"$WORK/$name-py.toml"
  local v
  for v in cpp py; do
    run_fs "$name-$v" run "$WORK/$name-$v.toml" --out "$WORK/$name-$v.h5" -q
    expect_rc "$name ($v) runs" 0 "$name-$v"
  done
  same_results "$name: Python = built-in" "$WORK/$name-cpp.h5" "$WORK/$name-py.h5"
}

section "Python ports = built-in policies, bit for bit"
# Bathtub failures, 30 % moldable jobs (EASY's prefix asks the size chooser), each allocator.
ax='/^allocator = \[/d; s|^\[axes\]|allocator = '
twin bathtub-ff cluster_bathtub "$ax\"first_fit\"|" "$ax$FF|; s|^queue = .*|queue = $EASY|"
twin bathtub-rr cluster_bathtub "$ax\"round_robin\"|" "$ax$RR|; s|^queue = .*|queue = $EASY|"
# The three kinds in Python at once: the size chooser sizes the moldable jobs.
twin bathtub-all cluster_bathtub "$ax\"first_fit\"|" \
  "$ax$FF|; s|^queue = .*|queue = $EASY|; s|^moldable_size = .*|moldable_size = $FREE|"
# EASY under every failure rule and checkpoint policy (per-node Weibull failures).
twin policies cluster_policies 's|^queue = .*|queue = ["easy"]|' \
  "s|^queue = .*||; s|^\[params\]|[params]\nqueue = $EASY\nallocator = $FF|"

section "a Python policy with random choices: 1, 2, 3 ranks and kill -9 + resume identical"
cp "$POL/cool_nodes.py" "$WORK/cool.py"
cat >"$WORK/cool.toml" <<TOML
[sweep]
model = "cluster"
seed = 11
replicas = 40
[params]
nodes = 32
queue = "easy"
allocator = { python = "cool.py", class = "CoolNodes" }
workload = { source = "fars", jobs = 300, mean_interarrival = "400s", mean_runtime = "1h", mean_size = 4, target_load = 0.8 }
failures = { process = "renewal", dist = "weibull", shape = 0.7, scale = "2d", downtime = "1h" }
[axes]
"allocator.cooldown" = [3600, 86400]
TOML
run_fs cool-1 run "$WORK/cool.toml" --out "$WORK/cool-1.h5" -q
expect_rc "1 rank" 0 cool-1
for np in 2 3; do
  run_mpi "cool-$np" "$np" run "$WORK/cool.toml" --out "$WORK/cool-$np.h5" -q
  expect_rc "$np ranks" 0 "cool-$np"
  same_results "$np ranks = 1 rank" "$WORK/cool-1.h5" "$WORK/cool-$np.h5"
done
# The same policy slowed down (same decisions), so that the kill lands mid-run.
sed 's/^import numpy as np/import time\nimport numpy as np/; s/^\(        free = np.flatnonzero\)/        time.sleep(0.0002)\n\1/' \
  "$WORK/cool.py" >"$WORK/cool_slow.py"
sed 's/cool.py"/cool_slow.py"/' "$WORK/cool.toml" >"$WORK/cool_slow.toml"
start_group cool-k "$FS" run "$WORK/cool_slow.toml" --out "$WORK/cool-k.h5" -q
st=0
signal_at_records KILL "$WORK/cool-k.h5.journal" 8 60 "$BG_PID" || st=$?  # of the 80 tasks
kill_session "$BG_PID"
wait_rc "$BG_PID"
case $st in
  0) pass "killed -9 once $RECORDS of the 80 tasks were journaled (>= 8)" ;;
  2) fail "the run ended before 8 tasks were journaled: make the policy slower" ;;
  *) fail "$RECORDS tasks journaled after 60 s, fewer than 8" ;;
esac
check "killed -9 mid-run (journal left, no results file)" \
  bash -c "test -f '$WORK/cool-k.h5.journal' && ! test -f '$WORK/cool-k.h5'"
run_fs cool-r run "$WORK/cool_slow.toml" --out "$WORK/cool-k.h5" -q --resume
expect_rc "--resume after kill -9" 0 cool-r
n=$(sed -n 's/.*resuming from .*: \([0-9]*\) finished tasks.*/\1/p' "$WORK/cool-r.err")
check "the resume found the tasks journaled before the kill (${n:-none} >= 8)" test "${n:-0}" -ge 8
same_results "resumed = uninterrupted" "$WORK/cool-1.h5" "$WORK/cool-k.h5"
check "the source and its SHA-256 are stored with the job" \
  bash -c "h5dump -a /job_file '$WORK/cool-1.h5' | grep -q 'policy source cool.py sha256 $(sha256sum "$WORK/cool.py" | cut -c1-64)'"

section "a changed policy source blocks --resume"
start_group cool-c "$FS" run "$WORK/cool.toml" --out "$WORK/cool-c.h5" -q
for _ in $(seq 1 100); do [ -s "$WORK/cool-c.h5.journal" ] && break; sleep 0.05; done
kill_session "$BG_PID"
wait_rc "$BG_PID"
echo "# a change" >>"$WORK/cool.py"
run_fs cool-c2 run "$WORK/cool.toml" --out "$WORK/cool-c.h5" -q --resume
expect_rc "--resume with a changed cool.py is refused" 2 cool-c2
check "the refusal names the source" grep -q "policy source cool.py: sha256" "$WORK/cool-c2.err"

section "errors during a run: exit 4 naming the policy, the time and the rule or traceback"
# bad NAME KIND CODE REGEX: a policy whose method body is CODE; the run must fail as REGEX says.
bad() {
  local name=$1 kind=$2 body=$3 regex=$4 base method
  case $kind in
    allocator) base=Allocator method="allocate(self, view, count)" ;;
    queue) base=QueuePolicy method="select(self, view)" ;;
    *) base=SizeChooser method="choose(self, view)" ;;
  esac
  printf 'import numpy as np\nimport faultsweep_policy as fp\nclass Bad(fp.%s):\n    def %s:\n        %s\n' \
    "$base" "$method" "$body" >"$WORK/$name.py"
  cat >"$WORK/$name.toml" <<TOML
[sweep]
model = "cluster"
[params]
nodes = 16
workload = { source = "lublin", jobs = 40, target_load = 0.6, moldable = 1.0 }
failures = { process = "renewal", dist = "exponential", mean = "1d", downtime = "1h" }
$kind = { python = "$name.py", class = "Bad" }
TOML
  run_fs "$name" run "$WORK/$name.toml" --out "$WORK/$name.h5" -q
  expect_rc "$name: exit 4" 4 "$name"
  if grep -Eq "$regex" "$WORK/$name.err"; then pass "$name: message"; else
    fail "$name: message does not match /$regex/"
    sed 's/^/    | /' "$WORK/$name.err" | head -5
  fi
}
bad raises allocator 'return 1 / 0 if view.now > 7200 else np.flatnonzero(view.free)[:count]' \
  "Python allocator Bad \\(raises.py\\) raised an exception at simulated time [0-9.e+]+ s: .*raises.py:5: ZeroDivisionError"
bad twice allocator 'return [int(np.flatnonzero(view.free)[0])] * count if count > 1 else np.flatnonzero(view.free)[:1]' \
  "Python allocator Bad .* at simulated time .*: allocate\\(\\) for job [0-9]+: node [0-9]+ is given twice"
bad busy allocator 'return np.flatnonzero(~view.free)[:count] if view.free_count < view.nodes - 2 * count else np.flatnonzero(view.free)[:count]' \
  "node [0-9]+ is not free \\(it is busy, down, held or a spare\\)"
bad count allocator 'return np.flatnonzero(view.free)[:count - 1]' "returned [0-9]+ nodes for job [0-9]+, which needs"
bad unqueued queue 'return [len(view.waiting)]' \
  "Python queue Bad .*select\\(\\) returned position [0-9]+, but only positions 0 \\.\\. [0-9]+ are in the queue"
bad no_room queue 'return list(range(len(view.waiting)))' \
  "select\\(\\) starts jobs needing [0-9]+ nodes or more with [0-9]+ free \\(a job starts only on free nodes"
bad too_big moldable_size 'return view.requested + 1' \
  "Python moldable_size Bad .*choose\\(\\) returned [0-9]+ for job [0-9]+ \\(requesting [0-9]+, [0-9]+ nodes free\\): a size must be 0 \\(wait\\) or 1 \\.\\. [0-9]+"

section "Python runtime strategy = built-in preventive_migrate, bit for bit (1 and 2 ranks)"
# Spatially concentrated failures (a few nodes fail again and again): processes do move.
cat >"$WORK/pm-cpp.toml" <<TOML
[sweep]
model = "cluster"
seed = 5
replicas = 3
[params]
nodes = 48
workload = { source = "fars", jobs = 150, mean_interarrival = "10min", mean_runtime = "3h", mean_size = 8 }
failures = { process = "zhang", shape = 0.85, scale = "1h", W = 2, alpha = 0.99, downtime = "2min" }
strategy = "preventive_migrate"
preventive = { interval = "10min", window = "1h" }
TOML
# strategy_twin NAME STRATEGY TABLE PY: $WORK/NAME-cpp.toml runs the built-in STRATEGY; the same
# job with strategy = PY and without the TABLE line must give the same results, on 1 and 2 ranks.
strategy_twin() {
  local name=$1 what=$2
  sed -e "s|^strategy = .*|strategy = $4|" -e "/^$3 = /d" "$WORK/$name-cpp.toml" >"$WORK/$name-py.toml"
  run_fs "$name-cpp" run "$WORK/$name-cpp.toml" --out "$WORK/$name-cpp.h5" -q
  expect_rc "$what (C++) runs" 0 "$name-cpp"
  run_fs "$name-py" run "$WORK/$name-py.toml" --out "$WORK/$name-py.h5" -q
  expect_rc "$what (Python) runs" 0 "$name-py"
  same_results "$what: Python = built-in" "$WORK/$name-cpp.h5" "$WORK/$name-py.h5"
  run_mpi "$name-py2" 2 run "$WORK/$name-py.toml" --out "$WORK/$name-py2.h5" -q
  expect_rc "$what (Python) on 2 ranks" 0 "$name-py2"
  same_results "$what: Python on 2 ranks = built-in" "$WORK/$name-cpp.h5" "$WORK/$name-py2.h5"
}
strategy_twin pm preventive_migrate preventive \
  "{ python = \"$POL/preventive_migrate.py\", class = \"PreventiveMigrate\", interval = 600, window = 3600 }"
moves=$(/usr/bin/python3 -c "import h5py,sys; print(int(h5py.File(sys.argv[1])['results/preventive_moves'][...].sum()))" "$WORK/pm-cpp.h5")
if [ "$moves" -gt 0 ]; then pass "the job moves processes ($moves)"; else fail "no process moved"; fi
# A refused decision: a move onto a busy node.
printf '%s\n' 'import faultsweep_policy as fp' 'class Bad(fp.Strategy):' '    period = 600' \
  '    def on_tick(self, view):' '        busy = [int(j) for j in view.running if view.job(int(j)).size > 1 and view.job(int(j)).running]' \
  '        if not busy: return []' '        a, b = view.job(busy[0]).nodes[:2]' \
  '        return [fp.Move(busy[0], int(a), int(b))]' >"$WORK/bad_move.py"
sed -e "s|^strategy = .*|strategy = { python = \"bad_move.py\", class = \"Bad\" }|" \
  -e '/^preventive = /d' "$WORK/pm-cpp.toml" >"$WORK/bad_move.toml"
run_fs bad_move run "$WORK/bad_move.toml" --out "$WORK/bad_move.h5" -q
expect_rc "a refused move: exit 4" 4 bad_move
check "the refusal names the rule" grep -Eq \
  "Python strategy Bad \(bad_move.py\) at simulated time [0-9.e+]+ s: on_tick\(\) returned a decision the engine refuses: Move\([0-9]+, [0-9]+, [0-9]+, 0\): node [0-9]+ is neither idle nor spare" \
  "$WORK/bad_move.err"

# Spares held and released (job_ends); a hold that would leave the widest job no room is refused.
printf '%s\n' 'import numpy as np' 'import faultsweep_policy as fp' 'class Spare(fp.Strategy):' \
  '    period = 3600' '    job_ends = True' '    def on_tick(self, view):' \
  '        idle = np.flatnonzero(view.free)' \
  '        return [fp.Hold(int(n)) for n in idle[:2]] if view.spare_count == 0 and len(idle) > 4 else []' \
  '    def on_job_end(self, view, job):' \
  '        return [fp.Release(int(n)) for n in np.flatnonzero(view.state == 4)]' >"$WORK/spare.py"
sed -e "s|^strategy = .*|strategy = { python = \"spare.py\", class = \"Spare\" }|" \
  -e '/^preventive = /d' "$WORK/pm-cpp.toml" >"$WORK/spare.toml"
run_fs spare run "$WORK/spare.toml" --out "$WORK/spare.h5" -q
expect_rc "a hold leaving too few nodes: exit 4" 4 spare
check "the refusal names the rule" grep -Eq \
  "Hold\([0-9]+\): the spares would leave [0-9]+ nodes, fewer than the widest job needs \([0-9]+\)" \
  "$WORK/spare.err"
check "replicas whose jobs fit ran with spares" grep -q "the 2 finished tasks are saved" "$WORK/spare.err"
# on_warning: moving the process off a node a minute before it fails spares the job.
printf '%s\n' 'import numpy as np' 'import faultsweep_policy as fp' 'class Dodge(fp.Strategy):' \
  '    warning_lead = 60' '    def on_warning(self, view, node, time):' \
  '        job, idle = int(view.owner[node]), np.flatnonzero(view.free)' \
  '        if job < 0 or not view.job(job).running or len(idle) == 0: return []' \
  '        return [fp.Move(job, node, int(idle[0]), 30.0)]' >"$WORK/dodge.py"
sed -e "s|^strategy = .*|strategy = { python = \"dodge.py\", class = \"Dodge\" }|" \
  -e '/^preventive = /d' "$WORK/pm-cpp.toml" >"$WORK/dodge.toml"
sed -e '/^strategy = /d' -e '/^preventive = /d' "$WORK/pm-cpp.toml" >"$WORK/nostrat.toml"
for v in dodge nostrat; do
  run_fs "$v" run "$WORK/$v.toml" --out "$WORK/$v.h5" -q
  expect_rc "$v runs" 0 "$v"
done
check "on_warning moves processes and fewer jobs are hit" /usr/bin/python3 -c "
import h5py, sys
d, n = (h5py.File(f)['results'] for f in sys.argv[1:])
sys.exit(not (d['migrations'][...].min() > 0 and d['job_failures'][...].sum() < n['job_failures'][...].sum()))
" "$WORK/dodge.h5" "$WORK/nostrat.h5"

section "Python runtime strategy = built-in bucket_all (predictor, checkpoints), bit for bit"
# The machine above with Weibull failures and an imperfect predictor: flagged buckets make every
# running job checkpoint.
sed -e 's/^seed = 5/seed = 7/' -e 's/jobs = 150/jobs = 300/' -e 's|^strategy = .*|strategy = "bucket_all"|' \
  -e 's|^failures = .*|failures = { process = "renewal", dist = "weibull", shape = 0.7, scale = "4d", downtime = "1h" }|' \
  -e 's|^preventive = .*|zhang = { buckets = 6 }\ncheckpoint_cost = "5min"\npredictor = { precision = 0.8, recall = 0.7 }|' \
  "$WORK/pm-cpp.toml" >"$WORK/bk-cpp.toml"
strategy_twin bk bucket_all zhang \
  "{ python = \"$POL/bucket_checkpoint.py\", class = \"BucketAll\", buckets = 6 }"
check "the predictor reports and jobs checkpoint" /usr/bin/python3 -c "
import h5py, sys
r = h5py.File(sys.argv[1])['results']
sys.exit(not (r['checkpoints'][...].min() > 0 and r['predictions_true'][...].min() > 0))
" "$WORK/bk-cpp.h5"
# Refused checkpoints: the last job (not submitted yet at the first tick), a job twice, a class
# that does not declare checkpoints_jobs.
# refused NAME DECLARE RETURN REGEX
refused() {
  printf '%s\n' 'import faultsweep_policy as fp' 'class Bad(fp.Strategy):' '    period = 600' \
    "    checkpoints_jobs = $2" '    def on_tick(self, view):' "        return $3" >"$WORK/$1.py"
  sed -e "s|^strategy = .*|strategy = { python = \"$1.py\", class = \"Bad\" }|" \
    -e '/^zhang = /d' -e '/^predictor = /d' "$WORK/bk-cpp.toml" >"$WORK/$1.toml"
  run_fs "$1" run "$WORK/$1.toml" --out "$WORK/$1.h5" -q
  expect_rc "$1: exit 4" 4 "$1"
  check "$1: the refusal names the rule and the time" grep -Eq \
    "Python strategy Bad \($1.py\) at simulated time [0-9.e+]+ s: on_tick\(\) returned a decision the engine refuses: $4" \
    "$WORK/$1.err"
}
refused ckpt_queued True '[fp.Checkpoint(299)]' \
  'Checkpoint\(299\): only a running job can checkpoint \(it is not submitted yet, queued, suspended or done\)'
refused ckpt_twice True '[fp.Checkpoint(int(j)) for j in view.running] * 2' \
  'Checkpoint\([0-9]+\): a job checkpoints at most once per batch'
refused ckpt_undeclared False '[fp.Checkpoint(int(j)) for j in view.running]' \
  'Checkpoint\([0-9]+\): the class does not declare checkpoints_jobs = True'

section "SIGTERM while Python code runs stops the run (exit 75)"
# The policy leaves a mark on its first call: the run is then past its start (handlers in place)
# and in Python code most of the time.
printf 'import time\nimport numpy as np\nimport faultsweep_policy as fp\nclass Slow(fp.Allocator):\n    def allocate(self, view, count):\n        open("%s", "a").close()\n        time.sleep(0.01)\n        return np.flatnonzero(view.free)[:count]\n' \
  "$WORK/slow.mark" >"$WORK/slow.py"
sed -e 's|cool.py", class = "CoolNodes"|slow.py", class = "Slow"|' -e '/^\[axes\]/,$d' \
  "$WORK/cool.toml" >"$WORK/slow.toml"
start_group slow "$FS" run "$WORK/slow.toml" --out "$WORK/slow.h5" -q
sleep_until_exists "$WORK/slow.mark" 60 || fail "the Python allocator was not called within 60 s"
kill -TERM "$BG_PID"
t0=$(date +%s%N)
wait_rc "$BG_PID"
ms=$((($(date +%s%N) - t0) / 1000000))
if [ "$RC" -eq 75 ] && [ "$ms" -lt 5000 ]; then pass "stopped with exit 75 in $ms ms"
else fail "SIGTERM: exit $RC after $ms ms (expected 75)"; fi
finish
