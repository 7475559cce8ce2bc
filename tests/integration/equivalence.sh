#!/usr/bin/env bash
# The results-version gate: every results file says which version of the numbers it holds;
# `run --resume` and `merge` refuse to mix two versions (exit 2, naming both); and
# scripts/equivalence.sh, the check a change must pass before it raises the version, passes a
# build against itself and fails on a file moved beyond relative 1e-12, a count changed by one,
# a schedule changed, or a NaN where there was none.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cat >"$WORK/job.toml" <<'TOML'
[sweep]
model = "synthetic"
seed = 11
replicas = 4
[params]
work = "0ms"
[axes]
mean = { linear = [0, 1], n = 6 }
TOML
setattr() {  # FILE NAME VALUE: an int64 root attribute
  /usr/bin/python3 -c 'import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r+") as f: f.attrs[sys.argv[2]] = np.int64(sys.argv[3])' "$@"
}

section "results_version in every file; resume and merge refuse another version"
# The version this build computes (sweep/results_version.hpp), and another one.
V=$(sed -n 's/^inline constexpr std::int64_t kResultsVersion = \([0-9]*\);/\1/p' \
  "$SRC/include/faultsweep/sweep/results_version.hpp")
OTHER=$((V + 1))
check "the build's results version is read from its header" test -n "$V"
run_fs whole run "$WORK/job.toml" --out "$WORK/whole.h5" -q
expect_rc "a run" 0 whole
run_fs insp inspect "$WORK/whole.h5"
check "inspect names the results version ($V)" grep -q "results version $V)" "$WORK/insp.out"
check "the root attribute results_version is $V" test "$(h5dump -a /results_version \
  "$WORK/whole.h5" | sed -n 's/^ *(0): *//p')" = "$V"
run_fs s0 run "$WORK/job.toml" --slice 0/2 --out "$WORK/s0.h5" -q
run_fs s1 run "$WORK/job.toml" --slice 1/2 --out "$WORK/s1.h5" -q
setattr "$WORK/s1.h5" results_version "$OTHER"
run_fs mix merge "$WORK/m.h5" "$WORK/s0.h5" "$WORK/s1.h5"
expect_rc "merge of version $V and version $OTHER files is refused" 2 mix
check "the refusal names both versions in one line" \
  grep -q "results_version $OTHER.*results_version $V" "$WORK/mix.err"
check "and writes nothing" test ! -e "$WORK/m.h5"
run_fs res run "$WORK/job.toml" --slice 1/2 --out "$WORK/s1.h5" --resume -q
expect_rc "--resume of a partial file of version $OTHER is refused" 2 res
check "the refusal names both versions" \
  grep -q "results_version $OTHER, and this faultsweep computes results_version $V" "$WORK/res.err"

section "scripts/equivalence.sh"
RC=0
bash "$SRC/scripts/equivalence.sh" "$FS" "$FS" --golden-only >"$WORK/eq.out" 2>"$WORK/eq.err" || RC=$?
expect_rc "a build against itself on every golden job" 0 eq
check "every golden job compared, none skipped" \
  grep -qE "equivalence: $(ls "$SRC"/tests/golden/jobs/*.toml | wc -l) passed, 0 failed, 0 skipped" \
  "$WORK/eq.out"
check "it prints the largest relative difference per metric" \
  grep -q "largest relative difference 0" "$WORK/eq.out"
RC=0
bash "$SRC/scripts/equivalence.sh" "$FS" "$WORK/nonexistent" >"$WORK/eq2.out" 2>"$WORK/eq2.err" || RC=$?
expect_rc "a missing binary is refused" 2 eq2

cmp_files() {  # NAME CHANGE(python on f, the new file's h5py handle): runs the comparison
  cp "$WORK/whole.h5" "$WORK/$1.h5"
  /usr/bin/python3 -c "import sys, h5py, numpy as np
with h5py.File(sys.argv[1], 'r+') as f:
    $2" "$WORK/$1.h5"
  RC=0
  /usr/bin/python3 "$SRC/scripts/equivalence_compare.py" "$WORK/whole.h5" "$WORK/$1.h5" \
    >"$WORK/$1.out" 2>"$WORK/$1.err" || RC=$?
}
cmp_files tiny "d = f['results/value']; v = d[()]; v[2, 1] *= 1 + 1e-14; d[...] = v"
expect_rc "a value moved by relative 1e-14 passes" 0 tiny
cmp_files big "d = f['results/value']; v = d[()]; v[2, 1] *= 1 + 1e-10; d[...] = v"
expect_rc "a value moved by relative 1e-10 fails" 1 big
check "and names the metric" grep -q "FAIL /results/value" "$WORK/big.out"
cmp_files done "d = f['results/done']; v = d[()]; v[0, 0] = 0; d[...] = v"
expect_rc "a replica missing from done fails" 1 done
cmp_files nan "d = f['results/value']; v = d[()]; v[1, 1] = np.nan; d[...] = v"
expect_rc "a NaN in one file only fails" 1 nan
cmp_files ver "f.attrs['results_version'] = np.int64($OTHER); f.attrs['git_sha'] = 'other'"
expect_rc "another results_version and git revision alone pass" 0 ver
cmp_files job "f.attrs['master_seed'] = np.uint64(12)"
expect_rc "another seed fails" 1 job

# A count (an integral metric) and a recorded schedule must be identical, not merely close.
cat >"$WORK/cluster.toml" <<'TOML'
[sweep]
model = "cluster"
seed = 3
replicas = 2
record = { points = "all", replicas = [0, 1] }
[params]
nodes = 16
workload = { source = "fars", jobs = 60, mean_interarrival = "1000s", mean_runtime = "2h", mean_size = 4, target_load = 0.7 }
failures = { process = "renewal", dist = "weibull", shape = 0.7, scale = "5d", downtime = "1h" }
TOML
run_fs cl run "$WORK/cluster.toml" --out "$WORK/cl.h5" -q
expect_rc "a cluster job with records" 0 cl
if [ "$RC" -eq 0 ]; then
  cp "$WORK/cl.h5" "$WORK/whole.h5"
  count=$(/usr/bin/python3 -c 'import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
for k in f["results"]:
    v = f["results"][k][()]
    if k != "done" and v.dtype.kind == "f" and np.all(np.isfinite(v)) and np.all(v == np.round(v)) and np.any(v != 0):
        print(k); break' "$WORK/cl.h5")
  if [ -n "$count" ]; then
    cmp_files count "d = f['results/$count']; v = d[()]; v[0, 0] += 1; d[...] = v"
    expect_rc "a count ($count) changed by one fails" 1 count
  else
    fail "no integral metric found in the cluster job's results"
  fi
  rec=$(/usr/bin/python3 -c 'import sys, h5py
f = h5py.File(sys.argv[1], "r"); out = []
f["records"].visititems(lambda n, o: out.append(n) if isinstance(o, h5py.Dataset) and o.size > 0 and o.dtype.names and n.endswith("jobs") else None)
print(out[0] if out else "")' "$WORK/cl.h5")
  if [ -n "$rec" ]; then
    cmp_files sched "d = f['records/$rec']; v = d[()]; k = v.dtype.names[-1]; v[k][0] = v[k][0] + 1; d[...] = v"
    expect_rc "a recorded schedule changed in one value fails ($rec)" 1 sched
  else
    fail "no numeric records dataset found"
  fi
fi
finish
