# Shared by submit.sh and faultsweep.sbatch (sourced; not run directly).
#
# A sweep's folder ($FS_LOGDIR = $FS_LOG_ROOT/NAME) holds:
#   sweep.env   the settings of the sweep (site config + command line), sourced by every job
#   jobids      every job id submitted for the sweep, one per line ("ID KIND ATTEMPT SLICE")
#   history     one line per job start and end, with exit codes
#   *.out       the jobs' stdout + stderr (%x-%j, or %x-%A_%a for array tasks)

fs_die() {
  echo "faultsweep-slurm: error: $*" >&2
  exit 2
}

fs_log() { echo "faultsweep-slurm: $*" >&2; }

# Defaults, then the site file (if any); values already in the environment win over defaults.
fs_load_site() {
  local site=${1:-}
  : "${FS_PARTITION:=}" "${FS_ACCOUNT:=}" "${FS_QOS:=}" "${FS_MODULES:=}" "${FS_SETUP:=}"
  : "${FS_BIN:=faultsweep}" "${FS_LAUNCHER:=mpirun}" "${FS_MPIRUN_FLAGS=-q}"
  : "${FS_SRUN_FLAGS:=--mpi=pmix}" "${FS_NTASKS:=2}" "${FS_NODES:=}" "${FS_TIME:=01:00:00}"
  : "${FS_SIGNAL_LEAD:=120}" "${FS_MAX_RESUBMITS:=20}" "${FS_LOG_ROOT:=slurm-logs}"
  [ -n "${FS_SBATCH_EXTRA+x}" ] || FS_SBATCH_EXTRA=()
  if [ -n "$site" ]; then
    [ -r "$site" ] || fs_die "site config $site cannot be read"
    # shellcheck disable=SC1090
    source "$site"
  fi
}

# fs_common_opts EXPORTS: the sbatch options every job of the sweep gets (into the array
# FS_OPTS); EXPORTS are extra VAR=value pairs for the job's environment (comma-separated).
fs_common_opts() {
  FS_OPTS=(--parsable --chdir="$FS_WORKDIR" --export="ALL,FS_LOGDIR=$FS_LOGDIR,$1")
  [ -n "$FS_PARTITION" ] && FS_OPTS+=(--partition="$FS_PARTITION")
  [ -n "$FS_ACCOUNT" ] && FS_OPTS+=(--account="$FS_ACCOUNT")
  [ -n "$FS_QOS" ] && FS_OPTS+=(--qos="$FS_QOS")
  FS_OPTS+=("${FS_SBATCH_EXTRA[@]}")
  return 0
}

# fs_submit_sweep ATTEMPT SLICE_INDEX DEPENDENCY: submits one sweep job (SLICE_INDEX "" for an
# unsliced sweep, "array" for the whole job array of --slices). Prints the job id.
fs_submit_sweep() {
  local attempt=$1 slice=$2 dep=$3 id kind=sweep
  fs_common_opts "FS_ATTEMPT=$attempt,FS_SLICE_INDEX=$slice"
  FS_OPTS+=(--job-name="fs-$FS_NAME" --ntasks="$FS_NTASKS" --time="$FS_TIME"
    --signal=B:USR1@"$FS_SIGNAL_LEAD" --open-mode=append)
  [ -n "$FS_NODES" ] && FS_OPTS+=(--nodes="$FS_NODES")
  [ -n "$dep" ] && FS_OPTS+=(--dependency="$dep")
  if [ "$slice" = array ]; then
    kind=array
    FS_OPTS+=(--array="0-$((FS_SLICES - 1))" --output="$FS_LOGDIR/%x-%A_%a.out")
  else
    FS_OPTS+=(--output="$FS_LOGDIR/%x-%j.out")
  fi
  id=$(sbatch "${FS_OPTS[@]}" "$FS_SCRIPTS/faultsweep.sbatch") || fs_die "sbatch failed"
  id=${id%%;*}
  echo "$id $kind $attempt ${slice:--}" >>"$FS_LOGDIR/jobids"
  echo "$id"
}

# fs_submit_merge ATTEMPT DEPENDENCY: the job that merges the slices once they are done.
fs_submit_merge() {
  local attempt=$1 dep=$2 id
  fs_common_opts "FS_ATTEMPT=$attempt,FS_MODE=merge"
  FS_OPTS+=(--job-name="fs-$FS_NAME-merge" --ntasks=1 --time=00:30:00
    --output="$FS_LOGDIR/%x-%j.out" --open-mode=append --dependency="$dep")
  id=$(sbatch "${FS_OPTS[@]}" "$FS_SCRIPTS/faultsweep.sbatch") || fs_die "sbatch failed"
  id=${id%%;*}
  echo "$id merge $attempt -" >>"$FS_LOGDIR/jobids"
  echo "$id"
}

# The output file of slice i (the name `faultsweep run --slice` would choose itself).
fs_slice_out() {
  local base=${FS_OUT%.*} ext=${FS_OUT##*.}
  [ "$ext" = "$FS_OUT" ] && ext="" || ext=".$ext"
  echo "$base.slice-$1-of-$FS_SLICES$ext"
}
