#!/usr/bin/env bash
# The report step of `scripts/reproduce.sh --slurm` (a batch job, submitted after the sweeps):
# if a results file is still incomplete while jobs of the reproduction sweeps are queued or
# running (walltime successors), it resubmits itself after them; otherwise it builds the report.
# The sweeps' logs are under $FS_LOG_ROOT (default slurm-logs, as slurm-scripts/submit.sh).
#   reproduce_slurm_report.sh --mode MODE --results DIR --out DIR PAPER...
set -euo pipefail
if [ $# -lt 6 ] || [ "$1" != --mode ] || [ "$3" != --results ] || [ "$5" != --out ]; then
  sed -n '2,5p' "$0" >&2
  exit 2
fi
mode=$2 results=$4 out=$6
shift 6
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Job ids of the reproduction sweeps (first column of each sweep's jobids file) still in the queue.
logs=${FS_LOG_ROOT:-slurm-logs}
pending=()
for f in "$logs"/repro-"$mode"-*/jobids; do
  [ -f "$f" ] || continue
  while read -r id _; do
    squeue -h -j "$id" 2>/dev/null | grep -q . && pending+=("$id")
  done <"$f"
done
if [ ${#pending[@]} -gt 0 ]; then
  sbatch --parsable --job-name "repro-$mode-report" --chdir "$PWD" --ntasks 1 \
    --output "$logs/repro-$mode-report-%j.out" \
    --dependency="afterany:$(IFS=:; echo "${pending[*]}")" "$0" --mode "$mode" \
    --results "$results" --out "$out" "$@"
  exit 0
fi
PYTHONPATH="$PWD/analysis${PYTHONPATH:+:$PYTHONPATH}" /usr/bin/python3 -m reproduce.report \
  --results "$results" --out "$out" --mode "$mode" --papers "$@"
