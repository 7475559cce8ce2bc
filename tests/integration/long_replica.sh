#!/usr/bin/env bash
# One long replica (a 93,312-node machine, as a log run per processor) is not "0/1 tasks, ETA ?"
# for minutes: the progress line (every 10 s when stderr is not a terminal) says how far the
# running replica is, in jobs done and simulated time, and grows; a stop still exits 75 at once.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
JOB="$SRC/tests/data/jobs/per_processor.toml"

section "progress inside one long replica"
start_group long "$FS" run "$JOB" --out "$WORK/long.h5"
# Two progress lines with the running replica (the second ~10 s after the first), or 60 s.
for _ in $(seq 1 120); do
  [ "$(grep -c "running replica:" "$WORK/long.err" 2>/dev/null || true)" -ge 2 ] && break
  sleep 0.5
done
if ! kill -0 "$BG_PID" 2>/dev/null; then
  fail "the replica ended before two progress lines: make tests/data/jobs/per_processor.toml longer"
  finish || exit 1
fi
t0=$(date +%s.%N)
kill -TERM "$BG_PID"
wait_rc "$BG_PID"
t1=$(date +%s.%N)
expect_rc "SIGTERM during the replica exits 75" 75 long
stop_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
check "it stopped within 5 s of the signal (${stop_s} s)" awk -v s="$stop_s" 'BEGIN { exit !(s <= 5) }'
grep "running replica:" "$WORK/long.err" | head -3 || true
# "running replica: D/T jobs done (P%), simulated S": D > 0, T = the job's 295,540 jobs.
mapfile -t done_counts < <(sed -n 's/.*running replica: \([0-9]*\)\/\([0-9]*\) jobs done.*/\1 \2/p' \
  "$WORK/long.err")
check "two progress lines name the running replica" test "${#done_counts[@]}" -ge 2
read -r d1 total <<<"${done_counts[0]:-0 0}"
read -r d2 _ <<<"${done_counts[1]:-0 0}"
check "they count the replica's 295540 jobs (saw $total)" test "$total" -eq 295540
check "jobs done grows between them ($d1 -> $d2)" test "$d2" -gt "$d1"
check "they give the simulated time" grep -q "jobs done ([0-9.]*%), simulated [0-9.]" \
  "$WORK/long.err"
finish
