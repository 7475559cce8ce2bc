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
  : "${FS_MERGE_GRACE:=60}"
  [ -n "${FS_SBATCH_EXTRA+x}" ] || FS_SBATCH_EXTRA=()
  if [ -n "$site" ]; then
    [ -r "$site" ] || fs_die "site config $site cannot be read"
    # shellcheck disable=SC1090
    source "$site"
  fi
}

# fs_common_opts VAR=value...: the sbatch options every job of the sweep gets (into the array
# FS_OPTS) and the variables its environment gets on top of the submitting one (into FS_ENV).
# fs_sbatch puts those in sbatch's own environment with --export=ALL, not on
# --export=ALL,VAR=value: given a list, Slurm also loads the user's login environment on the
# node (`su - USER`) before the script starts, which costs every job of a chain that login's
# time (61 s on a machine whose profile is slow) out of its walltime.
fs_common_opts() {
  FS_ENV=("FS_LOGDIR=$FS_LOGDIR" "$@")
  FS_OPTS=(--parsable --chdir="$FS_WORKDIR" --export=ALL)
  [ -n "$FS_PARTITION" ] && FS_OPTS+=(--partition="$FS_PARTITION")
  [ -n "$FS_ACCOUNT" ] && FS_OPTS+=(--account="$FS_ACCOUNT")
  [ -n "$FS_QOS" ] && FS_OPTS+=(--qos="$FS_QOS")
  FS_OPTS+=("${FS_SBATCH_EXTRA[@]}")
  return 0
}

# fs_sbatch: submits faultsweep.sbatch with FS_ENV and FS_OPTS (from fs_common_opts and the
# caller's additions); prints the job id.
fs_sbatch() {
  local id
  id=$(env "${FS_ENV[@]}" sbatch "${FS_OPTS[@]}" "$FS_SCRIPTS/faultsweep.sbatch") ||
    fs_die "sbatch failed"
  echo "${id%%;*}"
}

# fs_submit_sweep ATTEMPT SLICE_INDEX DEPENDENCY [FAILS]: submits one sweep job (SLICE_INDEX ""
# for an unsliced sweep, "array" for the whole job array of --slices). FAILS: how many jobs in a
# row before it ended without faultsweep's own exit code and without a stop request (a crashed
# launcher); the chain ends at the second. Prints the job id.
fs_submit_sweep() {
  local attempt=$1 slice=$2 dep=$3 fails=${4:-0} id kind=sweep
  # FS_MODE explicitly: a merge job that resubmits a slice must not hand on its own mode.
  fs_common_opts FS_MODE=sweep "FS_ATTEMPT=$attempt" "FS_SLICE_INDEX=$slice" "FS_FAILS=$fails"
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
  id=$(fs_sbatch) || exit
  echo "$id $kind $attempt ${slice:--}" >>"$FS_LOGDIR/jobids"
  echo "$id"
}

# fs_submit_merge ATTEMPT DEPENDENCY: the job that merges the slices once they are done
# (DEPENDENCY "": at once).
fs_submit_merge() {
  local attempt=$1 dep=$2 id
  fs_common_opts "FS_ATTEMPT=$attempt" "FS_MODE=merge"
  FS_OPTS+=(--job-name="fs-$FS_NAME-merge" --ntasks=1 --time=00:30:00
    --output="$FS_LOGDIR/%x-%j.out" --open-mode=append)
  [ -n "$dep" ] && FS_OPTS+=(--dependency="$dep")
  id=$(fs_sbatch) || exit
  echo "$id merge $attempt -" >>"$FS_LOGDIR/jobids"
  echo "$id"
}

# The output file of slice i (the name `faultsweep run --slice` would choose itself).
fs_slice_out() {
  local base=${FS_OUT%.*} ext=${FS_OUT##*.}
  [ "$ext" = "$FS_OUT" ] && ext="" || ext=".$ext"
  echo "$base.slice-$1-of-$FS_SLICES$ext"
}

# fs_exit_meaning RC: what a launcher's exit code says, for the history.
fs_exit_meaning() {
  case $1 in
    0) echo "complete" ;;
    2) echo "bad input: the job file, the command line, or a journal or results file of another job" ;;
    3) echo "a file could not be read or written: a full disk, a damaged journal or results file, or out of memory" ;;
    4) echo "a bug in faultsweep or a failed model run" ;;
    75) echo "stopped; the work done is in the journal" ;;
    1) echo "the launcher failed (see the job's log)" ;;
    *)
      if [ "$1" -gt 128 ] && [ "$1" -lt 160 ]; then
        echo "the launcher died of SIG$(kill -l $(($1 - 128)) 2>/dev/null || echo $(($1 - 128)))"
      else
        echo "an exit code faultsweep never uses (see the job's log)"
      fi
      ;;
  esac
}

# fs_output_state OUT SLICED: "complete" (a finished sweep, or a finished slice: its journal is
# removed only once every task of the slice is done), "partial" (a journal or a partial file to
# resume from) or "none" (the run was stopped before it wrote anything: nothing is lost).
fs_output_state() {
  local out=$1 sliced=$2 first
  if [ -e "$out" ] && [ ! -e "$out.journal" ]; then
    [ -n "$sliced" ] && { echo complete; return; }
    first=$("$FS_BIN" inspect "$out" 2>/dev/null | sed -n 1p)
    case $first in *", COMPLETE") echo complete; return ;; esac
  fi
  if [ -e "$out" ] || [ -e "$out.journal" ]; then echo partial; else echo none; fi
}

# fs_resume_cmd [SLICE]: the command that resubmits a chain that ended without completing.
fs_resume_cmd() {
  echo "$FS_SCRIPTS/resume.sh $FS_LOGDIR${1:+ $1}"
}
