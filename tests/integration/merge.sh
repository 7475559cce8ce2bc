#!/usr/bin/env bash
# `faultsweep merge OUT IN...`: the union of the finished tasks of files of one job (partial
# files of interrupted runs, slices, complete files); refuses files of other jobs and tasks that
# disagree; OUT is written atomically and is complete only when nothing is left to run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cat >"$WORK/job.toml" <<'TOML'
[sweep]
model = "synthetic"
seed = 5
replicas = 10
[params]
work = "20ms"
[axes]
mean = { linear = [0, 1], n = 12 }
TOML

section "two interrupted runs of one job"
run_fs ref run "$WORK/job.toml" --out "$WORK/ref.h5" -q
expect_rc "reference run" 0 ref
start_group a "$FS" run "$WORK/job.toml" --out "$WORK/a.h5" -q
# SIGTERM the moment a's journal holds 20 of the 120 tasks of 20 ms (a sixth of its 2.4 s on an
# idle machine): a partial file with tasks of both slices, however loaded the machine.
signal_mid_run "run a" TERM "$WORK/a.h5.journal" 20 120 "$BG_PID" || true
wait_rc "$BG_PID"
expect_rc "run a stopped by SIGTERM" 75 a
run_fs b run "$WORK/job.toml" --slice 1/2 --out "$WORK/b.h5" -q
expect_rc "slice 1/2 as file b" 0 b
run_fs m1 merge "$WORK/m1.h5" "$WORK/a.h5" "$WORK/b.h5"
expect_rc "merge of a partial file and a slice (overlapping tasks agree)" 0 m1
check "it says how many tasks are done" grep -q "of 120 tasks done" "$WORK/m1.err"
run_fs c run "$WORK/job.toml" --slice 0/2 --out "$WORK/c.h5" -q
run_fs m2 merge "$WORK/m2.h5" "$WORK/m1.h5" "$WORK/c.h5"
expect_rc "merge of the merged file and the other slice" 0 m2
check "now complete = 1" test "$(attr_complete "$WORK/m2.h5")" = 1
same_results "merged vs one run" "$WORK/ref.h5" "$WORK/m2.h5"
check "no temporary files left" test -z "$(find "$WORK" -name '*.tmp.*')"

section "refusals"
run_fs exists merge "$WORK/m2.h5" "$WORK/c.h5"
expect_rc "an existing OUT without --overwrite" 2 exists
sed 's/^seed = 5$/seed = 6/' "$WORK/job.toml" >"$WORK/other.toml"
run_fs other run "$WORK/other.toml" --slice 0/2 --out "$WORK/other.h5" -q
run_fs diff merge "$WORK/x.h5" "$WORK/b.h5" "$WORK/other.h5"
expect_rc "files of different jobs" 2 diff
check "the refusal says they are different jobs and names seed" \
  grep -q "different jobs" "$WORK/diff.err"
check "... and names the changed key" grep -q "seed" "$WORK/diff.err"
cp "$WORK/c.h5" "$WORK/tampered.h5"
/usr/bin/python3 - "$WORK/tampered.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r+") as f:
    d = f["/results/value"]
    v = d[...]
    i = np.argwhere(f["/results/done"][...] == 1)[0]
    v[tuple(i)] = np.nextafter(v[tuple(i)], np.inf)
    d[...] = v
PY
run_fs tam merge "$WORK/x.h5" "$WORK/c.h5" "$WORK/tampered.h5"
expect_rc "a task whose bits differ between two files" 2 tam
check "the refusal names the task and both files" grep -q "differs between .*c.h5 and .*tampered.h5" \
  "$WORK/tam.err"
check "nothing was written" test ! -e "$WORK/x.h5"
run_fs nofile merge "$WORK/x.h5" "$WORK/absent.h5"
expect_rc "a missing input" 3 nofile

finish
