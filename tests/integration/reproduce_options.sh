#!/usr/bin/env bash
# scripts/reproduce.sh without the real data: bad settings and bad results files get one line on
# stderr and the documented exit code, and nothing is built (a stand-in cmake on PATH records any
# build); --quick job copies read Gottumukkala's generated traces from the quick results folder;
# "job k of N, elapsed, estimated remaining" comes from the timings of the last run. ~5 s.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PYTHONPATH="$SRC/analysis${PYTHONPATH:+:$PYTHONPATH}"
mkdir -p "$WORK/bin"
printf '#!/usr/bin/env bash\necho "cmake $*" >>"%s"\nexit 1\n' "$WORK/cmake.log" >"$WORK/bin/cmake"
chmod +x "$WORK/bin/cmake"
# repro NAME ARGS...: reproduce.sh with the stand-in cmake first on PATH; RC, $WORK/NAME.{out,err}
repro() {
  local name=$1
  shift
  RC=0
  PATH="$WORK/bin:$PATH" bash "$SRC/scripts/reproduce.sh" "$@" >"$WORK/$name.out" \
    2>"$WORK/$name.err" || RC=$?
}
one_line() { # NAME WORDS: stderr of NAME is one line holding WORDS, without a traceback
  [ "$(wc -l <"$WORK/$1.err")" -eq 1 ] && grep -qF -- "$2" "$WORK/$1.err" &&
    ! grep -q Traceback "$WORK/$1.err"
}
nothing_built() { [ ! -s "$WORK/cmake.log" ]; }
expect() { # NAME CODE WORDS
  check "$1: exit $2 (got $RC)" test "$RC" -eq "$2"
  check "$1: one line naming the problem" one_line "$1" "$3"
  check "$1: nothing built" nothing_built
}

section "settings"
FAULTSWEEP_BIN=$WORK/no/such/faultsweep repro bin --tiny --results "$WORK/r1" --out "$WORK/rep1" plank
expect bin 2 "FAULTSWEEP_BIN=$WORK/no/such/faultsweep: no such executable"
check "bin: no results written" test ! -e "$WORK/r1/plank"
repro ranks --tiny --ranks two --results "$WORK/r1" plank
expect ranks 2 "--ranks two: expected a positive integer"
FAULTSWEEP_BIN=$WORK/no/such/faultsweep repro noresults --report-only --results "$WORK/none" \
  --out "$WORK/rep0" plank
expect noresults 2 "no results folder"
check "noresults: the folder is not made" test ! -e "$WORK/none"

section "--report-only reads, never builds"
mkdir -p "$WORK/rr/plank"
/usr/bin/python3 -c 'import h5py, sys
with h5py.File(sys.argv[1], "w") as f:
    f.attrs["filetype"] = "faultsweep-results"
    f.create_dataset("x", data=list(range(4000)))' "$WORK/good.h5"
head -c 1500 "$WORK/good.h5" >"$WORK/rr/plank/table4.h5"
FAULTSWEEP_BIN=$WORK/no/such/faultsweep repro truncated --report-only --results "$WORK/rr" \
  --out "$WORK/rep2" plank
expect truncated 3 "table4.h5: damaged or truncated"
echo "not hdf5" >"$WORK/rr/plank/table4.h5"
repro foreign --report-only --results "$WORK/rr" --out "$WORK/rep2" plank
expect foreign 2 "table4.h5: not a faultsweep results file (not an HDF5 file)"
: >"$WORK/rr/plank/table4.h5"
repro empty --report-only --results "$WORK/rr" --out "$WORK/rep2" plank
expect empty 3 "table4.h5: empty file"
check "no report page written" test ! -e "$WORK/rep2/index.html"

section "--quick job copies and the progress line"
(
  cd "$SRC"
  source scripts/reproduce_lib.sh
  repro_mode=quick repro_ranks=2 repro_results=$WORK/rq
  mkdir -p "$WORK/rq"
  copy=$(repro_job_file jobs/gottumukkala/ch6_sensitivity.toml)
  check "ch6 copy made under the quick folder" test "${copy#"$WORK/rq/"}" != "$copy"
  check "its traces are read from the quick folder" grep -qF "\"$WORK/rq/gottumukkala/ch6_trace_1.csv\"" "$copy"
  check "no path into results/ is left" bash -c "! grep -q 'results/gottumukkala/ch6_trace' '$copy' ||
    ! grep -v \"$WORK/rq\" '$copy' | grep -q 'results/gottumukkala/ch6_trace'"
  # Timings of an earlier run (2 ranks: 100 s and 40 s) give the estimate; a job never timed is
  # counted apart.
  printf 'jobs/plank/table4.toml\tx\t100\t2\tquick\tran\tT\njobs/plank/figure4.toml\tx\t40\t2\tquick\tran\tT\n' \
    >"$WORK/rq/timings.tsv"
  repro_plan plank >"$WORK/plan.out"
  check "the plan lists 3 jobs, 2 min 20 s estimated and one never timed" \
    grep -qF "3 jobs (quick, 2 ranks), estimated 2 min 20 s + 1 never timed" "$WORK/plan.out"
  repro_k=2
  repro_progress >"$WORK/progress.out"
  check "job 2 of 3 with 40 s remaining" grep -qE "job 2 of 3 \(jobs/plank/figure4.toml\), elapsed [0-9]+ s, estimated remaining 40 s \+ 1 never timed" "$WORK/progress.out"
  repro_ranks=1 # twice the time on half the ranks
  check "estimates scale with the ranks" test "$(repro_estimate jobs/plank/table4.toml)" = 200
)
finish
