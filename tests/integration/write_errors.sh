#!/usr/bin/env bash
# Every write is checked, standard output included: a command whose output cannot be written
# (/dev/full, a closed descriptor, a full disk, a read-only or missing folder) exits non-zero
# with one line that names what could not be written and the system's reason, never 0 in
# silence; a file it could not finish is not left behind (temporary name, renamed at the end).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cd "$WORK"
cat >job.toml <<'TOML'
[sweep]
model = "synthetic"
output = "in.h5"
replicas = 2
[params]
work = "0s"
TOML
printf 'time_s,node,downtime_s\n' >log.csv
for n in 0 1 2; do for i in 1 2 3 4 5; do echo "$((i * 86400 + n * 977 + i * i * 311)),$n,60"; done; done >>log.csv
"$FS" run job.toml -q
"$FS" fit log.csv --format csv --out fit.h5 >/dev/null

# one_line NAME REASON: stderr is a single line saying standard output could not be written and why.
one_line() {
  check "$1: one line on stderr" test "$(wc -l <"$WORK/$1.err")" -eq 1
  check "$1: it says standard output could not be written: $2" \
    grep -q "cannot write the standard output: $2" "$WORK/$1.err"
}

section "standard output on /dev/full: exit 3 (a file could not be written), with the reason"
if [ -w /dev/full ]; then
  for cmd in "inspect in.h5" "inspect fit.h5" "models" "models cluster --markdown" "check job.toml" \
    "fit log.csv --format csv" "plan job.toml --pilot-tasks 0" "--help"; do
    name="full_$(echo "$cmd" | tr -c 'a-z0-9' _)"
    RC=0
    # shellcheck disable=SC2086  # the command's words
    "$FS" $cmd >/dev/full 2>"$WORK/$name.err" || RC=$?
    expect_rc "$cmd > /dev/full" 3 "$name"
    one_line "$name" "No space left on device"
  done
else
  skip "no /dev/full here"
fi

section "standard output closed"
RC=0
"$FS" inspect in.h5 >&- 2>"$WORK/closed.err" || RC=$?
expect_rc "inspect with stdout closed" 3 closed
one_line closed "Bad file descriptor"

section "files into a missing folder: the reason, no file"
run_fs fit_missing fit log.csv --format csv --out "$WORK/no/such/fit.h5"
check "fit --out in a missing folder fails (exit $RC)" test "$RC" -ne 0
check "fit: the message names the file and says why" \
  grep -q "no/such/fit.h5.*No such file or directory" "$WORK/fit_missing.err"
check "fit: one line" test "$(wc -l <"$WORK/fit_missing.err")" -eq 1
run_fs merge_missing merge "$WORK/no/such/merged.h5" in.h5
check "merge into a missing folder fails (exit $RC)" test "$RC" -ne 0
check "merge: the message says why" grep -q "No such file or directory" "$WORK/merge_missing.err"

section "files into a read-only folder (a read-only tmpfs: root ignores file modes)"
RO="$WORK/ro"
if mount_tmpfs "$RO" ro,size=64k; then
  run_fs fit_ro fit log.csv --format csv --out "$RO/fit.h5"
  expect_rc "fit --out in a read-only folder" 3 fit_ro
  check "fit: one line naming the file and 'Read-only file system'" \
    test "$(grep -c "fit.h5.*Read-only file system" "$WORK/fit_ro.err")" -eq 1 -a \
    "$(wc -l <"$WORK/fit_ro.err")" -eq 1
  run_fs merge_ro merge "$RO/merged.h5" in.h5
  expect_rc "merge into a read-only folder" 3 merge_ro
  check "merge: the reason" grep -q "Read-only file system" "$WORK/merge_ro.err"
  run_fs run_ro run job.toml --out "$RO/out.h5" -q
  check "run --out in a read-only folder fails (exit $RC)" test "$RC" -ne 0
  check "run: the reason" grep -q "Read-only file system" "$WORK/run_ro.err"
  check "nothing was created" test -z "$(ls -A "$RO")"
  section "standard output into a file on a full disk (a 64 kB tmpfs)"
  mount_tmpfs "$WORK/full" size=64k
  dd if=/dev/zero of="$WORK/full/filler" bs=4k count=64 2>/dev/null || true
  RC=0
  "$FS" models cluster --markdown >"$WORK/full/reference.md" 2>"$WORK/disk_full.err" || RC=$?
  expect_rc "models --markdown into a full disk" 3 disk_full
  one_line disk_full "No space left on device"
else
  skip "cannot mount a tmpfs here ($(head -1 "$WORK/mount.err"))"
fi

finish
