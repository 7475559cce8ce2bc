#!/usr/bin/env bash
# scripts/reproduce.sh --tiny end to end (one job per paper at 2 replicas, the real data): the
# report builds, every paper has rows and every row has a value of ours, a rerun reuses every
# results file, and headless Chromium opens every page without a console error, a missing image
# or a broken link (and does report them on a page made to have them). ~30 s on 2 cores.
# Prints SKIP and exits 0 when FAULTSWEEP_DATA is unset (Zhang's tiny job reads CTC-SP2).
set -euo pipefail
if [ -z "${FAULTSWEEP_DATA:-}" ]; then
  echo "SKIP: FAULTSWEEP_DATA is not set (the folder with workloads/*.swf.gz and failures/lanl/)"
  exit 0
fi
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
export PYTHONPATH="$SRC/analysis${PYTHONPATH:+:$PYTHONPATH}"
R=$WORK/results
OUT=$WORK/report

section "reproduce.sh --tiny"
RC=0
FAULTSWEEP_BIN=$FS bash "$SRC/scripts/reproduce.sh" --tiny --results "$R" --out "$OUT" \
  >"$WORK/tiny.err" 2>&1 || RC=$?
expect_rc "reproduce.sh --tiny runs" 0 tiny
for p in index plank zhang fars gottumukkala; do
  check "report page $p.html" test -s "$OUT/$p.html"
done
check "a progress line before each job" grep -q "reproduce: job 5 of 5 (jobs/gottumukkala/table6_1.toml), elapsed" "$WORK/tiny.err"
check "timings of this run kept in the results folder" test "$(grep -c "	tiny	ran	" "$R/timings.tsv")" -eq 5
check "the quick/tiny copy has 2 replicas" grep -q '^replicas = 2 ' "$R/jobs/jobs/zhang/fig3a.toml"
check "every page says TINY" bash -c "grep -L 'TINY run' '$OUT'/*.html | grep -q . && exit 1 || exit 0"
check "every paper has rows, every row a value and a grade by the rules" \
  /usr/bin/python3 - "$R" "$WORK/again" "$SRC/analysis/tests" <<'PY'
import sys
from pathlib import Path
from reproduce.report.__main__ import build
from reproduce.report.rows import has_value
sys.path.insert(0, sys.argv[3])
from test_grades import violations  # the rule table restated (docs/reproduce.md)
pages = build(Path(sys.argv[1]), Path(sys.argv[2]), "tiny", ["plank", "zhang", "fars", "gottumukkala"])
bad = [(p.key, r.item) for p in pages for r in p.rows if not has_value(r)]
empty = [p.key for p in pages if not p.rows]
wrong = [(p.key, r.item, v) for p in pages for r in p.rows for v in violations(r)]
print("rows:", {p.key: len(p.rows) for p in pages}, "without a value:", bad, "empty:", empty,
      "grades against the rules:", wrong)
sys.exit(1 if bad or empty or wrong else 0)
PY

section "a rerun reuses every results file"
RC=0
FAULTSWEEP_BIN=$FS bash "$SRC/scripts/reproduce.sh" --tiny --results "$R" --out "$OUT" \
  >"$WORK/again.err" 2>&1 || RC=$?
expect_rc "second run" 0 again
check "five jobs reused" test "$(grep -c 'complete, reused' "$WORK/again.err")" -eq 5
# A results file written from another version of its job file is not taken as done.
/usr/bin/python3 -c 'import sys, h5py
with h5py.File(sys.argv[1], "r+") as f: f.attrs["job_file_sha256"] = "0" * 64' "$R/plank/table4.h5"
RC=0
FAULTSWEEP_BIN=$FS bash "$SRC/scripts/reproduce.sh" --tiny --results "$R" --out "$OUT" plank \
  >"$WORK/stale.err" 2>&1 || RC=$?
expect_rc "rerun after a job file change" 0 stale
check "that file is not reused" bash -c "! grep -q 'table4.toml: complete, reused' '$WORK/stale.err'"

