#!/usr/bin/env bash
# Slices (`run --slice i/n`): each slice runs its share of the global task ids into a partial
# file (complete = 0, attribute slice = "i/n") with its own journal and --resume; merged, the
# slices equal a single run bit for bit in /results and /summary, for a fixed replica count and
# for a stopping rule, whatever the rank counts of the slices.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
GRID="$SRC/tests/data/jobs/synthetic_grid.toml"
ADAPT="$SRC/tests/data/jobs/synthetic_adaptive.toml"

slice_attr() { h5dump -a /slice "$1" 2>/dev/null | sed -n 's/^ *(0): *"\(.*\)"/\1/p' | head -1; }

section "a fixed replica count in 3 slices on 1, 2 and 3 ranks"
run_fs ref run "$GRID" --out "$WORK/ref.h5" -q
expect_rc "reference run (unsliced)" 0 ref
run_fs s0 run "$GRID" --slice 0/3 --out "$WORK/g0.h5" -q
expect_rc "slice 0/3 on 1 rank" 0 s0
run_mpi s1 2 run "$GRID" --slice 1/3 --out "$WORK/g1.h5" -q
expect_rc "slice 1/3 on 2 ranks" 0 s1
run_mpi s2 3 run "$GRID" --slice 2/3 --out "$WORK/g2.h5" -q
expect_rc "slice 2/3 on 3 ranks" 0 s2
for i in 0 1 2; do
  check "slice $i: complete = 0" test "$(attr_complete "$WORK/g$i.h5")" = 0
  check "slice $i: attribute slice = $i/3" test "$(slice_attr "$WORK/g$i.h5")" = "$i/3"
  check "slice $i: journal removed" test ! -e "$WORK/g$i.h5.journal"
done
n=0
for i in 0 1 2; do
  d=$("$FS" inspect "$WORK/g$i.h5" | sed -n 's/.*replicas *\([0-9]*\) of.*/\1/p')
  n=$((n + d))
  if [ "$d" -ge 30 ] && [ "$d" -le 34 ]; then
    pass "slice $i holds $d of 96 tasks"
  else
    fail "slice $i holds $d tasks, expected about 32"
  fi
done
check "the slices hold 96 tasks in all" test "$n" -eq 96
run_fs merge merge "$WORK/merged.h5" "$WORK/g2.h5" "$WORK/g0.h5" "$WORK/g1.h5"
expect_rc "merge of the three slices" 0 merge
check "merged: complete = 1" test "$(attr_complete "$WORK/merged.h5")" = 1
check "merged: no slice attribute" test -z "$(slice_attr "$WORK/merged.h5")"
same_results "3 slices merged vs one run" "$WORK/ref.h5" "$WORK/merged.h5"

section "a stopping rule in 2 slices (whole points per slice)"
run_fs aref run "$ADAPT" --out "$WORK/aref.h5" -q
expect_rc "reference run" 0 aref
run_fs a0 run "$ADAPT" --slice 0/2 --out "$WORK/a0.h5" -q
expect_rc "slice 0/2" 0 a0
run_mpi a1 2 run "$ADAPT" --slice 1/2 --out "$WORK/a1.h5" -q
expect_rc "slice 1/2 on 2 ranks" 0 a1
run_fs amerge merge "$WORK/amerged.h5" "$WORK/a0.h5" "$WORK/a1.h5"
expect_rc "merge" 0 amerge
check "merged: complete = 1" test "$(attr_complete "$WORK/amerged.h5")" = 1
same_results "stopping rule: 2 slices merged vs one run" "$WORK/aref.h5" "$WORK/amerged.h5"
run_fs ahalf merge "$WORK/ahalf.h5" "$WORK/a0.h5"
check "one slice alone merges to complete = 0" test "$(attr_complete "$WORK/ahalf.h5")" = 0

section "a slice stopped by SIGTERM resumes as that slice"
cat >"$WORK/slow.toml" <<'TOML'
[sweep]
model = "synthetic"
seed = 99
replicas = 10
[params]
work = "20ms"
[axes]
mean = { linear = [0, 1], n = 12 }
TOML
run_fs slowref run "$WORK/slow.toml" --out "$WORK/slowref.h5" -q
expect_rc "reference run" 0 slowref
start_group st "$FS" run "$WORK/slow.toml" --slice 1/2 --out "$WORK/st.h5" -q
# SIGTERM the moment the slice's journal holds 10 of its 60 tasks of 20 ms (a sixth of its 1.2 s
# on an idle machine), not after a fixed time: the same stage of the run however loaded the
# machine.
signal_mid_run "the slice's run" TERM "$WORK/st.h5.journal" 10 60 "$BG_PID" || true
wait_rc "$BG_PID"
expect_rc "SIGTERM to a slice exits 75" 75 st
check "the partial slice file keeps slice = 1/2" test "$(slice_attr "$WORK/st.h5")" = 1/2
run_fs stwrong run "$WORK/slow.toml" --slice 0/2 --out "$WORK/st.h5" --resume -q
expect_rc "--resume with another slice is refused" 2 stwrong
rm -f "$WORK/st.h5.journal"
run_fs stwrong2 run "$WORK/slow.toml" --slice 0/2 --out "$WORK/st.h5" --resume -q
expect_rc "without the journal, the partial file's slice attribute refuses it too" 2 stwrong2
check "the refusal names both slices" grep -q "slice 1/2.*slice 0/2" "$WORK/stwrong2.err"
run_mpi stres 2 run "$WORK/slow.toml" --slice 1/2 --out "$WORK/st.h5" --resume -q
expect_rc "--resume --slice 1/2 finishes the slice" 0 stres
run_fs st0 run "$WORK/slow.toml" --slice 0/2 --out "$WORK/st0.h5" -q
run_fs stm merge "$WORK/stm.h5" "$WORK/st.h5" "$WORK/st0.h5"
same_results "interrupted and resumed slice, merged, vs one run" "$WORK/slowref.h5" "$WORK/stm.h5"

section "naming and bad input"
mkdir -p "$WORK/d/results"
cp "$GRID" "$WORK/d/grid.toml"
(cd "$WORK/d" && "$FS" run grid.toml --slice 1/4 -q) >"$WORK/name.out" 2>&1
check "without --out a slice writes OUTPUT.slice-1-of-4.h5" \
  test -f "$WORK/d/results/synthetic_grid.slice-1-of-4.h5"
for bad in 3/3 x/2 1/0; do
  run_fs bad run "$GRID" --slice "$bad" --out "$WORK/bad.h5" -q
  expect_rc "--slice $bad is refused" 2 bad
done
check "the message says what --slice expects" grep -q "expected i/n" "$WORK/bad.err"

finish
