#!/usr/bin/env bash
# The analysis package installs offline with pip into a venv that sees the system's packages
# (setuptools, numpy, pandas, scipy, h5py, ...), and its console script works: --help of the
# command and of every subcommand; the installed package loads a results file as a per-replica
# DataFrame and as an xarray Dataset.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PY=/usr/bin/python3

section "pip install --no-build-isolation ./analysis into a venv"
RC=0
"$PY" -m venv --system-site-packages "$WORK/venv" >"$WORK/venv.out" 2>"$WORK/venv.err" || RC=$?
expect_rc "python3 -m venv --system-site-packages" 0 venv
# A copy, so that the build leaves nothing in the source tree.
cp -r "$SRC/analysis" "$WORK/analysis"
rm -rf "$WORK/analysis/build" "$WORK/analysis"/*.egg-info
RC=0
"$WORK/venv/bin/pip" install --no-index --no-build-isolation "$WORK/analysis" \
  >"$WORK/pip.out" 2>"$WORK/pip.err" || RC=$?
expect_rc "pip install offline" 0 pip
check "installs the console script faultsweep-analysis" test -x "$WORK/venv/bin/faultsweep-analysis"

section "faultsweep-analysis --help and every subcommand's --help"
cd "$WORK"
RC=0
"$WORK/venv/bin/faultsweep-analysis" --help >"$WORK/help.out" 2>"$WORK/help.err" || RC=$?
expect_rc "faultsweep-analysis --help" 0 help
check "it names itself in the usage line" grep -q "^usage: faultsweep-analysis" "$WORK/help.out"
# The usage may wrap: the first {a,b,...} of the help is the list of subcommands.
subs=$(grep -o '{[a-z,_-]*}' "$WORK/help.out" | head -1 | tr -d '{}' | tr , ' ')
check "it lists subcommands ($subs)" test -n "$subs"
for sub in $subs; do
  RC=0
  "$WORK/venv/bin/faultsweep-analysis" "$sub" --help >"$WORK/help_$sub.out" \
    2>"$WORK/help_$sub.err" || RC=$?
  expect_rc "faultsweep-analysis $sub --help" 0 "help_$sub"
done
RC=0
"$WORK/venv/bin/python" -c "import faultsweep_analysis, sys; \
  sys.exit(not faultsweep_analysis.__file__.startswith('$WORK/venv/'))" >"$WORK/where.out" \
  2>"$WORK/where.err" || RC=$?
expect_rc "the venv imports the installed package, not the source tree" 0 where

section "a results file as a DataFrame and as an xarray Dataset, from the venv"
run_fs grid run "$SRC/tests/data/jobs/synthetic_grid.toml" --out "$WORK/grid.h5" -q
expect_rc "run a 3 x 4 grid, 8 replicas" 0 grid
cat >"$WORK/load.py" <<'PY'
import sys
from faultsweep_analysis import open_results, replica_frame, to_dataset
res = open_results(sys.argv[1])
df, ds = replica_frame(res), to_dataset(res)
print(len(df), dict(ds.sizes), ds["value"].attrs["units"])
PY
RC=0
"$WORK/venv/bin/python" "$WORK/load.py" "$WORK/grid.h5" >"$WORK/load.out" 2>"$WORK/load.err" || RC=$?
expect_rc "replica_frame and to_dataset load it" 0 load
check "96 rows; dimensions mean 3, sd 4, replica 8" \
  grep -q "^96 {'mean': 3, 'sd': 4, 'replica': 8} " "$WORK/load.out"
finish
