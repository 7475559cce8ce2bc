# Shared by scripts/reproduce.sh and scripts/reproduce_slurm_report.sh (sourced): the jobs of
# each paper, quick/tiny job copies, running or submitting one job, the timings file.
#   repro_init MODE RANKS RESULTS   then   repro_paper PAPER   (repeat)
# Every job writes RESULTS/<the job's output without its leading results/>, and one line per job
# to RESULTS/timings.tsv: job file, results file, seconds, ranks, mode, ran|reused|submitted, UTC.

# The reproduction jobs of each paper, in the order they run. Gottumukkala's Ch. 6 jobs read the
# failure traces that repro_gottumukkala_inputs draws first.
repro_jobs() {
  case $1 in
    plank) echo jobs/plank/table4.toml jobs/plank/figure4.toml jobs/plank/million_day.toml ;;
    zhang) echo jobs/zhang/*.toml jobs/zhang/sensitivity/*.toml jobs/zhang/combinations/*.toml ;;
    fars) echo jobs/fars/*.toml jobs/fars/sensitivity/*.toml ;;
    gottumukkala)
      echo jobs/gottumukkala/{section4_4,table6_1,fig6_3,fig6_4_5,ch5_lanl,ch5_sdsc}.toml \
        jobs/gottumukkala/{ch6_raopt,ch6_sensitivity}.toml ;;
  esac
}

# --tiny: one cheap job per paper (Gottumukkala: the two deterministic chapters' tables).
repro_tiny_jobs() {
  case $1 in
    plank) echo jobs/plank/table4.toml ;;
    zhang) echo jobs/zhang/fig3a.toml ;;
    fars) echo jobs/fars/baseline_exp.toml ;;
    gottumukkala) echo jobs/gottumukkala/section4_4.toml jobs/gottumukkala/table6_1.toml ;;
  esac
}

repro_init() {
  repro_mode=$1 repro_ranks=$2 repro_results=$3
  if [ -z "${FAULTSWEEP_DATA:-}" ] && [ -L data ]; then FAULTSWEEP_DATA=$(readlink -f data); fi
  if [ -n "${FAULTSWEEP_DATA:-}" ]; then
    export FAULTSWEEP_DATA
    bash scripts/link_data.sh >/dev/null
  else
    echo "reproduce.sh: FAULTSWEEP_DATA is not set and there is no data link: the jobs that" \
      "read the real logs (Zhang, FARS trace, Gottumukkala Ch. 3, 5, 6) will fail" >&2
  fi
  repro_bin=${FAULTSWEEP_BIN:-build/faultsweep}
  [ -x "$repro_bin" ] || bash scripts/setup.sh
  repro_ids=()
}

# repro_replicas N: the replicas of a job of N replicas in this mode.
repro_replicas() {
  case $repro_mode in
    full) echo "$1" ;;
    quick)  # a tenth, at least 3 (a CI needs a few), at most all
      local q=$(( ($1 + 9) / 10 ))
      [ "$q" -lt 3 ] && q=3
      [ "$q" -gt "$1" ] && q=$1
      echo "$q" ;;
    tiny) [ "$1" -lt 2 ] && echo "$1" || echo 2 ;;
  esac
}

# repro_job_file JOB: JOB itself, or (quick/tiny, if it has replicas to cut) a copy under
# RESULTS/jobs/ with fewer replicas and its relative paths made absolute (they resolve against
# the job file's folder, which the copy does not share).
repro_job_file() {
  local job=$1 n want copy dir
  n=$(sed -n 's/^replicas *= *\([0-9][0-9]*\).*/\1/p' "$job" | head -1)
  if [ -z "$n" ] || [ "$repro_mode" = full ]; then echo "$job"; return; fi
  want=$(repro_replicas "$n")
  [ "$want" = "$n" ] && { echo "$job"; return; }
  copy=$repro_results/jobs/$job
  dir=$(cd "$(dirname "$job")" && pwd)
  mkdir -p "$(dirname "$copy")"
  sed -e "s/^replicas *= *[0-9][0-9]*/replicas = $want  # $repro_mode (the paper's setting: $n)/" \
    -e "s#\"\\.\\./#\"$dir/../#g" "$job" >"$copy.new"
  # Rewrite only on a change: an identical copy keeps `run --resume` happy.
  if cmp -s "$copy.new" "$copy"; then rm "$copy.new"; else mv "$copy.new" "$copy"; fi
  echo "$copy"
}

