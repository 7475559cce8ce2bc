#!/usr/bin/env bash
# `export` of a recorded schedule: the SWF and Batsim texts of the hand-checked case
# (docs/records.md), and the writes themselves: a new file appears whole or not at all, every
# write is checked (standard output too), and a failure says why in one line with exit code 3
# (a bad --out: exit 2, before anything is read).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

G="$WORK/g"
mkdir -p "$G/results"
run_fs gantt run "$SRC/tests/data/jobs/gantt_small.toml" --out "$G/gantt.h5" -q
expect_rc "the hand-checked 4-node case" 0 gantt
exp=(export "$G/gantt.h5" --point 0 --replica 0)

section "texts"
run_fs csv "${exp[@]}" --format batsim-csv
check "Batsim jobs.csv equals the hand-made expected file" \
  diff -u "$SRC/tests/data/records/gantt6_jobs.csv" "$WORK/csv.out"
run_fs swf "${exp[@]}" --format swf --out "$G/out.swf"
expect_rc "export --format swf" 0 swf
check "the SWF has 6 jobs of 18 fields" \
  test "$(grep -v '^;' "$G/out.swf" | awk 'NF == 18' | wc -l)" -eq 6
check "the SWF starts with its Version line" test "$(head -1 "$G/out.swf")" = "; Version: 2.2"
run_fs nope export "$G/gantt.h5" --point 0 --replica 1 --format swf
expect_rc "export of a task without records" 2 nope
check "its message lists the recorded tasks" grep -q 'recorded (point, replica): (0, 0)' \
  "$WORK/nope.err"

# one_line NAME PATTERN: the error is one line and matches PATTERN.
one_line() {
  check "$1: one line" test "$(wc -l <"$WORK/$1.err")" -eq 1
  check "$1: says why ($2)" grep -q -- "$2" "$WORK/$1.err"
}

section "standard output that cannot be written"
RC=0
"$FS" "${exp[@]}" --format swf >/dev/full 2>"$WORK/full.err" || RC=$?
expect_rc "> /dev/full" 3 full
one_line full "standard output: cannot write the export: the disk is full (No space left on device)"
RC=0
"$FS" "${exp[@]}" --format swf >&- 2>"$WORK/closed.err" || RC=$?
expect_rc "standard output closed" 3 closed
one_line closed "standard output is closed"
# A pipe whose reader has already gone (made in Python: a shell pipeline would race).
RC=$(python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
print(subprocess.run(sys.argv[2:], stdout=w, stderr=open(sys.argv[1], "w")).returncode)' \
  "$WORK/pipe.err" "$FS" "${exp[@]}" --format swf)
check "a reader that goes away: exit 3 (never SIGPIPE), not $RC" test "$RC" -eq 3
one_line pipe "the reader of standard output has gone"

section "--out refused before anything is read"
run_fs missing "${exp[@]}" --format swf --out "$WORK/no/such/folder/x.swf"
expect_rc "a missing folder" 2 missing
one_line missing "no/such/folder does not exist"
run_fs exists "${exp[@]}" --format swf --out "$G/out.swf"
expect_rc "an existing file" 2 exists

section "full disk and read-only file system"
MNT="$WORK/small"
if ! mount_tmpfs "$MNT" size=16k; then
  skip "cannot mount a tmpfs here ($(head -1 "$WORK/mount.err")): needs root"
  finish
  exit 0
fi
cat /dev/zero >"$MNT/filler" 2>/dev/null || true  # not a byte left
run_fs diskfull "${exp[@]}" --format swf --out "$MNT/out.swf"
expect_rc "a full disk" 3 diskfull
one_line diskfull "out.swf: cannot write the export: the disk is full (No space left on device)"
check "no file and no temporary left" test -z "$(find "$MNT" -name 'out.swf*')"
rm -f "$MNT/filler"
mount -o remount,ro "$MNT"
run_fs readonly "${exp[@]}" --format swf --out "$MNT/out.swf"
expect_rc "a read-only file system" 3 readonly
one_line readonly "read-only file system"

finish
