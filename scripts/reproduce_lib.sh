# Shared by scripts/reproduce.sh and scripts/reproduce_slurm_report.sh (sourced): the jobs of
# each paper, quick/tiny job copies, running or submitting one job, the timings file.
#   repro_init MODE RANKS RESULTS, repro_need_bin, repro_link_data, repro_plan PAPER...,
#   repro_run_all
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
  repro_ids=()
  repro_bin=${FAULTSWEEP_BIN:-build/faultsweep}
}

# repro_link_data: <repo>/data -> $FAULTSWEEP_DATA (only when jobs are to run).
repro_link_data() {
  if [ -z "${FAULTSWEEP_DATA:-}" ] && [ -L data ]; then FAULTSWEEP_DATA=$(readlink -f data); fi
  if [ -n "${FAULTSWEEP_DATA:-}" ]; then
    export FAULTSWEEP_DATA
    bash scripts/link_data.sh >/dev/null
  else
    echo "reproduce.sh: FAULTSWEEP_DATA is not set and there is no data link: the jobs that" \
      "read the real logs (Zhang, FARS trace, Gottumukkala Ch. 3, 5, 6) will fail" >&2
  fi
}

# repro_need_bin: a binary named by FAULTSWEEP_BIN must exist (a typo must not start a build of
# its own); the default build/faultsweep is built when missing, and only that target.
repro_need_bin() {
  if [ -n "${FAULTSWEEP_BIN:-}" ]; then
    [ -x "$FAULTSWEEP_BIN" ] && return
    echo "reproduce.sh: FAULTSWEEP_BIN=$FAULTSWEEP_BIN: no such executable (unset it to build" \
      "build/faultsweep)" >&2
    exit 2
  fi
  [ -x "$repro_bin" ] || bash scripts/setup.sh --target faultsweep
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
# A job that reads files generated under results/ (Gottumukkala's Ch. 6 traces) reads them from
# RESULTS instead when that is another folder, so --quick never touches results/<paper>/.
repro_job_file() {
  local job=$1 n want copy dir moved=0 cut=()
  n=$(sed -n 's/^replicas *= *\([0-9][0-9]*\).*/\1/p' "$job" | head -1)
  grep -q '"\.\./\.\./results/' "$job" && [ "$repro_results" != "$PWD/results" ] && moved=1
  want=$n
  [ -n "$n" ] && [ "$repro_mode" != full ] && want=$(repro_replicas "$n")
  [ "$want" = "$n" ] && [ "$moved" = 0 ] && { echo "$job"; return; }
  [ "$want" = "$n" ] ||
    cut=(-e "s/^replicas *= *[0-9][0-9]*/replicas = $want  # $repro_mode (the paper's setting: $n)/")
  copy=$repro_results/jobs/$job
  dir=$(cd "$(dirname "$job")" && pwd)
  mkdir -p "$(dirname "$copy")"
  sed "${cut[@]}" -e "s#\"\\.\\./\\.\\./results/#\"$repro_results/#g" \
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

# repro_complete_all OUT JOB ...: one line per pair, 1 if OUT is complete and from JOB as it is
# now, else 0 (one Python start for all the jobs of a run).
repro_complete_all() {
  /usr/bin/python3 -c 'import hashlib, sys
try:
    import h5py
except ImportError:
    h5py = None
args = sys.argv[1:]
for out, job in zip(args[::2], args[1::2]):
    ok = False
    try:
        a = h5py.File(out, "r").attrs
        sha = a.get("job_file_sha256", b"")
        sha = sha.decode() if isinstance(sha, bytes) else str(sha)
        ok = int(a.get("complete", 0)) == 1 and sha == hashlib.sha256(open(job, "rb").read()).hexdigest()
    except Exception:
        pass
    print(1 if ok else 0)' "$@"
}

# Progress over the whole run: "job k of N, elapsed, estimated remaining". A job's estimate is
# the last time it ran in this mode (RESULTS/timings.tsv, scaled to the ranks); the sum left is
# scaled by how the jobs run so far compared with their estimates (a machine busier than the one
# that timed them is slower). A job never timed is counted apart.
repro_estimate() {  # JOB -> whole seconds, or nothing if never timed
  local f s
  for f in "$repro_results/timings.tsv"; do
    [ -f "$f" ] || continue
    s=$(awk -F'\t' -v j="$1" -v m="$repro_mode" -v n="$repro_ranks" \
      '$1 == j && $5 == m && $6 == "ran" { s = $3 * $4 / n } END { if (s != "") printf "%d", s + 0.5 }' "$f")
    [ -n "$s" ] && { echo "$s"; return; }
  done
  return 0
}

repro_hms() {  # SECONDS -> "45 s", "12 min 05 s", "1 h 02 min"
  local s=$1
  if [ "$s" -lt 60 ]; then echo "$s s"
  elif [ "$s" -lt 3600 ]; then printf '%d min %02d s\n' $((s / 60)) $((s % 60))
  else printf '%d h %02d min\n' $((s / 3600)) $((s % 3600 / 60)); fi
}

# repro_plan PAPER...: the list of every job to run (repro_all_*), whether each is complete
# already and its estimate; prints the total.
repro_plan() {
  local paper job jobs pairs=() i=0 done_flags est total=0 untimed=0
  repro_all_jobs=() repro_all_files=() repro_all_outs=() repro_all_est=() repro_all_done=()
  for paper in "$@"; do
    if [ "$repro_mode" = tiny ]; then jobs=$(repro_tiny_jobs "$paper"); else jobs=$(repro_jobs "$paper"); fi
    for job in $jobs; do
      repro_all_jobs+=("$job")
      repro_all_files+=("$(repro_job_file "$job")")
      repro_all_outs+=("$(repro_output "$job")")
      pairs+=("${repro_all_outs[-1]}" "${repro_all_files[-1]}")
    done
  done
  mapfile -t done_flags < <(repro_complete_all "${pairs[@]}")
  for job in "${repro_all_jobs[@]}"; do
    repro_all_done+=("${done_flags[$i]:-0}")
    est=$(repro_estimate "$job")
    repro_all_est+=("$est")
    if [ "${done_flags[$i]:-0}" = 0 ]; then
      if [ -n "$est" ]; then total=$((total + est)); else untimed=$((untimed + 1)); fi
    fi
    i=$((i + 1))
  done
  repro_k=0 repro_t0=$(date +%s) repro_ran_est=0 repro_ran_s=0
  echo "reproduce: ${#repro_all_jobs[@]} jobs ($repro_mode, $repro_ranks ranks), estimated" \
    "$(repro_hms "$total")$([ "$untimed" -gt 0 ] && echo " + $untimed never timed")"
}

# repro_progress: the line before job number repro_k (1-based) of the plan.
repro_progress() {
  local i left=0 untimed=0 pace elapsed
  elapsed=$(( $(date +%s) - repro_t0 ))
  for ((i = repro_k - 1; i < ${#repro_all_jobs[@]}; i++)); do
    [ "${repro_all_done[$i]}" = 1 ] && continue
    if [ -n "${repro_all_est[$i]}" ]; then left=$((left + repro_all_est[i])); else untimed=$((untimed + 1)); fi
  done
  # pace in percent: measured / estimated over the jobs run so far that had an estimate
  pace=100
  [ "$repro_ran_est" -gt 0 ] && pace=$((100 * repro_ran_s / repro_ran_est))
  [ "$pace" -lt 1 ] && pace=1
  left=$((left * pace / 100))
  echo "reproduce: job $repro_k of ${#repro_all_jobs[@]} (${repro_all_jobs[$((repro_k - 1))]})," \
    "elapsed $(repro_hms "$elapsed"), estimated remaining $(repro_hms "$left")$(
    [ "$untimed" -gt 0 ] && echo " + $untimed never timed")$(
    [ "$pace" != 100 ] && echo " (at ${pace} % of the timings' speed so far)")"
}

repro_record() {  # JOB OUT SECONDS STATUS
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$repro_ranks" "$repro_mode" "$4" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$repro_results/timings.tsv"
}

# repro_job K: job number K (1-based) of the plan.
repro_job() {
  local job file out t0 s est
  repro_k=$1
  job=${repro_all_jobs[$((repro_k - 1))]} file=${repro_all_files[$((repro_k - 1))]}
  out=${repro_all_outs[$((repro_k - 1))]} est=${repro_all_est[$((repro_k - 1))]}
  mkdir -p "$(dirname "$out")"
  repro_progress
  if [ "${repro_all_done[$((repro_k - 1))]}" = 1 ]; then
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
  # No -q: faultsweep's own progress line (tasks done, ETA, the replica under way) shows a long
  # job moving, every 10 s when stderr is not a terminal.
  nice -n "${NICE:-0}" mpirun -q --allow-run-as-root --oversubscribe -np "$repro_ranks" \
    "$repro_bin" run "$file" --out "$out" --resume
  s=$(( $(date +%s) - t0 ))
  echo "reproduce: $job in $s s on $repro_ranks ranks"
  repro_record "$job" "$out" "$s" ran
  if [ -n "$est" ]; then repro_ran_est=$((repro_ran_est + est)) repro_ran_s=$((repro_ran_s + s)); fi
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
  CH6_OUT=$repro_results/gottumukkala CH6_TRACES_ONLY=1 bash scripts/gottumukkala_ch6.sh >/dev/null
}

# repro_run_all: every job of the plan, in order (Gottumukkala's inputs before its first job).
repro_run_all() {
  local k inputs=0
  for ((k = 1; k <= ${#repro_all_jobs[@]}; k++)); do
    if [ "$inputs" = 0 ] && [ "$repro_mode" != tiny ] && [[ ${repro_all_jobs[$((k - 1))]} == jobs/gottumukkala/* ]]; then
      repro_gottumukkala_inputs
      inputs=1
    fi
    repro_job "$k"
  done
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
