#!/usr/bin/env bash
# Results depend only on (point, replica, master seed): the same sweep on 1, 2 and 3 ranks gives
# identical /results and /summary (DESIGN §1, §6), also when a stopping rule decides how many
# replicas each point gets.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
JOBS="$SRC/tests/data/jobs"

# sweep_on_ranks LABEL JOB: runs JOB on 1, 2 and 3 ranks into $WORK/LABEL.np{1,2,3}.h5 and compares.
sweep_on_ranks() {
  local label=$1 job=$2 np
  section "$label: $(basename "$job") on 1, 2 and 3 ranks"
  run_fs "$label.np1" run "$job" --out "$WORK/$label.np1.h5" -q
  expect_rc "$label on 1 rank (no mpirun)" 0 "$label.np1"
  for np in 2 3; do
    run_mpi "$label.np$np" "$np" run "$job" --out "$WORK/$label.np$np.h5" -q
    expect_rc "$label on $np ranks (mpirun)" 0 "$label.np$np"
  done
  for np in 2 3; do
    [ -f "$WORK/$label.np$np.h5" ] || { fail "$label: no output on $np ranks"; continue; }
    same_results "$label: 1 rank vs $np ranks" "$WORK/$label.np1.h5" "$WORK/$label.np$np.h5"
  done
  check "$label: no journal left behind" test ! -e "$WORK/$label.np1.h5.journal" -a \
    ! -e "$WORK/$label.np3.h5.journal"
}

sweep_on_ranks synthetic "$JOBS/synthetic_grid.toml"

# The comparison must be able to fail: another seed gives other numbers.
section "synthetic: the comparison detects a different seed"
sed 's/^seed = .*/seed = 1/' "$JOBS/synthetic_grid.toml" >"$WORK/other_seed.toml"
run_fs other run "$WORK/other_seed.toml" --out "$WORK/other_seed.h5" -q
expect_rc "synthetic with seed 1" 0 other
if h5diff -q "$WORK/synthetic.np1.h5" "$WORK/other_seed.h5" /results/value >/dev/null 2>&1; then
  fail "h5diff sees no difference between seeds 20240601 and 1"
else
  pass "h5diff reports differences between two seeds"
fi

# A stopping rule: the number of replicas per point is decided from finished rounds only, so the
# same on any number of ranks.
section "adaptive: stopping rule on 1 and 3 ranks"
run_fs adaptive.np1 run "$JOBS/synthetic_adaptive.toml" --out "$WORK/adaptive.np1.h5" -q
expect_rc "stopping-rule sweep on 1 rank" 0 adaptive.np1
run_mpi adaptive.np3 3 run "$JOBS/synthetic_adaptive.toml" --out "$WORK/adaptive.np3.h5" -q
expect_rc "stopping-rule sweep on 3 ranks" 0 adaptive.np3
if [ -f "$WORK/adaptive.np1.h5" ] && [ -f "$WORK/adaptive.np3.h5" ]; then
  same_results "adaptive: 1 rank vs 3 ranks" "$WORK/adaptive.np1.h5" "$WORK/adaptive.np3.h5"
  # The rule did something: the narrowest point stopped early, the widest reached max = 40.
  n=$(h5dump -d /summary/value/n -y -w 0 "$WORK/adaptive.np1.h5" | sed -n 's/^ *\([0-9, .]*\)$/\1/p' |
    tr -d ' ' | tr '\n' ',' | sed 's/,,*/,/g; s/^,//; s/,$//')
  first=${n%%,*}
  last=${n##*,}
  if [ "${first%.*}" -lt 40 ] && [ "${last%.*}" -eq 40 ]; then
    pass "adaptive: replicas per point vary ($n)"
  else
    fail "adaptive: replicas per point are $n; expected fewer than 40 first, 40 last"
  fi
fi

# A cluster job reading a failure trace with bad records: the same results on 1-3 ranks, and its
# reader notes said once, not once per rank (core/notice.hpp: only rank 0 says them at load).
sweep_on_ranks cluster_trace "$SRC/tests/golden/jobs/cluster_trace.toml"
for np in 1 3; do
  err="$WORK/cluster_trace.np$np.err"
  n_read=$(grep -c '^read .*trace_small.csv: 7 records' "$err" || true)
  n_warn=$(grep -c 'trace_small.csv: 3 bad record(s) skipped' "$err" || true)
  if [ "$n_read" = 1 ] && [ "$n_warn" = 1 ]; then
    pass "cluster_trace on $np rank(s): the reader's summary and warning said once each"
  else
    fail "cluster_trace on $np rank(s): summary said $n_read times, warning $n_warn times (expected 1, 1)"
  fi
done

# Many tiny tasks: batches of thousands of tasks go out while reports of thousands come back, so
# an assignment and a report, both too large to be sent without a matching receive, cross. The
# coordinator must not wait for its send to complete while the worker waits for its own: the
# sweep finishes, within a time limit, with the results of one rank.
section "many tiny tasks: large batches and large reports cross"
printf '[sweep]\nmodel = "synthetic"\nseed = 7\nreplicas = 200000\n[params]\nwork = "0s"\n' \
  >"$WORK/tiny.toml"
run_fs tiny.np1 run "$WORK/tiny.toml" --out "$WORK/tiny.np1.h5" -q
expect_rc "200,000 tiny tasks on 1 rank" 0 tiny.np1
RC=0
timeout -k 10 120 "${MPIRUN[@]}" -np 2 "$FS" run "$WORK/tiny.toml" --out "$WORK/tiny.np2.h5" \
  -q >"$WORK/tiny.np2.out" 2>"$WORK/tiny.np2.err" || RC=$?
pkill -KILL -f "$WORK/tiny.toml" || true  # ranks a stuck mpirun left behind
expect_rc "200,000 tiny tasks on 2 ranks, within 120 s" 0 tiny.np2
[ -f "$WORK/tiny.np2.h5" ] && same_results "tiny tasks: 1 rank vs 2 ranks" "$WORK/tiny.np1.h5" \
  "$WORK/tiny.np2.h5"

if has_model checkpoint_sim; then
  sweep_on_ranks checkpoint_sim "$JOBS/checkpoint_small.toml"
else
  section "checkpoint_sim"
  skip "checkpoint_sim is not registered in this build (faultsweep models checkpoint_sim fails)"
fi

finish
