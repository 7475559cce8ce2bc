#!/usr/bin/env bash
# `fit` on an FTA event trace whose node names collide as LANL's do in the archive (nodes 1, 10
# and 100 of platform 20 are all "20.1"): nodes are told apart by node_id, the file records the
# log (format, size, SHA-256, node filter) and what its reader dropped, `fit` prints the drops,
# and `inspect` shows them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOG="$SRC/tests/data/failures/fta_decimal_names.tab"
attr() {  # attr FILE PATH: an HDF5 attribute's value, quotes removed
  h5dump -a "$2" "$1" 2>/dev/null | sed -n 's/^ *(0): *//p' | head -1 | tr -d '"'
}

section "platform 20: 120 node_ids under 108 names"
run_fs fit fit "$LOG" --format fta --system 20 --out "$WORK/fit.h5"
expect_rc "fit runs" 0 fit
check "120 nodes, no same-minute repeats (read by name: 108 nodes, 12 repeats)" \
  grep -q "system 20: 480 records, 120 nodes .* 0 same-minute repeats dropped" "$WORK/fit.out"
check "fit prints what the reader dropped" \
  grep -q "read .*fta_decimal_names.tab: 615 records, 480 failures on 120 nodes kept; dropped: 15 of other systems, 120 not unavailability events" \
  "$WORK/fit.out"
check "log_format = fta" test "$(attr "$WORK/fit.h5" /log_format)" = fta
check "node_filter = platform_id = 20" test "$(attr "$WORK/fit.h5" /node_filter)" = "platform_id = 20"
check "log_sha256 is the log's" test "$(attr "$WORK/fit.h5" /log_sha256)" = "$(sha256sum "$LOG" | cut -d' ' -f1)"
check "log_size_bytes is the log's" test "$(attr "$WORK/fit.h5" /log_size_bytes)" = "$(stat -c %s "$LOG")"
check "the system's drop counts: 15 of other systems" test "$(attr "$WORK/fit.h5" /system_20/read_other_system)" = 15
check "the system's drop counts: 120 not failures" test "$(attr "$WORK/fit.h5" /system_20/read_not_failure)" = 120
check "node 100's label names its node_id" \
  bash -c "h5dump -d /system_20/nodes/node_name '$WORK/fit.h5' | grep -q '20.1 (node_id 100)'"
run_fs inspect inspect "$WORK/fit.h5"
check "inspect shows the format, filter and hash" \
  grep -q "read as    fta, nodes: platform_id = 20 (.* bytes, sha256 " "$WORK/inspect.out"
check "inspect shows the system's drops" grep -q "    read     615 records, 480 failures on 120 nodes kept; dropped" "$WORK/inspect.out"

section "every platform: one system each"
run_fs all fit "$LOG" --format fta --out "$WORK/all.h5"
expect_rc "fit of every platform" 0 all
check "platform 3: 5 nodes" grep -q "system 3: 15 records, 5 nodes" "$WORK/all.out"
check "node_filter says every platform" test "$(attr "$WORK/all.h5" /node_filter)" = "every platform_id, one system each"

section "a run replays the trace by node_id"
cat >"$WORK/job.toml" <<TOML
[sweep]
model = "cluster"
replicas = 1
output = "run.h5"
[params]
nodes = 120
failures = { process = "trace", format = "fta", file = "$LOG", platform = 20 }
workload = { source = "fars", jobs = 5, mean_interarrival = "1000s", mean_runtime = "1500s", mean_size = 1 }
TOML
run_fs check check "$WORK/job.toml"
expect_rc "120 nodes suffice for the 120 node_ids" 0 check
check "the read summary says 120 nodes" grep -q "480 failures on 120 nodes kept" "$WORK/check.err"
(cd "$WORK" && "$FS" run job.toml -q 2>/dev/null)
run_fs inspect_run inspect "$WORK/run.h5"
check "inspect lists the trace's read summary once, as read (it dropped records: also a warning)" \
  test "$(grep -c "^  read  .*480 failures on 120 nodes" "$WORK/inspect_run.out")" -eq 1

section "inspect: a read summary with nothing dropped is not a warning"
printf 'time_s,node,downtime_s\n100,0,60\n5000,1,60\n' >"$WORK/trace.csv"
sed -e 's|failures = .*|failures = { process = "trace", format = "csv", file = "trace.csv" }|' \
  -e 's|^nodes = 120|nodes = 2|' "$WORK/job.toml" >"$WORK/csv.toml"
(cd "$WORK" && "$FS" run csv.toml --out csv.h5 -q 2>/dev/null)
run_fs inspect_csv inspect "$WORK/csv.h5"
check "the summary is listed as read" grep -q "^  read .*2 failures on 2 nodes kept" "$WORK/inspect_csv.out"
check "and not as a warning" test "$(grep -c "warning *read" "$WORK/inspect_csv.out")" -eq 0

finish
