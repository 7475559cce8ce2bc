#!/usr/bin/env bash
# `check` (and `run`, which loads a job the same way) estimates what a job would need and refuses
# what cannot fit, with the figure, before any file is created: the memory of a replica on a
# machine of 16,777,216 nodes (the address space the engine reserves included, which `ulimit -v`
# counts), the records a selection makes the coordinator hold, and the calls of a periodic
# runtime strategy.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cd "$WORK"
cluster() {  # cluster NODES EXTRA...: a cluster job file on stdout
  local nodes=$1
  shift
  cat <<TOML
[sweep]
model = "cluster"
replicas = ${REPLICAS:-1}
output = "out.h5"
[params]
nodes = $nodes
workload = { source = "fars", jobs = ${JOBS:-200}, mean_interarrival = "1000s", mean_runtime = "1500s", mean_size = 1 }
failures = { process = "renewal", dist = "weibull", shape = 0.7, scale = "1000w", downtime = "1h" }
$(for line in "$@"; do echo "$line"; done)
TOML
}

section "16,777,216 nodes with ras under ulimit -v 8 GB: refused by check, with the estimate"
cluster 16777216 'allocator = "ras"' >ras.toml
RC=0
(ulimit -v 8000000 && "$FS" check ras.toml) >"$WORK/ras.out" 2>"$WORK/ras.err" || RC=$?
expect_rc "check refuses it" 2 ras
check "the message gives the estimate and the limit" \
  grep -q "needs about .* GB of memory .*address-space limit" "$WORK/ras.err"
RC=0
(ulimit -v 8000000 && "$FS" run ras.toml -q) >"$WORK/ras_run.out" 2>"$WORK/ras_run.err" || RC=$?
expect_rc "run refuses it up front" 2 ras_run
check "run created no file" test ! -e out.h5 -a ! -e out.h5.journal

section "records of 2,000,000 jobs x 64 replicas x 8 points: refused with the size"
{
  JOBS=2000000 REPLICAS=64 cluster 1024 'queue = "easy"'
  echo '[axes]'
  echo 'checkpoint_cost = ["1min", "2min", "3min", "4min", "5min", "6min", "7min", "8min"]'
} >records.toml
sed -i "s|^output = \"out.h5\"|output = \"out.h5\"\nrecord = { points = \"all\", replicas = [$(seq -s, 0 63)] }|" records.toml
run_fs records check records.toml
expect_rc "check refuses the selection" 2 records
check "it names sweep.record, the tasks, the jobs and the size" \
  grep -q "sweep.record.*512 recorded tasks x 2e+06 jobs x at least [0-9]* B make at least [0-9.]* GB" \
  "$WORK/records.err"
sed -i "s|replicas = \[$(seq -s, 0 63)\]|replicas = [0]|" records.toml
run_fs records_small check records.toml
expect_rc "one replica of each point passes" 0 records_small
check "check prints the records estimate" grep -q "records    8 tasks x 2e+06 jobs: at least" \
  "$WORK/records_small.out"

section "a runtime strategy called every millisecond: refused with the count of calls"
cluster 64 'strategy = "preventive_migrate"' 'preventive = { interval = "1ms" }' >tick.toml
run_fs tick check tick.toml
expect_rc "check refuses preventive.interval = 1ms" 2 tick
check "it says how many calls over what span" grep -q "about .* calls over" "$WORK/tick.err"
cluster 64 'strategy = "preventive_migrate"' 'preventive = { interval = "10ms" }' \
  'horizon = "1d"' >tick_warn.toml
run_fs tick_warn check tick_warn.toml
expect_rc "every 10 ms over a 1-day horizon (8.6e6 calls) passes" 0 tick_warn
cluster 64 'strategy = "preventive_migrate"' 'preventive = { interval = "1ms" }' \
  'horizon = "1d"' >tick_warn2.toml
run_fs tick_warn2 check tick_warn2.toml
expect_rc "every 1 ms over a 1-day horizon (8.6e7 calls) passes" 0 tick_warn2
check "with a warning that gives the estimate" grep -q "warning: .*about 8.64e+07 calls over 1d" \
  "$WORK/tick_warn2.err"

finish
