#!/usr/bin/env bash
# The gate for a change that may move results in their last bits (docs/results-schema.md,
# results_version): runs every golden job and every reproduction job, at a few replicas, on two
# builds and compares every dataset of their results files (scripts/equivalence_compare.py):
# real metrics within relative 1e-12, counts, decisions and recorded schedules identical.
# Prints the largest relative difference of each metric of each job, and a summary line.
#
#   bash scripts/equivalence.sh OLD_BIN NEW_BIN [--replicas N] [--golden-only] [--keep DIR]
#                               [PAPER...]
#
# OLD_BIN, NEW_BIN   two faultsweep binaries (e.g. a build of the last release and build/faultsweep)
# --replicas N       replicas of each reproduction job (default 2; golden jobs run as they are)
# --golden-only      only tests/golden/jobs (seconds)
# --keep DIR         keep the results files in DIR (default: a temporary folder, removed)
# PAPER...           reproduction jobs of these papers only (plank zhang fars gottumukkala; default
#                    all). Jobs that read the real logs need FAULTSWEEP_DATA (docs/data.md); a job
#                    that cannot run on the OLD build (an input it does not know) is reported as
#                    skipped, not as a difference; a job that neither build can run fails.
# Exit 0 when every compared job passes, 1 when one differs, 2 on bad arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
old=$1 new=$2
shift 2
replicas=2 golden_only=0 keep="" papers=()
while [ $# -gt 0 ]; do
  case $1 in
    --replicas) replicas=${2:?--replicas needs a number}; shift 2 ;;
    --golden-only) golden_only=1; shift ;;
    --keep) keep=${2:?--keep needs a folder}; shift 2 ;;
    -h|--help) usage ;;
    plank|zhang|fars|gottumukkala) papers+=("$1"); shift ;;
    *) echo "equivalence.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "equivalence.sh: $b is not an executable faultsweep binary" >&2; exit 2; }
done
[[ "$replicas" =~ ^[1-9][0-9]*$ ]] || { echo "equivalence.sh: --replicas must be a positive whole number, not '$replicas'" >&2; exit 2; }
old=$(readlink -f "$old") new=$(readlink -f "$new")
[ ${#papers[@]} -gt 0 ] || papers=(plank zhang fars gottumukkala)
if [ -n "$keep" ]; then
  mkdir -p "$keep"
  work=$(readlink -f "$keep")
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/old" "$work/new" "$work/jobs"
passed=0 failed=0 skipped=0

# compare_job NAME JOB DIR: runs JOB (from folder DIR) on both builds and compares the files.
compare_job() {
  local name=$1 job=$2 dir=$3 rc=0
  if ! (cd "$dir" && "$old" run "$job" --out "$work/old/$name.h5" --overwrite -q) \
    >"$work/old/$name.log" 2>&1; then
    # A job the new build runs but the old one cannot (an input it does not know) is skipped; a
    # job neither can run (a missing input) compares nothing, so it fails the check.
    if (cd "$dir" && "$new" run "$job" --out "$work/new/$name.h5" --overwrite -q) \
      >"$work/new/$name.log" 2>&1; then
      echo "  $name: skipped: the old build cannot run it ($(tail -1 "$work/old/$name.log"))"
      skipped=$((skipped + 1))
    else
      echo "  $name: FAIL: neither build can run it ($(tail -1 "$work/new/$name.log"))"
      failed=$((failed + 1))
    fi
    return 0
  fi
  if ! (cd "$dir" && "$new" run "$job" --out "$work/new/$name.h5" --overwrite -q) \
    >"$work/new/$name.log" 2>&1; then
    echo "  $name: FAIL: the new build cannot run it ($(tail -1 "$work/new/$name.log"))"
    failed=$((failed + 1))
    return 0
  fi
  /usr/bin/python3 scripts/equivalence_compare.py "$work/old/$name.h5" "$work/new/$name.h5" \
    --label "$name" || rc=$?
  if [ $rc -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

echo "equivalence: $old (old) vs $new (new)"
for job in tests/golden/jobs/*.toml; do
  compare_job "golden-$(basename "$job" .toml)" "$(readlink -f "$job")" tests/golden/jobs
done

if [ "$golden_only" = 0 ]; then
  # The reproduction jobs as scripts/reproduce.sh runs them, with `replicas` cut to N.
  source scripts/reproduce_lib.sh
  if [ -z "${FAULTSWEEP_DATA:-}" ] && [ -L data ]; then FAULTSWEEP_DATA=$(readlink -f data); fi
  if [ -n "${FAULTSWEEP_DATA:-}" ]; then export FAULTSWEEP_DATA; bash scripts/link_data.sh >/dev/null; fi
  repro_bin=$new repro_results=$work/inputs
  for paper in "${papers[@]}"; do
    if [ "$paper" = gottumukkala ]; then repro_gottumukkala_inputs >/dev/null 2>&1 || true; fi
    for job in $(repro_jobs "$paper"); do
      name=$(echo "${job#jobs/}" | tr '/' '-')
      name=${name%.toml}
      copy="$work/jobs/$name.toml"
      jobdir=$(cd "$(dirname "$job")" && pwd)
      # Generated inputs (Gottumukkala's Ch. 6 traces, named ../../results/...) come from
      # $work/inputs, where repro_gottumukkala_inputs drew them; other relative paths are made
      # absolute, and the files beside the job (named without ./, e.g. a node table) are linked
      # beside the copy.
      sed -e "s/^replicas *= *[0-9][0-9]*/replicas = $replicas/" \
        -e "s#\"\\.\\./\\.\\./results/#\"$work/inputs/#g" \
        -e "s#\"\\.\\./#\"$jobdir/../#g" -e "s#\"\\./#\"$jobdir/#g" "$job" >"$copy"
      for f in "$jobdir"/*; do
        case $f in *.toml | *.md) ;; *) if [ -f "$f" ]; then ln -sfn "$f" "$work/jobs/"; fi ;; esac
      done
      compare_job "$name" "$copy" "$jobdir"
    done
  done
fi
echo "equivalence: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
