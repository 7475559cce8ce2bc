#!/usr/bin/env bash
# Two runs on one output: the second is told that another run holds OUT.journal (not that an
# interrupted run left it), with or without --overwrite or --resume, and the first run's journal
# and result are untouched by it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cat >"$WORK/job.toml" <<'TOML'
[sweep]
model = "synthetic"
replicas = 2000
[params]
work = "10ms"
TOML
out="$WORK/o.h5"
start_group first "$FS" run "$WORK/job.toml" --out "$out" -q
first=$BG_PID
# The second runs start once the first has journaled 100 of its 2,000 tasks of 10 ms (1 s into
# its 20 s): well under way, with most of its run still ahead, however loaded the machine.
st=0
wait_for_records "$out.journal" 100 60 "$first" || st=$?
case $st in
  0) pass "the first run is under way: $RECORDS of its 2000 tasks journaled (>= 100)" ;;
  2) fail "the first run ended before 100 tasks were journaled ($RECORDS)" ;;
  *) fail "the first run journaled $RECORDS tasks in 60 s, fewer than 100" ;;
esac
for flags in "" "--overwrite" "--resume"; do
  # shellcheck disable=SC2086
  run_fs second run "$WORK/job.toml" --out "$out" -q $flags
  expect_rc "a second run${flags:+ with $flags} is refused" 2 second
  check "it says another run holds the journal" grep -q "another run holds $out.journal" "$WORK/second.err"
  check "the journal is still there" test -e "$out.journal"
done
check "the first run was still running after the three refusals" test -n "$(session_alive "$first")"
wait_rc "$first"
check "the first run completes (exit 0)" test "$RC" -eq 0
check "its file is complete" test "$(attr_complete "$out")" = 1
check "its journal was removed by the first run at the end" test ! -e "$out.journal"
finish
