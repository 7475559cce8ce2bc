#!/usr/bin/env bash
# Runs each libFuzzer target (clang, ASan + UBSan) for SECONDS (default 60) on a seed corpus made
# of the repository's job files and test inputs. The targets live in the sanitizer tree,
# build-asan/, which `bash scripts/sanitize.sh build` makes (this script runs it first unless
# --no-build is given, as ctest does once the tree is built). Exits non-zero if any target finds
# a crash, leak, sanitizer report or timeout (the reproducer is left in
# build-asan/findings/<target>/); a timeout whose input ends within 10 s when run again alone is
# noted and not counted (the machine stopped the process, not the input).
#   bash scripts/fuzz.sh [--no-build] [SECONDS]      ASAN_BUILD_DIR overrides build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
build=1
[ "${1:-}" = --no-build ] && { build=0; shift; }
SECONDS_EACH=${1:-60}
ROOT=$PWD
B=${ASAN_BUILD_DIR:-$ROOT/build-asan}
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found; skipping the fuzz targets"; exit 0; }
[ $build -eq 1 ] && bash scripts/sanitize.sh build
[ -d "$B/fuzz" ] || { echo "fuzz.sh: no fuzz targets in $B (bash scripts/sanitize.sh build)" >&2; exit 1; }

# Seed corpora: job files (jobs/, tests/data, tests/malformed) for the loader; durations taken
# from them for the duration parser.
seed_corpus() {
  local target=$1 dir=$2
  mkdir -p "$dir"
  case $target in
    fuzz_job_loader)
      find jobs tests/data tests/malformed -name '*.toml' -size -64k 2>/dev/null |
        while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
    fuzz_duration)
      local i=0 d
      for d in 90s 5min 2h 3d 1.5w 250ms 1e3 "10 min" -1s 1e308d inf nan "" 0x1p3s; do
        printf '%s' "$d" >"$dir/seed$i"
        i=$((i + 1))
      done ;;
    *)
      # The other targets bring their own seeds: fuzz/seeds/<target>/ if it exists.
      [ -d "fuzz/seeds/$target" ] && cp -r "fuzz/seeds/$target/." "$dir/" ;;
  esac
  return 0
}

# stalled TARGET LOG SCRATCH: true if every finding of this run (the units LOG says it wrote) is
# a timeout whose input, run again alone, ends within the same 10 s. A machine that stops a
# process for seconds (a busy host of a virtual machine) trips the timeout on an input that takes
# milliseconds; a slow input stays slow and still fails. Each such timeout is noted with its
# time alone, and its file is kept.
stalled() {
  local t=$1 log=$2 scratch=$3 f t0 t1 units
  mapfile -t units < <(sed -n 's/.*Test unit written to //p' "$log")
  [ ${#units[@]} -gt 0 ] || return 1
  for f in "${units[@]}"; do
    case $(basename "$f") in timeout-*) ;; *) return 1 ;; esac
    t0=$(date +%s.%N)
    (cd "$scratch" && "$B/fuzz/$t" -timeout=10 -runs=1 "$f") >"$log.again" 2>&1 || return 1
    t1=$(date +%s.%N)
    echo "note - $t: the timeout on $(basename "$f") did not come back: alone it took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
  done
  return 0
}

status=0
mapfile -t targets < <(cd "$B/fuzz" && find . -maxdepth 1 -type f -executable -name 'fuzz_*' -printf '%f\n' | sort)
for t in "${targets[@]}"; do
  corpus="$B/corpus/$t"
  findings="$B/findings/$t"
  mkdir -p "$findings"
  seed_corpus "$t" "$corpus"
  echo "== $t: ${SECONDS_EACH} s"
  log="$B/$t.log"
  # Run from a scratch folder: job files may name relative paths; nothing may be written here.
  scratch=$(mktemp -d)
  (cd "$scratch" && "$B/fuzz/$t" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=4096 \
     -max_len=8192 -print_final_stats=1 -artifact_prefix="$findings/" "$corpus") >"$log" 2>&1 \
     || { stalled "$t" "$log" "$scratch" && echo "ok - $t: no finding (a stall of the machine)" ||
            { status=1; echo "FAIL - $t found a problem:"; grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -10; }; }
  rm -rf "$scratch"
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)" "$log" | tr '\n' ' '
  echo
  grep -E "^#[0-9]+ +DONE" "$log" | tail -1 || true
done
[ $status -eq 0 ] && echo "fuzz: ${#targets[@]} targets, ${SECONDS_EACH} s each, no findings"
exit $status
