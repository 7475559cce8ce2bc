#!/usr/bin/env bash
# Bad input (DESIGN §8): every malformed job file in tests/data/bad/ is refused with exit code 2
# and one error message that names the file (file:line where there is a line) and the key, and
# an output file that already exists at the job's output path is left byte-for-byte untouched.
#
# Each bad file starts with comments the script reads:
#   # bad: what is wrong                 (required)
#   # key: text the error must contain   (required; usually the dotted key)
#   # line: N                            (the error must say FILE:N:)
#   # also: more text the error must contain
#   # needs: MODEL                       (SKIP unless `faultsweep models MODEL` succeeds)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BAD="$SRC/tests/data/bad"

# Run from a scratch folder so that default outputs (results/<stem>.h5) land there.
RUN="$WORK/run"
mkdir -p "$RUN/results"
cd "$RUN"

header() { sed -n "s/^# $1: //p" "$2" | head -1; }

# check_refusal NAME JOB KEY LINE ALSO: runs JOB and checks exit 2 and the message.
check_refusal() {
  local name=$1 job=$2 key=$3 line=$4 also=$5 err="$WORK/$1.err"
  run_fs "$name" run "$job"
  expect_rc "$name: refused" 2 "$name"
  local n
  n=$(grep -c "error:" "$err" || true)
  if [ "$n" -eq 1 ]; then
    pass "$name: exactly one error message"
  else
    fail "$name: $n lines with 'error:' on stderr"
    sed 's/^/    | /' "$err" | head -10
  fi
  local where="$job"
  [ -n "$line" ] && where="$job:$line:"
  if grep -qF -- "$where" "$err"; then
    pass "$name: names $(basename "$job")${line:+:$line}"
  else
    fail "$name: the message does not contain '$where'"
    sed 's/^/    | /' "$err" | head -5
  fi
  if grep -qF -- "$key" "$err"; then pass "$name: names $key"; else
    fail "$name: the message does not contain '$key'"
    sed 's/^/    | /' "$err" | head -5
  fi
  if [ -n "$also" ]; then
    if grep -qF -- "$also" "$err"; then pass "$name: says $also"; else
      fail "$name: the message does not contain '$also'"
    fi
  fi
  check "$name: nothing on stdout" test ! -s "$WORK/$name.out"
}

count=0
for job in "$BAD"/*.toml; do
  name=$(basename "$job" .toml)
  what=$(header bad "$job")
  key=$(header key "$job")
  line=$(header line "$job")
  also=$(header also "$job")
  needs=$(header needs "$job")
  section "$name: $what"
  if [ -z "$what" ] || [ -z "$key" ]; then
    fail "$name: the file lacks its '# bad:' or '# key:' comment"
    continue
  fi
  count=$((count + 1))
  if [ -n "$needs" ] && ! has_model "$needs"; then
    skip "$name: model $needs is not registered in this build"
    continue
  fi
  # The job's output path, as the job states it or by default; put a file there first.
  out=$(sed -n 's/^output *= *"\(.*\)"/\1/p' "$job" | head -1)
  [ -n "$out" ] || out="results/$name.h5"
  sentinel=""
  if [ -d "$(dirname "$out")" ]; then
    printf 'precious results of an earlier sweep: %s\n' "$name" >"$out"
    sentinel=$(sha256sum "$out")
  fi
  check_refusal "$name" "$job" "$key" "$line" "$also"
  if [ -n "$sentinel" ]; then
    check "$name: the existing $out is untouched" test "$(sha256sum "$out")" = "$sentinel"
  else
    check "$name: the missing folder $(dirname "$out") was not created" test ! -e "$(dirname "$out")"
  fi
  check "$name: no journal was started" test -z "$(find "$RUN" -name '*.journal')"
  check "$name: no temporary file left" test -z "$(find "$RUN" -name '*.tmp.*')"
done

section "at least 18 malformed job files"
check "$count bad job files in tests/data/bad" test "$count" -ge 18

section "job files that cannot be read"
run_fs missing run "$WORK/no_such_job.toml"
expect_rc "a missing job file is refused" 2 missing
check "missing: one error message naming the path" test "$(grep -c "error:.*$WORK/no_such_job.toml" \
  "$WORK/missing.err")" -eq 1
mkdir -p "$WORK/a_folder.toml"
run_fs folder run "$WORK/a_folder.toml"
expect_rc "a folder given as the job file is refused" 2 folder
check "folder: one error message naming the path" test "$(grep -c "error:.*$WORK/a_folder.toml" \
  "$WORK/folder.err")" -eq 1
run_fs check_bad check "$BAD/negative_sd.toml"
expect_rc "check on a bad job file" 2 check_bad
check "check: names the key" grep -q "params.sd" "$WORK/check_bad.err"

section "the same refusal under mpirun -np 2"
printf 'precious\n' >"$RUN/results/negative_sd.h5"
before=$(sha256sum "$RUN/results/negative_sd.h5")
run_mpi mpi_bad 2 run "$BAD/negative_sd.toml"
expect_rc "mpirun -np 2 with a bad job" 2 mpi_bad
check "mpi: exactly one error message (rank 0 only)" test "$(grep -c "error:" "$WORK/mpi_bad.err")" -eq 1
check "mpi: the existing output is untouched" test "$(sha256sum "$RUN/results/negative_sd.h5")" = \
  "$before"

finish
