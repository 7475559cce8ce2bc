#!/usr/bin/env bash
# Reproduces the papers (Plank & Thomason 2001, Zhang et al. 2004, FARS 2009, Gottumukkala 2008)
# in one command: runs every reproduction job of the chosen papers, then builds the report
# (report/index.html, one page per paper, figures next to them).
#
#   scripts/reproduce.sh [--quick | --full | --tiny] [--ranks N] [--slurm] [--out DIR]
#                        [--results DIR] [--report-only] [PAPER...]
#
#   PAPER          plank, zhang, fars, gottumukkala (default: all four)
#   --quick        fewer replicas (a tenth of each job's, at least 3): minutes, wide CIs; every
#                  page of the report says QUICK. Results in results/quick/.
#   --full         the papers' settings (the job files as they are; the default). Results where
#                  the job files put them (results/<paper>/), so earlier runs are reused.
#   --tiny         one cheap job per paper at 2 replicas (a smoke test). Results in results/tiny/.
#   --ranks N      MPI ranks per job (default: $RANKS, else 2)
#   --slurm        submit every job through slurm-scripts/submit.sh and the report as a job that
#                  waits for them, instead of running here
#   --out DIR      the report folder (default: report)
#   --results DIR  where the results files go (default: see --quick/--full/--tiny)
#   --report-only  run and build nothing; build the report from the results there are
#   --markdown DIR also write the report's tables as Markdown (docs/papers/tables is the
#                  committed copy: from a --quick run; Plank's from --full, under a minute)
#
# Complete results files are reused and partial ones resumed (`faultsweep run --resume`); a job
# file changed since its results were written is refused with the list of changes (delete that
# results file to rerun it). Env: FAULTSWEEP_DATA (the real data: linked as <repo>/data),
# FAULTSWEEP_BIN (default build/faultsweep, built by scripts/setup.sh if missing; a
# FAULTSWEEP_BIN that does not exist is an error), NICE (0).
# Before each job: "job k of N, elapsed, estimated remaining", from RESULTS/timings.tsv (the
# last run's time of each job). Exit codes: 0; 2 bad options,
# a FAULTSWEEP_BIN that does not exist, --report-only without results; 3 a results file that
# cannot be read (named in one line); otherwise the failing job's own code (docs/command-line.md).
#
# Why a script and not a faultsweep subcommand: reproducing a paper is many sweeps, each an MPI
# program of its own (mpirun or Slurm starts it), plus trace generation and the report, both in
# Python. faultsweep stays one sweep per command; this script only strings those commands
# together, so each step can still be run and checked by hand.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/.."
source scripts/reproduce_lib.sh

usage() {
  sed -n '2,37p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit "${1:-2}"
}

mode=full ranks=${RANKS:-2} slurm=0 out=report results="" report_only=0 papers=() md=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) mode=quick; shift ;;
    --full) mode=full; shift ;;
    --tiny) mode=tiny; shift ;;
    --ranks) ranks=${2:?--ranks needs a number}; shift 2 ;;
    --slurm) slurm=1; shift ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --results) results=${2:?--results needs a folder}; shift 2 ;;
    --report-only) report_only=1; shift ;;
    --markdown) md=(--markdown "${2:?--markdown needs a folder}"); shift 2 ;;
    -h | --help) usage 0 ;;
    -*) echo "reproduce.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    plank | zhang | fars | gottumukkala) papers+=("$1"); shift ;;
    *) echo "reproduce.sh: unknown paper $1 (plank, zhang, fars, gottumukkala)" >&2; exit 2 ;;
  esac
done
[ "${FS_REPRODUCE_TINY:-0}" = 1 ] && mode=tiny
[[ "$ranks" =~ ^[1-9][0-9]*$ ]] || { echo "reproduce.sh: --ranks $ranks: expected a positive integer" >&2; exit 2; }
[ ${#papers[@]} -gt 0 ] || papers=(plank zhang fars gottumukkala)
if [ -z "$results" ]; then
  case $mode in full) results=results ;; *) results=results/$mode ;; esac
fi
if [ "$report_only" = 1 ]; then  # nothing is built or run: only results that exist are read
  [ -d "$results" ] || { echo "reproduce.sh: --report-only: no results folder $results" >&2; exit 2; }
  mkdir -p "$out"
else
  mkdir -p "$results" "$out"
fi
results=$(cd "$results" && pwd)
repro_init "$mode" "$ranks" "$results"
repro_slurm=$slurm

start=$(date +%s)
if [ "$report_only" = 0 ]; then
  repro_need_bin
  repro_link_data
  repro_plan "${papers[@]}"
  repro_run_all
  [ "$slurm" = 1 ] || echo "reproduce.sh: jobs took $(( $(date +%s) - start )) s on $ranks ranks ($mode)"
fi
if [ "$slurm" = 1 ] && [ "$report_only" = 0 ]; then
  repro_slurm_report "$out" "${papers[@]}"
  exit 0
fi
PYTHONPATH="$PWD/analysis${PYTHONPATH:+:$PYTHONPATH}" /usr/bin/python3 -m reproduce.report \
  --results "$results" --out "$out" --mode "$mode" "${md[@]}" --papers "${papers[@]}"
echo "reproduce.sh: report in $out/index.html ($(( $(date +%s) - start )) s in all)"
