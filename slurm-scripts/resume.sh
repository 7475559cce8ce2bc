#!/usr/bin/env bash
# Resubmits a sweep whose chain of jobs ended without completing it (the history says why, and
# names this command): every job runs `faultsweep run --resume`, so no finished task runs again.
#
#   slurm-scripts/resume.sh LOGDIR              an unsliced sweep: a new chain
#   slurm-scripts/resume.sh LOGDIR SLICE...     a sliced one: those slices' chains (none: only
#                                               the merge), then a merge job after them
#
# LOGDIR is the sweep's log folder (FS_LOG_ROOT/NAME). The sweep's settings are those of its
# submission (LOGDIR/sweep.env); the chains get FS_MAX_RESUBMITS resubmissions again.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"
[ $# -ge 1 ] && [ "$1" != -h ] && [ "$1" != --help ] ||
  { sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }
[ -r "$1/sweep.env" ] || fs_die "$1 is not a sweep's log folder (no sweep.env)"
FS_LOGDIR=$(cd "$1" && pwd)
shift
# shellcheck disable=SC1091
source "$FS_LOGDIR/sweep.env"
cd "$FS_WORKDIR"
note() { echo "$(date -u +%FT%TZ) resume.sh $*" >>"$FS_LOGDIR/history"; }

# A chain that still has a job queued must not get a second one (two jobs, one journal).
queued=$(squeue -h -u "$(id -un)" -o %i) || fs_die "squeue failed: cannot tell what is queued"
busy() { # busy SLICE: a job of that chain ("-" for an unsliced sweep) is queued or running
  local id kind _a s
  while read -r id kind _a s; do
    [ "$kind" = merge ] && continue
    if [ "$kind" = array ]; then
      grep -qx -e "${id}_$1" -e "${id}_\[.*" <<<"$queued" && return 0
    elif [ "$s" = "$1" ] && grep -qx "$id" <<<"$queued"; then
      return 0
    fi
  done <"$FS_LOGDIR/jobids"
  return 1
}

if [ "$FS_SLICES" -eq 1 ]; then
  [ $# -eq 0 ] || fs_die "$FS_NAME is not sliced: give no slice numbers"
  busy - && fs_die "a job of $FS_NAME is still queued or running: it goes on by itself"
  id=$(fs_submit_sweep 0 "" "")
  note "resubmitted the chain as job $id"
  fs_log "resubmitted $FS_NAME as job $id; logs in $FS_LOGDIR"
  exit 0
fi
ids=()
for s in "$@"; do
  [[ "$s" =~ ^[0-9]+$ ]] && [ "$s" -lt "$FS_SLICES" ] ||
    fs_die "slice $s: expected a number from 0 to $((FS_SLICES - 1))"
  busy "$s" && fs_die "a job of slice $s is still queued or running: it goes on by itself"
done
for s in "$@"; do
  ids+=("$(fs_submit_sweep 0 "$s" "")")
  note "resubmitted slice $s/$FS_SLICES as job ${ids[-1]}"
done
dep=""
[ ${#ids[@]} -gt 0 ] && dep="afterany$(printf ':%s' "${ids[@]}")"
mid=$(fs_submit_merge 0 "$dep")
note "resubmitted the merge as job $mid"
fs_log "resubmitted ${ids[*]:-no slice} and the merge job $mid; logs in $FS_LOGDIR"
