#!/usr/bin/env bash
# The command line: help and version, models, check, inspect, and run's refusal to overwrite.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
JOB="$SRC/tests/data/jobs/synthetic_grid.toml"
cd "$WORK"

section "--help and --version"
for sub in "" run inspect models check; do
  label="help${sub:+_$sub}"
  # shellcheck disable=SC2086
  run_fs "$label" $sub --help
  expect_rc "faultsweep ${sub:+$sub }--help" 0 "$label"
  check "faultsweep ${sub:+$sub }--help documents exit code 75" grep -q "75 interrupted" \
    "$WORK/$label.out"
done
check "run --help documents --resume" grep -q -- "--resume" "$WORK/help_run.out"
check "run --help documents --overwrite" grep -q -- "--overwrite" "$WORK/help_run.out"
run_fs version --version
expect_rc "faultsweep --version" 0 version
check "--version prints name and a version number" grep -Eq "^faultsweep [0-9]+\.[0-9]+\.[0-9]+" \
  "$WORK/version.out"
want=$(sed -n 's/^project(faultsweep VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
check "--version prints the project's version ($want)" grep -q "^faultsweep $want " \
  "$WORK/version.out"
check "--version prints the git revision" grep -Eq "\(git ([0-9a-f]{12}|unknown), " \
  "$WORK/version.out"
run_fs nosub
expect_rc "no subcommand is a usage error" 2 nosub
run_fs badsub frobnicate
expect_rc "an unknown subcommand is a usage error" 2 badsub
run_fs badopt run "$JOB" --no-such-option
expect_rc "an unknown option is a usage error" 2 badopt

section "models"
run_fs models models
expect_rc "faultsweep models" 0 models
check "lists synthetic" grep -q "^synthetic" "$WORK/models.out"
check "shows synthetic's parameters and metrics" grep -q "sd" "$WORK/models.out"
run_fs models_one models synthetic
expect_rc "faultsweep models synthetic" 0 models_one
check "models synthetic lists its metric value" grep -Eq "^ +value +" "$WORK/models_one.out"
run_fs models_bad models no_such_model
expect_rc "faultsweep models no_such_model" 2 models_bad
check "it names the unknown model" grep -q "no_such_model" "$WORK/models_bad.err"

section "check"
run_fs check check "$JOB" --out "$WORK/grid.h5"
expect_rc "check on a valid job" 0 check
check "check prints the number of points (12)" grep -q "12 points" "$WORK/check.out"
check "check prints replicas and tasks (8, 96)" grep -q "8 replicas = 96 tasks" "$WORK/check.out"
check "check lists the axes" grep -Eq "axis +sd +4 values" "$WORK/check.out"
check "check writes no output file" test ! -e "$WORK/results"
run_fs check_nofolder check "$JOB"
expect_rc "check when the job's output folder does not exist" 2 check_nofolder
check "it names the missing folder" grep -q "the folder results does not exist" \
  "$WORK/check_nofolder.err"
run_fs check_adaptive check "$SRC/tests/data/jobs/synthetic_adaptive.toml" --out "$WORK/a.h5"
expect_rc "check on a stopping-rule job" 0 check_adaptive
check "check shows the replica range" grep -q "3..40 replicas = at most 160 tasks" \
  "$WORK/check_adaptive.out"

section "run and inspect"
run_fs run run "$JOB" --out "$WORK/grid.h5" -q
expect_rc "run -q" 0 run
check "-q prints nothing" test ! -s "$WORK/run.err" -a ! -s "$WORK/run.out"
run_fs inspect inspect "$WORK/grid.h5"
expect_rc "inspect a finished file" 0 inspect
check "inspect says COMPLETE" grep -q "COMPLETE" "$WORK/inspect.out"
check "inspect does not say INCOMPLETE" test -z "$(grep INCOMPLETE "$WORK/inspect.out" || true)"
check "inspect names the axis mean" grep -Eq "axis +mean +3 values" "$WORK/inspect.out"
check "inspect names the axis sd" grep -Eq "axis +sd +4 values" "$WORK/inspect.out"
check "inspect shows the model and the seed" grep -q "synthetic, master seed 20240601" \
  "$WORK/inspect.out"
check "inspect counts the tasks" grep -q "96 of 96 tasks done" "$WORK/inspect.out"

# An input read at every point with options that differ only by the axis (the machine's
# size) but to the same end is listed once, with what told its readings apart.
cp "$SRC/tests/data/swf/gantt6.swf" "$WORK/gantt6.swf"
cat >"$WORK/sizes.toml" <<'EOF'
[sweep]
model = "cluster"
seed = 3
output = "sizes.h5"
replicas = 1
[params]
queue = "fcfs"
allocator = "first_fit"
checkpoint = "none"
workload = { source = "swf", file = "gantt6.swf" }
failures = { process = "none" }
[axes]
nodes = [4, 6, 8]
EOF
run_fs sizes run "$WORK/sizes.toml" --out "$WORK/sizes.h5" -q
expect_rc "run a job whose points read one SWF at three machine sizes" 0 sizes
run_fs inspect_sizes inspect "$WORK/sizes.h5"
alike="^  read       .*gantt6.swf: 6 lines, 6 jobs kept (3 readings alike but for machine_nodes)$"
check "inspect lists the three alike readings once, naming the option that differs" test \
  "$(grep -c "$alike" "$WORK/inspect_sizes.out")" -eq 1 -a \
  "$(grep -c "^  read  " "$WORK/inspect_sizes.out")" -eq 1

# Without -q the run says what it does and where the output goes.
run_fs loud run "$JOB" --out "$WORK/loud.h5"
expect_rc "run without -q" 0 loud
check "it names the model and the points" grep -q "model synthetic, 12 points x 8 replicas" \
  "$WORK/loud.err"
check "it says where it wrote" grep -q "wrote $WORK/loud.h5" "$WORK/loud.err"

# sweep.output relative to the current folder, when there is no --out.
mkdir -p "$WORK/results"
run_fs default_out run "$JOB" -q
expect_rc "run to the job's own output path" 0 default_out
check "wrote results/synthetic_grid.h5 under the current folder" test -f \
  "$WORK/results/synthetic_grid.h5"

section "inspect on files that are not results"
printf 'not an HDF5 file\n' >"$WORK/plain.h5"
run_fs inspect_text inspect "$WORK/plain.h5"
check "inspect on a text file fails (exit $RC)" test "$RC" -ne 0
check "the message names the file" grep -q "error:.*$WORK/plain.h5" "$WORK/inspect_text.err"
check "exactly one error message" test "$(grep -c "error:" "$WORK/inspect_text.err")" -eq 1
check "it says why: not an HDF5 file" grep -q "file signature not found" "$WORK/inspect_text.err"
check "with the exit code for an unreadable file (3)" test "$RC" -eq 3
run_fs inspect_missing inspect "$WORK/absent.h5"
check "inspect on a missing file fails (exit $RC)" test "$RC" -ne 0
check "the message names the missing file" grep -q "$WORK/absent.h5" "$WORK/inspect_missing.err"
/usr/bin/python3 - "$WORK/foreign.h5" <<'EOF' 2>/dev/null || true
import sys, h5py
with h5py.File(sys.argv[1], "w") as f:
    f["data"] = [1.0, 2.0]
EOF
if [ -f "$WORK/foreign.h5" ]; then
  run_fs inspect_foreign inspect "$WORK/foreign.h5"
  check "inspect on another program's HDF5 fails (exit $RC)" test "$RC" -ne 0
  check "it says the file is not a faultsweep results file" grep -q \
    "not a faultsweep results file" "$WORK/inspect_foreign.err"
else
  skip "h5py not available: no foreign HDF5 file"
fi

section "inspect on a fit file"
# Three nodes with five failures each, a day apart plus the node's offset.
{
  echo "time_s,node,downtime_s"
  for i in 1 2 3 4 5; do for n in 0 1 2; do echo "$((i * 86400 + n * 3600 + i * i * 977)),$n,60"; done; done
} >"$WORK/fit_log.csv"
run_fs fit fit "$WORK/fit_log.csv" --format csv --out "$WORK/fit.h5"
expect_rc "fit writes a fit file" 0 fit
run_fs inspect_fit inspect "$WORK/fit.h5"
expect_rc "inspect on a fit file" 0 inspect_fit
check "it says it is a fit file" grep -q "faultsweep fit file" "$WORK/inspect_fit.out"
check "it names the log" grep -q "log .*fit_log.csv" "$WORK/inspect_fit.out"
check "it summarises the system (records, nodes, fits)" grep -Eq \
  "system 0: 15 records, 3 nodes \(3 fitted.*best K-S p: exponential=" "$WORK/inspect_fit.out"

section "run refuses to overwrite"
cp "$WORK/grid.h5" "$WORK/grid.before"
run_fs again run "$JOB" --out "$WORK/grid.h5" -q
expect_rc "run onto an existing output without --overwrite" 2 again
check "it says how to go on (--overwrite / --resume)" grep -q -- "--overwrite" "$WORK/again.err"
check "the existing output is untouched" cmp -s "$WORK/grid.h5" "$WORK/grid.before"
run_fs overwrite run "$JOB" --out "$WORK/grid.h5" --overwrite -q
expect_rc "run --overwrite" 0 overwrite
check "the new file is complete" test "$(attr_complete "$WORK/grid.h5")" = 1
same_results "overwritten file" "$WORK/grid.before" "$WORK/grid.h5"
mkdir -p "$WORK/outdir.h5"
run_fs outdir run "$JOB" --out "$WORK/outdir.h5" -q
expect_rc "--out naming a folder" 2 outdir
check "it names --out" grep -q -- "--out" "$WORK/outdir.err"
run_fs outmissing run "$JOB" --out "$WORK/nope/x.h5" -q
expect_rc "--out in a missing folder" 2 outmissing
check "the missing folder is not created" test ! -e "$WORK/nope"

section "check warns of settings under which jobs can hardly progress"
cat >"$WORK/noprogress.toml" <<'TOML'
[sweep]
model = "cluster"
seed = 1
output = "noprogress.h5"
replicas = 1
[params]
nodes = 64
workload = { source = "fars", jobs = 100, mean_interarrival = "100s", mean_runtime = "10h", mean_size = 4 }
failures = { process = "renewal", dist = "exponential", mean = "5min", downtime = "1min" }
checkpoint = "periodic"
checkpoint_interval = "2min"
checkpoint_cost = "5min"
[axes]
queue = ["easy", "fcfs"]
TOML
run_fs noprogress check "$WORK/noprogress.toml"
expect_rc "check of a job with hopeless settings still succeeds" 0 noprogress
check "it warns: interval not longer than the checkpoint cost" \
  grep -q "checkpoint_interval = 2min is not longer than checkpoint_cost = 5min" "$WORK/noprogress.err"
check "it warns: the machine fails far more often than jobs last" \
  grep -q "the machine fails every" "$WORK/noprogress.err"
check "each warning once, not once per point" \
  test "$(grep -c "warning:" "$WORK/noprogress.err")" = 2

section "a run that cannot progress says so in its file (/warnings, failures_truncated)"
# One wide job on 1,000 nodes of job MTBF 8.6 s: failures stop at the generation bound and the
# job then finishes failure-free. The file must say both, and keep it through merge.
cat >"$WORK/trunc.toml" <<'TOML'
[sweep]
model = "cluster"
replicas = 2
output = "trunc.h5"
[params]
nodes = 1000
checkpoint = "none"
failures = { process = "renewal", dist = "exponential", mean = "8600s", downtime = "1min" }
workload = { source = "fars", jobs = 2, mean_interarrival = "100s", mean_runtime = "1h", mean_size = 500 }
TOML
run_fs trunc run "$WORK/trunc.toml" -q
expect_rc "the run completes" 0 trunc
check "it warns on stderr that replicas were flagged" \
  grep -q "failures_truncated = 1 in 2 of 2 finished replicas" "$WORK/trunc.err"
run_fs trunc_inspect inspect "$WORK/trunc.h5"
check "inspect shows the load-time notice" \
  grep -q "^  warning    warning: the machine fails every 8.6s" "$WORK/trunc_inspect.out"
check "inspect shows the flagged replicas" \
  grep -q "^  warning    flagged replicas: warning: failures_truncated = 1 in 2 of 2" \
  "$WORK/trunc_inspect.out"
check "the metric failures_truncated is 1 for both replicas" \
  test "$(h5dump -d /results/failures_truncated "$WORK/trunc.h5" | grep -c " 1, 1")" = 1
for i in 0 1; do run_fs "trunc_s$i" run "$WORK/trunc.toml" --slice "$i/2" -q; done
run_fs trunc_merge merge "$WORK/merged.h5" "$WORK/trunc.slice-0-of-2.h5" \
  "$WORK/trunc.slice-1-of-2.h5"
expect_rc "merge of the two slices" 0 trunc_merge
run_fs merged_inspect inspect "$WORK/merged.h5"
check "the merged file keeps the notice once" \
  test "$(grep -c "warning    warning: the machine fails every" "$WORK/merged_inspect.out")" = 1
check "and recomputes the flag line over the merged replicas" \
  grep -q "failures_truncated = 1 in 2 of 2" "$WORK/merged_inspect.out"

section "synthetic: a sleep costs wall time, not CPU, and leaves the draws as they were"
printf '[sweep]\nmodel = "synthetic"\nreplicas = 4\n[params]\nwork = "1ms"\n' >"$WORK/nosleep.toml"
printf '[sweep]\nmodel = "synthetic"\nreplicas = 4\n[params]\nwork = "1ms"\nsleep = "0.3s"\n' \
  >"$WORK/sleep.toml"
run_fs nosleep run "$WORK/nosleep.toml" --out "$WORK/nosleep.h5" -q
t0=$(date +%s%N)
TIMEFORMAT='%U %S'
{ time "$FS" run "$WORK/sleep.toml" --out "$WORK/sleep.h5" -q >"$WORK/sleep.out" 2>"$WORK/sleep.err"; } \
  2>"$WORK/sleep.time" || true
wall_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
same_results "the sleeping job's draws equal the job without sleep" "$WORK/nosleep.h5" "$WORK/sleep.h5"
check "4 replicas x 0.3 s of sleep take >= 1.2 s of wall time (took ${wall_ms} ms)" \
  test "$wall_ms" -ge 1200
check "and the sleep is not CPU time ($(cat "$WORK/sleep.time" 2>/dev/null) s user, system)" \
  awk '{ exit !($1 + $2 < 1.0) }' "$WORK/sleep.time"

finish