repro_output() {
  local out
  out=$(sed -n 's/^output *= *"\([^"]*\)".*/\1/p' "$1" | head -1)
  echo "$repro_results/${out#results/}"
}

# repro_complete OUT JOB: OUT is complete and was written from JOB as it is now (else `run
# --resume` resumes it, or refuses with the list of changes if JOB changed since).
repro_complete() {
  [ -f "$1" ] && /usr/bin/python3 -c 'import hashlib, sys, h5py
a = h5py.File(sys.argv[1], "r").attrs
sha = a.get("job_file_sha256", b"")
sha = sha.decode() if isinstance(sha, bytes) else str(sha)
ok = int(a.get("complete", 0)) == 1 and sha == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
sys.exit(0 if ok else 1)' "$1" "$2" 2>/dev/null
}

repro_record() {  # JOB OUT SECONDS STATUS
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$repro_ranks" "$repro_mode" "$4" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$repro_results/timings.tsv"
}

repro_job() {
  local job file out t0
  job=$1
  file=$(repro_job_file "$job")
  out=$(repro_output "$job")
  mkdir -p "$(dirname "$out")"
  if repro_complete "$out" "$file"; then
    echo "reproduce: $job: complete, reused ($out)"
    repro_record "$job" "$out" 0 reused
    return
  fi
  "$repro_bin" check "$file" --out "$out" >/dev/null
  if [ "${repro_slurm:-0}" = 1 ]; then
    repro_ids+=("$(slurm-scripts/submit.sh --ntasks "$repro_ranks" --slices "${REPRO_SLICES:-1}" \
      --name "repro-$repro_mode-$(basename "$out" .h5)" "$file" "$out")")
    repro_record "$job" "$out" 0 submitted
    return
  fi
  t0=$(date +%s)
  nice -n "${NICE:-0}" mpirun -q --allow-run-as-root --oversubscribe -np "$repro_ranks" \
    "$repro_bin" run "$file" --out "$out" --resume -q
  echo "reproduce: $job in $(( $(date +%s) - t0 )) s on $repro_ranks ranks"
  repro_record "$job" "$out" $(( $(date +%s) - t0 )) ran
}

# Gottumukkala's inputs: the per-node fit of the whole LANL log (Tables 3.2, 3.3, 3.5) and the
# 10,000-node failure traces of Ch. 6 (scripts/gottumukkala_ch6.sh draws them; seconds).
repro_gottumukkala_inputs() {
  local fit=$repro_results/gottumukkala/lanl_fit.h5
  mkdir -p "$(dirname "$fit")"
  if [ ! -f "$fit" ]; then
    "$repro_bin" fit data/failures/lanl/LA-UR-05-7318-failure-data-1996-2005.csv.xz \
      --out "$fit" >/dev/null
  fi
  CH6_TRACES_ONLY=1 bash scripts/gottumukkala_ch6.sh >/dev/null
}

repro_paper() {
  local paper=$1 jobs job
  if [ "$repro_mode" = tiny ]; then jobs=$(repro_tiny_jobs "$paper"); else jobs=$(repro_jobs "$paper"); fi
  if [ "$paper" = gottumukkala ] && [ "$repro_mode" != tiny ]; then repro_gottumukkala_inputs; fi
  for job in $jobs; do repro_job "$job"; done
}

# --slurm: the report as a batch job after every submitted sweep (afterany: a sweep cut by the
# walltime resubmits itself; the report job then waits for the successors, see
# scripts/reproduce_slurm_report.sh).
repro_slurm_report() {
  local out=$1 dep="" logs=${FS_LOG_ROOT:-slurm-logs}
  shift
  mkdir -p "$logs"
  [ ${#repro_ids[@]} -gt 0 ] && dep="--dependency=afterany:$(IFS=:; echo "${repro_ids[*]}")"
  sbatch --parsable --job-name "repro-$repro_mode-report" --chdir "$PWD" --ntasks 1 \
    --output "$logs/repro-$repro_mode-report-%j.out" $dep \
    scripts/reproduce_slurm_report.sh --mode "$repro_mode" --results "$repro_results" \
    --out "$out" "$@"
}
