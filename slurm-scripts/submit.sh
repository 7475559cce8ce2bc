#!/usr/bin/env bash
# Submits a faultsweep sweep to Slurm; the jobs resubmit themselves until it is complete.
#
#   slurm-scripts/submit.sh [options] JOB.toml OUT.h5
#     --slices N     a job array of N tasks (task i runs `--slice i/N`), then a merge job
#     --ntasks N     MPI ranks per job (per array task)          [site: FS_NTASKS]
#     --time T       walltime per job, e.g. 04:00:00             [site: FS_TIME]
#     --name NAME    the sweep's name: job names and log folder  [default: OUT's stem]
#     --site FILE    site config (see site.conf.example)         [default: $FAULTSWEEP_SITE,
#                                                                  else site.conf next to this]
#
# Each job runs `faultsweep run JOB --out OUT --resume` (always --resume: a first run with
# nothing to resume just starts). Slurm sends the job's shell SIGUSR1 FS_SIGNAL_LEAD seconds
# before the walltime (--signal=B:USR1@...); it forwards USR1 to mpirun / srun, faultsweep stops
# cleanly and exits 75, and the job submits its successor (dependency afterany on itself) and
# exits 75. At most FS_MAX_RESUBMITS successors. Logs: $FS_LOG_ROOT/NAME/.
set -euo pipefail
FS_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$FS_SCRIPTS/lib.sh"

usage() {
  sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 2
}

slices=1 ntasks="" time="" name="" site=${FAULTSWEEP_SITE:-}
while [ $# -gt 0 ]; do
  case $1 in
    --slices) slices=$2; shift 2 ;;
    --ntasks) ntasks=$2; shift 2 ;;
    --time) time=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --site) site=$2; shift 2 ;;
    -h | --help) usage ;;
    -*) fs_die "unknown option $1 (see --help)" ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || usage
[ -z "$site" ] && [ -r "$FS_SCRIPTS/site.conf" ] && site=$FS_SCRIPTS/site.conf
fs_load_site "$site"
[ -n "$ntasks" ] && FS_NTASKS=$ntasks
[ -n "$time" ] && FS_TIME=$time
[[ "$slices" =~ ^[1-9][0-9]*$ ]] || fs_die "--slices $slices: expected a positive integer"
[ -r "$1" ] || fs_die "job file $1 cannot be read"

FS_WORKDIR=$PWD
FS_JOB=$1
FS_OUT=$2
FS_SLICES=$slices
FS_NAME=${name:-$(basename "${FS_OUT%.*}")}
case $FS_LOG_ROOT in /*) ;; *) FS_LOG_ROOT=$FS_WORKDIR/$FS_LOG_ROOT ;; esac
FS_LOGDIR=$FS_LOG_ROOT/$FS_NAME
if [ -e "$FS_LOGDIR/sweep.env" ]; then
  fs_die "$FS_LOGDIR already holds a sweep; choose another --name, or remove the folder"
fi
mkdir -p "$FS_LOGDIR"
# Check the job before queueing anything (bad input fails here, not in the queue).
if command -v "$FS_BIN" >/dev/null 2>&1; then
  "$FS_BIN" check "$FS_JOB" --out "$FS_OUT" >"$FS_LOGDIR/check.txt" ||
    fs_die "$FS_JOB is not a valid job (or $FS_OUT cannot be written)"
fi

# Everything a job of this sweep needs, sourced by faultsweep.sbatch.
{
  for v in FS_SCRIPTS FS_WORKDIR FS_JOB FS_OUT FS_SLICES FS_NAME FS_LOGDIR FS_PARTITION \
    FS_ACCOUNT FS_QOS FS_MODULES FS_SETUP FS_BIN FS_LAUNCHER FS_MPIRUN_FLAGS FS_SRUN_FLAGS \
    FS_NTASKS FS_NODES FS_TIME FS_SIGNAL_LEAD FS_MAX_RESUBMITS FS_MERGE_GRACE; do
    printf '%s=%q\n' "$v" "${!v}"
  done
  printf 'FS_SBATCH_EXTRA=('
  [ ${#FS_SBATCH_EXTRA[@]} -eq 0 ] || printf '%q ' "${FS_SBATCH_EXTRA[@]}"
  printf ')\n'
} >"$FS_LOGDIR/sweep.env"
# A submission that fails before any job is queued (sbatch refused, Slurm down) leaves nothing
# that would block the same command's retry.
submitted=""
trap '[ -n "$submitted" ] || rm -f "$FS_LOGDIR/sweep.env" "$FS_LOGDIR/jobids"' EXIT

if [ "$FS_SLICES" -eq 1 ]; then
  id=$(fs_submit_sweep 0 "" "")
  submitted=1
  fs_log "submitted sweep $FS_NAME as job $id; logs in $FS_LOGDIR"
else
  id=$(fs_submit_sweep 0 array "")
  submitted=1
  mid=$(fs_submit_merge 0 "afterany:$id")
  fs_log "submitted sweep $FS_NAME as job array $id ($FS_SLICES slices) and merge job $mid;" \
    "logs in $FS_LOGDIR"
fi
echo "$id"
