#!/usr/bin/env bash
# The analysis package installs offline with pip into a venv that sees the system's packages
# (setuptools, numpy, pandas, scipy, h5py, ...), and its console script works: --help of the
# command and of every subcommand.
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
subs=$(sed -n 's/^usage: faultsweep-analysis .*{\([a-z,_-]*\)}.*/\1/p' "$WORK/help.out" | tr , ' ')
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
finish
