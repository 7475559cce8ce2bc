# Shared by the reproduction scripts (reproduce_zhang.sh, zhang_sensitivity.sh, gottumukkala_ch6.sh):
# source it, then `study_init "$@"` and `study_run PREFIX JOB`.
#   study_init: cd to the checkout, --rerun as the first argument -> study_flag=--overwrite (else
#     --resume: complete results are kept, `run --resume` says "nothing to do" and refuses, listing
#     the changes, if a job file changed since), link <repo>/data -> $FAULTSWEEP_DATA, build with
#     scripts/setup.sh when build/faultsweep is missing (a FAULTSWEEP_BIN that does not exist is
#     an error, exit 2).
#   study_run PREFIX JOB: check JOB, run it on $RANKS (default 2) MPI ranks under `nice -n $NICE`
#     (default 0) and print how long it took.
study_init() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  study_flag=--resume
  if [ "${1:-}" = "--rerun" ]; then study_flag=--overwrite; fi
  bash scripts/link_data.sh
  study_bin="${FAULTSWEEP_BIN:-build/faultsweep}"
  if [ -n "${FAULTSWEEP_BIN:-}" ] && [ ! -x "$study_bin" ]; then
    echo "$(basename "$0"): FAULTSWEEP_BIN=$study_bin: no such executable" >&2
    exit 2
  fi
  if [ ! -x "$study_bin" ]; then bash scripts/setup.sh --target faultsweep; fi
  study_ranks="${RANKS:-2}"
  study_start=$(date +%s)
}

study_run() {
  local prefix=$1 job=$2 t0
  "$study_bin" check "$job" >/dev/null
  t0=$(date +%s)
  nice -n "${NICE:-0}" mpirun -q --allow-run-as-root --oversubscribe -np "$study_ranks" \
    "$study_bin" run "$job" "$study_flag" -q
  echo "$prefix: $job in $(( $(date +%s) - t0 )) s on $study_ranks ranks"
}
