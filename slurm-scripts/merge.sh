# The merge job of a sliced sweep (faultsweep.sbatch with FS_MODE=merge; sourced, not run).
#
# Merges the slice files into OUT. While OUT is incomplete, every unfinished slice is either
# still going (a job of its chain is queued or running: this job resubmits itself after those
# jobs) or dead (its chain ended without completing it: after a 2, 3 or 4 from faultsweep, or
# with its resubmissions used up). A dead slice never finishes by itself, so the merge gives up
# at once instead of waiting for the others: after FS_MERGE_GRACE seconds (default 60) of
# looking at the queue again, it names each dead slice in the history with the command that
# resumes it. A slice whose job never ran the script is submitted again instead.

# The ids of this user's queued or running jobs, one a line (an array task as ID_i, a pending
# part of an array as ID_[i-j]); fails when squeue does (slurmctld busy or down).
fs_queued() { squeue -h -u "$(id -un)" -o %i 2>/dev/null; }

# fs_slice_alive I QUEUED: true if a job of slice I's chain is among QUEUED.
fs_slice_alive() {
  local i=$1 queued=$2 id kind _attempt s
  while read -r id kind _attempt s; do
    case $kind in
      array) grep -qx -e "${id}_$i" -e "${id}_\[.*" <<<"$queued" && return 0 ;;
      sweep) [ "$s" = "$i" ] && grep -qx "$id" <<<"$queued" && return 0 ;;
    esac
  done <"$FS_LOGDIR/jobids"
  return 1
}

# fs_merge_wait: sets DEAD (unfinished slices with no job left; "squeue" if the queue could not
# be read) after re-checking a dead verdict for up to FS_MERGE_GRACE seconds.
fs_merge_wait() {
  local deadline=$((SECONDS + ${FS_MERGE_GRACE:-60})) queued i
  while :; do
    DEAD=()
    if queued=$(fs_queued); then
      for ((i = 0; i < FS_SLICES; i++)); do
        [ "$(fs_output_state "$(fs_slice_out "$i")" sliced)" = complete ] && continue
        fs_slice_alive "$i" "$queued" || DEAD+=("$i")
      done
    else
      DEAD=(squeue)
    fi
    [ ${#DEAD[@]} -eq 0 ] || [ $SECONDS -ge $deadline ] && return 0
    sleep $((deadline - SECONDS < 5 ? deadline - SECONDS : 5))
  done
}

fs_merge_job() {
  local inputs=() i f rc=0 first last id kind queued
  for ((i = 0; i < FS_SLICES; i++)); do
    f=$(fs_slice_out "$i")
    [ -e "$f" ] && inputs+=("$f")
  done
  if [ ${#inputs[@]} -gt 0 ]; then
    "$FS_BIN" merge "$FS_OUT" "${inputs[@]}" --overwrite || rc=$?
  else
    fs_log "no slice files yet"
  fi
  if [ $rc -eq 0 ] && [ ${#inputs[@]} -gt 0 ]; then
    first=$("$FS_BIN" inspect "$FS_OUT" 2>/dev/null | sed -n 1p)
    case $first in *", COMPLETE")
      note "merge: $FS_OUT complete (${#inputs[@]} slices)"
      return 0
      ;;
    esac
  fi
  if [ $rc -ne 0 ]; then
    note "merge failed with exit $rc ($(fs_exit_meaning $rc))"
    return "$rc"
  fi
  fs_merge_wait
  if [ "${DEAD[*]}" = squeue ]; then
    note "merge: squeue failed for ${FS_MERGE_GRACE:-60} s, so the slices' jobs are unknown;" \
      "merge by hand once they have ended: $(fs_resume_cmd)"
    return 1
  fi
  # A slice whose job never ran the batch script (Slurm ended it first, e.g. its time limit
  # passed while a loaded node was still starting it) has lost nothing: submit it again.
  local lost=() gone=() pending=()
  for i in "${DEAD[@]}"; do
    if [ "$FS_ATTEMPT" -lt "$FS_MAX_RESUBMITS" ] &&
      ! grep -q " attempt [0-9]* slice $i/$FS_SLICES:" "$FS_LOGDIR/history" 2>/dev/null; then
      lost+=("$i")
    else
      gone+=("$i")
    fi
  done
  if [ ${#gone[@]} -gt 0 ]; then
    for i in "${gone[@]}"; do
      last=$(grep " slice $i/$FS_SLICES: exit " "$FS_LOGDIR/history" 2>/dev/null | tail -1)
      last=${last#* slice "$i/$FS_SLICES": }
      note "merge: slice $i/$FS_SLICES ended without completing (its last job: ${last:-none}) and" \
        "no job of its chain is left"
    done
    note "merge: gives up, $FS_OUT is incomplete; resume the slices and the merge by hand:" \
      "$(fs_resume_cmd "${DEAD[*]}")"
    fs_log "slices ${DEAD[*]} ended without completing: see $FS_LOGDIR/history"
    return 1
  fi
  for i in "${lost[@]}"; do
    id=$(fs_submit_sweep 0 "$i" "") || return 1
    note "merge: slice $i/$FS_SLICES never ran (Slurm ended its job before the script started):" \
      "resubmitted as job $id"
    pending+=("$id")
  done
  # Every unfinished slice has a job queued or running: merge again after those jobs.
  queued=$(fs_queued) || queued=""
  while read -r id kind _; do
    case $kind in
      array) grep -q "^${id}_" <<<"$queued" && pending+=("$id") ;;
      sweep) grep -qx "$id" <<<"$queued" && [[ " ${pending[*]} " != *" $id "* ]] && pending+=("$id") ;;
    esac
  done <"$FS_LOGDIR/jobids"
  if [ ${#pending[@]} -gt 0 ] && [ "$FS_ATTEMPT" -lt "$FS_MAX_RESUBMITS" ]; then
    local next
    next=$(fs_submit_merge $((FS_ATTEMPT + 1)) "afterany$(printf ':%s' "${pending[@]}")") ||
      return 1
    note "merge: incomplete; waits for ${pending[*]} in job $next"
    return 75
  fi
  note "merge: $FS_OUT is incomplete and no slice job is left; merge by hand: $(fs_resume_cmd)"
  fs_log "the merged file is incomplete and no slice job is queued: see $FS_LOGDIR"
  return 1
}
