#!/usr/bin/env bash
# slurm-scripts/submit.sh when sbatch fails: exit non-zero with the reason, and nothing left in
# the sweep's log folder that blocks the same command's retry; the retry then queues the sweep.
# A stand-in `sbatch` on PATH fails on its first call and succeeds after (no Slurm needed).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
SCRIPTS="$SRC/slurm-scripts"

mkdir -p "$WORK/bin" "$WORK/run/results"
cat >"$WORK/bin/sbatch" <<'SH'
#!/usr/bin/env bash
if [ ! -e "$FAKE_SBATCH_STATE" ]; then
  touch "$FAKE_SBATCH_STATE"
  echo "sbatch: error: Batch job submission failed: Invalid account" >&2
  exit 1
fi
echo "4242"
SH
chmod +x "$WORK/bin/sbatch"
export FAKE_SBATCH_STATE="$WORK/sbatch.failed-once"
cat >"$WORK/run/job.toml" <<'TOML'
[sweep]
model = "markov_availability"
seed = 1
output = "results/retry.h5"
[params]
mode = "evaluate"
N = 8
mttf = "10h"
mttr = "1h"
C = "30s"
L = "30s"
R = "60s"
I = "1h"
[axes]
a = [1, 2]
TOML
site="$WORK/site.conf"
printf 'FS_BIN=%q\nFS_LOG_ROOT=%q\n' "$FS" "$WORK/logs" >"$site"

section "the first submission: sbatch fails"
rc=0
(cd "$WORK/run" && PATH="$WORK/bin:$PATH" bash "$SCRIPTS/submit.sh" --site "$site" \
  job.toml results/retry.h5) >"$WORK/first.out" 2>"$WORK/first.err" || rc=$?
check "submit.sh exits non-zero when sbatch fails" test "$rc" -ne 0
check "it says sbatch failed" grep -q "sbatch failed" "$WORK/first.err"
check "no sweep.env is left behind" test ! -e "$WORK/logs/retry/sweep.env"

section "the same command again"
rc=0
(cd "$WORK/run" && PATH="$WORK/bin:$PATH" bash "$SCRIPTS/submit.sh" --site "$site" \
  job.toml results/retry.h5) >"$WORK/second.out" 2>"$WORK/second.err" || rc=$?
check "the retry succeeds (exit 0)" test "$rc" -eq 0
check "it prints the job id" grep -qx "4242" "$WORK/second.out"
check "the sweep's env is written" test -s "$WORK/logs/retry/sweep.env"
finish