section "--slurm with stand-in sbatch/squeue: one sweep per job, then the report after them"
mkdir -p "$WORK/bin"
cat >"$WORK/bin/sbatch" <<'SH'
#!/usr/bin/env bash
n=$(( $(wc -l <"$FAKE_SBATCH_LOG" 2>/dev/null || echo 0) + 100 ))
echo "$n $*" >>"$FAKE_SBATCH_LOG"
echo "$n"
SH
printf '#!/usr/bin/env bash\nexit 0\n' >"$WORK/bin/squeue"
chmod +x "$WORK/bin/sbatch" "$WORK/bin/squeue"
export FAKE_SBATCH_LOG=$WORK/sbatch.log
printf 'FS_BIN=%q\n' "$FS" >"$WORK/site.conf"
RC=0
PATH="$WORK/bin:$PATH" FAULTSWEEP_SITE=$WORK/site.conf FS_LOG_ROOT=$WORK/slurm-logs \
  FAULTSWEEP_BIN=$FS bash "$SRC/scripts/reproduce.sh" --tiny --slurm --results "$WORK/sres" \
  --out "$WORK/sreport" plank gottumukkala >"$WORK/slurm.err" 2>&1 || RC=$?
expect_rc "reproduce.sh --slurm submits" 0 slurm
check "three sweeps and a report job submitted" test "$(wc -l <"$FAKE_SBATCH_LOG")" -eq 4
check "the report job waits for all three" grep -q -- "--dependency=afterany:100:101:102 .*reproduce_slurm_report.sh" "$FAKE_SBATCH_LOG"
RC=0
PATH="$WORK/bin:$PATH" FS_LOG_ROOT=$WORK/slurm-logs bash "$SRC/scripts/reproduce_slurm_report.sh" \
  --mode tiny --results "$WORK/sres" --out "$WORK/sreport" plank >"$WORK/sreport.err" 2>&1 || RC=$?
expect_rc "the report job, nothing queued: builds the report" 0 sreport
check "its index exists" test -s "$WORK/sreport/index.html"
printf '#!/usr/bin/env bash\n[ "$3" = 101 ] && echo "101 RUNNING"\nexit 0\n' >"$WORK/bin/squeue"
rm -rf "$WORK/sreport"
RC=0
PATH="$WORK/bin:$PATH" FS_LOG_ROOT=$WORK/slurm-logs bash "$SRC/scripts/reproduce_slurm_report.sh" \
  --mode tiny --results "$WORK/sres" --out "$WORK/sreport" plank >"$WORK/sreport.err" 2>&1 || RC=$?
expect_rc "the report job, a sweep still running: resubmits itself" 0 sreport
check "after that sweep" grep -q -- "--dependency=afterany:101 .*reproduce_slurm_report.sh" "$FAKE_SBATCH_LOG"
check "and builds nothing yet" test ! -e "$WORK/sreport/index.html"

section "the pages in headless Chromium"
if ! command -v chromium >/dev/null; then
  fail "chromium is not installed (scripts/setup.sh installs it)"
else
  RC=0
  /usr/bin/python3 -m reproduce.report.browser check "$OUT" >"$WORK/browser.err" 2>&1 || RC=$?
  expect_rc "every page loads clean" 0 browser
  bad=$WORK/bad
  mkdir -p "$bad"
  cat >"$bad/broken.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>x</title><link rel="icon" href="data:,"></head>
<body><img src="missing.png" alt="x"><a href="nowhere.html">x</a><a href="#nothing">y</a>
<script>console.error("boom")</script></body></html>
HTML
  RC=0
  /usr/bin/python3 -m reproduce.report.browser check "$bad" >"$WORK/bad.err" 2>&1 || RC=$?
  expect_rc "a broken page fails the check" 1 bad
  for what in "image not shown" "broken link" "broken anchor" "console error"; do
    check "it reports: $what" grep -q "$what" "$WORK/bad.err"
  done
fi
finish
