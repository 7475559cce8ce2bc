#!/usr/bin/env bash
# A Python policy's errors told apart from the engine's and the environment's: answers the
# engine cannot read (floats, 2**70, booleans, in every policy kind and in a strategy's
# decisions) are refused naming the value; answers that are each legal but never let a job
# start (a queue policy that starts nothing, a size chooser that always waits) end the run naming
# the policy and what it answered, not as a bug of faultsweep; a policy path with non-ASCII
# characters works under LANG=C.UTF-8 and LANG=C; a PYTHONHOME without a standard library and a
# broken numpy are environment errors (exit 3, one line).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# policy NAME KIND BODY: $WORK/NAME.py, a class Bad of KIND whose method returns BODY, and
# $WORK/NAME.toml running it (16 nodes, no failures: nothing else ends a stall).
policy() {
  local name=$1 kind=$2 body=$3 base method
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
replicas = 2
[params]
nodes = 16
workload = { source = "lublin", jobs = 40, target_load = 0.6, moldable = 1.0 }
failures = { process = "none" }
$kind = { python = "$name.py", class = "Bad" }
TOML
}

# answer NAME KIND BODY CODE REGEX: the run ends with exit CODE and a message matching REGEX,
# and never calls itself a bug.
answer() {
  local name=$1
  policy "$name" "$2" "$3"
  run_fs "$name" run "$WORK/$name.toml" --out "$WORK/$name.h5" -q
  expect_rc "$name: exit $4" "$4" "$name"
  if grep -Eq "$5" "$WORK/$name.err"; then pass "$name: message"; else
    fail "$name: message does not match /$5/"
    sed 's/^/    | /' "$WORK/$name.err" | head -5
  fi
  check "$name: not reported as a bug" bash -c "! grep -q 'a bug in faultsweep' '$WORK/$name.err'"
}

section "answers the engine cannot read are refused with the value"
answer float_ids allocator 'return [float(n) for n in np.flatnonzero(view.free)[:count]]' 4 \
  "Python allocator Bad \(float_ids.py\) at simulated time .*: allocate\(\) returned [0-9]+\.0 \(float\), which is not an integer"
answer float_array allocator 'return np.flatnonzero(view.free)[:count].astype(float)' 4 \
  "allocate\(\) returned [0-9]+\.0 \(float(64)?\), which is not an integer"
answer huge_id allocator 'return [2**70] + list(np.flatnonzero(view.free)[1:count])' 4 \
  "allocate\(\) returned 1180591620717411303424, which is out of range"
answer bool_ids allocator 'return [True] * count' 4 "allocate\(\) returned True \(bool\), which is not an integer"
answer dup_ids allocator 'return [int(np.flatnonzero(view.free)[0])] * count if count > 1 else np.flatnonzero(view.free)[:1]' 4 \
  "allocate\(\) for job [0-9]+: node [0-9]+ is given twice"
answer float_pos queue 'return [0.0] if view.sizes[0] <= view.free_nodes else []' 4 \
  "select\(\) returned 0\.0 \(float\), which is not an integer"
answer huge_pos queue 'return [2**64]' 4 "select\(\) returned 18446744073709551616, which is out of range"
answer float_size moldable_size 'return float(min(view.requested, view.free_nodes))' 4 \
  "choose\(\) for job [0-9]+ returned [0-9]+\.0 \(float\), which is not an integer"
answer huge_size moldable_size 'return 2**70' 4 "choose\(\) for job [0-9]+ returned 1180591620717411303424, which is out of range"

# A strategy's Hold of node 2.5: refused, not truncated to node 2.
printf '%s\n' 'import faultsweep_policy as fp' 'class Bad(fp.Strategy):' '    period = 600' \
  '    def on_tick(self, view):' '        return [fp.Hold(2.5)]' >"$WORK/hold.py"
sed 's|^allocator = .*|strategy = { python = "hold.py", class = "Bad" }|' "$WORK/float_ids.toml" >"$WORK/hold.toml"
run_fs hold run "$WORK/hold.toml" --out "$WORK/hold.h5" -q
expect_rc "Hold(2.5): exit 4" 4 hold
check "Hold(2.5): refused naming the value" grep -q \
  "on_tick() returned Hold(2.5) in its list: 2.5 (float), which is not an integer" "$WORK/hold.err"

section "legal answers that never let a job start name the policy, not the engine"
answer never queue 'return []' 4 \
  "the queue policy python:Bad started none of the [0-9]+ waiting jobs \(its select\(\) at simulated time [0-9.e+]+ s answered no position\) with 16 of 16 nodes free, although job [0-9]+ \(size [0-9]+\) fits"
answer waits moldable_size 'return 0' 4 \
  "the moldable size chooser python:Bad answered 0 \(wait\) for job [0-9]+ \(requesting [0-9]+ nodes\) with 16 of 16 nodes free"

section "a policy path with non-ASCII characters (LANG=C.UTF-8 and LANG=C)"
mkdir -p "$WORK/pölicies"
policy ok allocator 'return np.flatnonzero(view.free)[:count]'
cp "$WORK/ok.py" "$WORK/pölicies/ünïcode_ä.py"
sed 's|python = "ok.py"|python = "pölicies/ünïcode_ä.py"|' "$WORK/ok.toml" >"$WORK/ünï.toml"
for lang in C.UTF-8 C; do
  RC=0
  env -u LC_ALL -u LC_CTYPE LANG=$lang "$FS" run "$WORK/ünï.toml" --out "$WORK/uni-$lang.h5" -q \
    >"$WORK/uni-$lang.out" 2>"$WORK/uni-$lang.err" || RC=$?
  expect_rc "LANG=$lang: the policy in pölicies/ünïcode_ä.py runs" 0 "uni-$lang"
done
run_fs ok run "$WORK/ok.toml" --out "$WORK/ok.h5" -q
same_results "non-ASCII path = ASCII path" "$WORK/ok.h5" "$WORK/uni-C.h5"

section "a broken Python installation is an environment error (exit 3, one line)"
RC=0
PYTHONHOME=/nonexistent/python "$FS" run "$WORK/ok.toml" --out "$WORK/home.h5" -q \
  >"$WORK/home.out" 2>"$WORK/home.err" || RC=$?
expect_rc "PYTHONHOME=/nonexistent/python: exit 3" 3 home
check "one line naming PYTHONHOME" bash -c \
  "[ \$(wc -l <'$WORK/home.err') -eq 1 ] && grep -q 'PYTHONHOME=/nonexistent/python holds no Python' '$WORK/home.err'"
check "no output file" test ! -e "$WORK/home.h5"
mkdir -p "$WORK/fake/numpy"
echo 'raise ImportError("this numpy is broken")' >"$WORK/fake/numpy/__init__.py"
RC=0
PYTHONPATH="$WORK/fake" "$FS" check "$WORK/ok.toml" >"$WORK/numpy.out" 2>"$WORK/numpy.err" || RC=$?
expect_rc "a broken numpy: check exits 3" 3 numpy
check "one line naming the import error" bash -c \
  "[ \$(wc -l <'$WORK/numpy.err') -eq 1 ] && grep -q 'cannot load the policy API from .*this numpy is broken' '$WORK/numpy.err'"

finish
