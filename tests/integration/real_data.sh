#!/usr/bin/env bash
# Real data (FAULTSWEEP_DATA): public workload logs replayed end to end through `faultsweep run`
# on 2 MPI ranks with failures replayed from the LANL failure log (system 20), and the HDF5
# files checked: complete, jobs > 0, failures > 0, 0 < utilization < 1, no unfinished jobs.
#   KTH-SP2  (100 nodes): first 3000 jobs (~35 days); LANL system 20 from 2005-04-01
#   SDSC-SP2 (128 nodes): first 3000 jobs (~34 days); LANL system 20 from 2005-01-01
# System 20 has failures on ~400 of its nodes over 2002-2005; the trace source maps the nodes
# that fail after `start` to 0..k-1 and needs k <= the machine's nodes: 100 from 2005-04-01, 120
# from 2005-01-01 (the factory has no folding key, only node_offset). Young's interval needs
# node_mtbf for a trace (it has no mean rate): ~100 days, about system 20's per-node MTBF.
# Prints SKIP and exits 0 when FAULTSWEEP_DATA is unset. Runs in a few seconds.
set -euo pipefail
if [ -z "${FAULTSWEEP_DATA:-}" ]; then
  echo "SKIP: FAULTSWEEP_DATA is not set (the folder with workloads/*.swf.gz and failures/lanl/)"
  exit 0
fi
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"   # $WORK (mktemp -d, removed by an EXIT trap), pass/fail/finish

D="$(cd "$FAULTSWEEP_DATA" && pwd)"
LANL="$D/failures/lanl/LA-UR-05-7318-failure-data-1996-2005.csv.xz"
section "data in $D"
for f in "$LANL" "$D/workloads/KTH-SP2-1996-2.1-cln.swf.gz" "$D/workloads/SDSC-SP2-1998-4.2-cln.swf.gz"; do
  check "readable: $(basename "$f")" test -r "$f"
done

# write_job NAME NODES SWF START: a cluster job with absolute data paths in $WORK.
write_job() {
  local name=$1 nodes=$2 swf=$3 start=$4
  cat >"$WORK/$name.toml" <<TOML
[sweep]
model = "cluster"
seed = 20050401
output = "$WORK/$name.h5"
replicas = 2
description = "real data: $swf on $nodes nodes, LANL system 20 failures from $start"

[params]
nodes = $nodes
workload = { source = "swf", file = "$D/workloads/$swf", max_jobs = 3000 }
failures = { process = "trace", file = "$LANL", format = "lanl", system = 20, start = "$start" }
queue = "easy"
on_failure = "requeue_head"
checkpoint = "young"
node_mtbf = "100d"
TOML
}

# check_h5 NAME: the results file is what a real replay must give.
check_h5() {
  local name=$1 out
  if out=$(/usr/bin/python3 - "$WORK/$name.h5" <<'PY' 2>&1
import sys
import h5py
import numpy as np
f = h5py.File(sys.argv[1], "r")
problems = []
def attr(k):
    v = f.attrs[k]
    return v.decode() if isinstance(v, bytes) else v
if attr("filetype") != "faultsweep-results":
    problems.append(f"filetype {attr('filetype')!r}")
if int(attr("complete")) != 1:
    problems.append("complete != 1")
done = f["/results/done"][()]
if not done.all():
    problems.append(f"done: {int(done.sum())} of {done.size} replicas")
r = {m: f["/results/" + m][()] for m in ("jobs", "failures", "job_failures", "utilization", "unfinished_jobs")}
if not (r["jobs"] > 0).all(): problems.append(f"jobs {r['jobs'].ravel()}")
if not (r["failures"] > 0).all(): problems.append(f"failures {r['failures'].ravel()}")
u = r["utilization"]
if not ((u > 0) & (u < 1)).all(): problems.append(f"utilization {u.ravel()}")
if not (r["unfinished_jobs"] == 0).all(): problems.append(f"unfinished {r['unfinished_jobs'].ravel()}")
# a replayed trace is the same in every replica: replicas must agree
for m, v in r.items():
    if not np.all(v == v[:, :1]): problems.append(f"{m} differs between replicas: {v.ravel()}")
print(f"jobs {r['jobs'][0,0]:.0f}, failures {r['failures'][0,0]:.0f}, "
      f"job failures {r['job_failures'][0,0]:.0f}, utilization {u[0,0]:.3f}")
if problems:
    print("; ".join(problems)); sys.exit(1)
PY
  ); then
    pass "$name.h5: complete, jobs > 0, failures > 0, 0 < utilization < 1 ($out)"
  else
    fail "$name.h5: $out"
  fi
}

for spec in "kth 100 KTH-SP2-1996-2.1-cln.swf.gz 2005-04-01" \
            "sdsc 128 SDSC-SP2-1998-4.2-cln.swf.gz 2005-01-01"; do
  # shellcheck disable=SC2086
  set -- $spec
  section "$3 on $2 nodes + LANL system 20 failures from $4, 2 replicas, 2 ranks"
  write_job "$1" "$2" "$3" "$4"
  run_fs "$1-check" check "$WORK/$1.toml"
  expect_rc "faultsweep check $1.toml" 0 "$1-check"
  t0=$(date +%s)
  run_mpi "$1-run" 2 run "$WORK/$1.toml" -q
  expect_rc "faultsweep run $1.toml in $(( $(date +%s) - t0 )) s" 0 "$1-run"
  if [ -f "$WORK/$1.h5" ]; then check_h5 "$1"; else fail "$1.h5 not written"; fi
  run_fs "$1-inspect" inspect "$WORK/$1.h5"
  expect_rc "faultsweep inspect $1.h5" 0 "$1-inspect"
  check "inspect says COMPLETE" grep -q COMPLETE "$WORK/$1-inspect.out"
done

finish
