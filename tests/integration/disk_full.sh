#!/usr/bin/env bash
# A full disk (a small tmpfs) while the journal or the HDF5 file is written (by run or fit):
# every run must end with exit 3 and a one-line message naming the file and the reason (never a
# segfault, MPI_Abort's 255, a hang or HDF5's error stack, which only --verbose adds), leave no
# temporary file behind, and a rerun with --resume on a disk with room must finish the sweep.
# Needs root and mount(2); SKIPs (exit 0) where mounting is not permitted.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

MNT="$WORK/small"
if ! mount_tmpfs "$MNT" size=256k; then
  skip "cannot mount a tmpfs here ($(head -1 "$WORK/mount.err")): the disk-full test needs root"
  finish
  exit 0
fi

# 40,000 points x 1 replica: the journal (28 bytes a task, about 1.1 MB) does not fit in 256 kB.
job() {
  cat <<TOML
[sweep]
model = "synthetic"
replicas = 1
[params]
work = "0s"
[axes]
mean = { linear = [0, 1], n = $1 }
TOML
}

section "the journal's disk fills up (256 kB tmpfs, ~1.1 MB of journal)"
job 40000 >"$WORK/big.toml"
run_fs journal_full run "$WORK/big.toml" --out "$MNT/big.h5" -q
expect_rc "a failed journal write ends with exit 3" 3 journal_full
check "the message names the journal and says why" grep -q "big.h5.journal: cannot write the journal: No space left on device" "$WORK/journal_full.err"
check "no temporary HDF5 file is left" test -z "$(find "$MNT" -name '*.tmp.*')"

section "the same under mpirun -np 2"
rm -f "$MNT"/*
run_mpi journal_full_mpi 2 run "$WORK/big.toml" --out "$MNT/big.h5" -q
expect_rc "mpirun -np 2: a failed journal write ends with exit 3" 3 journal_full_mpi
check "mpirun -np 2: the message names the journal" grep -q "cannot write the journal" "$WORK/journal_full_mpi.err"

section "the HDF5 file's disk fills up (the journal fits, the results file does not)"
rm -f "$MNT"/*
# 6,000 points: a journal of ~170 kB fits; the results file (~300 kB with /points/params) does not.
job 6000 >"$WORK/mid.toml"
run_fs h5_full run "$WORK/mid.toml" --out "$MNT/mid.h5" -q
expect_rc "a failed HDF5 write ends with exit 3 (no segfault at exit)" 3 h5_full
check "the message names the file" grep -q "mid.h5.tmp" "$WORK/h5_full.err"
echo "    stderr: $(wc -l <"$WORK/h5_full.err") lines"
check "the message is short (at most 2 lines, no HDF5 stack)" test "$(wc -l <"$WORK/h5_full.err")" -le 2
check "it gives the system's reason" grep -q "No space left on device" "$WORK/h5_full.err"
rm -f "$MNT"/*
FAULTSWEEP_VERBOSE=1 run_fs h5_full_verbose run "$WORK/mid.toml" --out "$MNT/mid.h5" -q
expect_rc "FAULTSWEEP_VERBOSE=1: still exit 3" 3 h5_full_verbose
check "FAULTSWEEP_VERBOSE=1 shows HDF5's error stack" grep -q "HDF5 error stack" "$WORK/h5_full_verbose.err"
rm -f "$MNT"/*
run_fs h5_full_v run "$WORK/mid.toml" --out "$MNT/mid.h5" -q --verbose
check "--verbose shows HDF5's error stack (exit $RC)" grep -q "HDF5 error stack" "$WORK/h5_full_v.err"
rm -f "$MNT"/*
# Once more without a flag: the journal of this run is the one --resume reads below.
run_fs h5_full run "$WORK/mid.toml" --out "$MNT/mid.h5" -q
check "no temporary HDF5 file is left" test -z "$(find "$MNT" -name '*.tmp.*')"
check "the journal is kept for --resume" test -s "$MNT/mid.h5.journal"

section "--resume on a disk with room finishes the sweep"
cp "$MNT/mid.h5.journal" "$WORK/mid.h5.journal"
run_fs resumed run "$WORK/mid.toml" --out "$WORK/mid.h5" --resume -q
expect_rc "the resumed run completes" 0 resumed
check "resumed file is complete" test "$(attr_complete "$WORK/mid.h5")" = 1
check "every task came from the journal (6000 finished tasks)" grep -q "6000 finished tasks" "$WORK/resumed.err"

section "fit's HDF5 file on a full disk"
rm -f "$MNT"/*
# 1,000 nodes with 6 failures each: the fit file (~1.6 MB) does not fit in 256 kB.
awk 'BEGIN { print "time_s,node,downtime_s"
  for (i = 1; i <= 6; i++) for (n = 0; n < 1000; n++) print i * 86400 + n * 7 + (n * i * 7919) % 40000 "," n ",60" }' \
  >"$WORK/fit_log.csv"
run_fs fit_full fit "$WORK/fit_log.csv" --format csv --out "$MNT/fit.h5"
expect_rc "fit: a failed HDF5 write ends with exit 3" 3 fit_full
check "fit: one line naming the file and the reason" \
  test "$(grep -c "fit.h5.tmp.*No space left on device" "$WORK/fit_full.err")" -eq 1 -a \
  "$(wc -l <"$WORK/fit_full.err")" -eq 1
check "fit: no temporary file is left" test -z "$(find "$MNT" -name '*.tmp.*')"

finish
