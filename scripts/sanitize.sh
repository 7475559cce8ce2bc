#!/usr/bin/env bash
# The sanitizer tree and stage. One tree, build-asan/, serves both the sanitizer stage and the
# fuzz run (scripts/fuzz.sh): built with clang, AddressSanitizer + UndefinedBehaviorSanitizer,
# and the library instrumented for libFuzzer's coverage, it holds faultsweep, its unit tests and
# the fuzz targets. The stage runs the unit tests and a few small jobs (1 rank and mpirun -np 2)
# and fails on any sanitizer report. Leak checking is on for the unit tests; for the MPI binary,
# Open MPI's own allocations that it never frees at exit are suppressed (scripts/lsan.supp),
# nothing of ours. Without clang the tree is built with the default compiler and no fuzz targets.
#   bash scripts/sanitize.sh [build|run|all]     (default all)
#   ASAN_BUILD_DIR overrides build-asan/; ASAN_BUILD_JOBS the build's parallel jobs (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
B=${ASAN_BUILD_DIR:-$ROOT/build-asan}
STEP=${1:-all}
case $STEP in build | run | all) ;; *) echo "usage: bash scripts/sanitize.sh [build|run|all]" >&2; exit 2 ;; esac
# Set before the build: catch_discover_tests runs the test binary to list its cases.
# fast_unwind_on_malloc=0 and Open MPI's mca_base_component_disable_dlclose=1: Open MPI's
# plugins (mca_*.so) are built without frame pointers and unloaded at MPI_Finalize, so with the
# fast unwinder a leak they make shows one frame in an "<unknown module>" and no suppression
# can match it; with full unwinding and the plugins kept loaded, scripts/lsan.supp names them.
export ASAN_OPTIONS="detect_leaks=1:fast_unwind_on_malloc=0:abort_on_error=0:exitcode=86:strict_string_checks=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=87"
export LSAN_OPTIONS="suppressions=$ROOT/scripts/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0"
export OMPI_MCA_mca_base_component_disable_dlclose=1
t0=$(date +%s)

if [ "$STEP" != run ]; then
  launcher=()
  # ccache only where the caller set it up (CCACHE_DIR), as on the development machines.
  [ -n "${CCACHE_DIR:-}" ] && command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  compiler=() targets=(faultsweep faultsweep_tests) cxx=$(command -v c++ || true)
  if command -v clang++ >/dev/null; then
    cxx=$(command -v clang++)
    compiler=(-DCMAKE_C_COMPILER="$(command -v clang)" -DCMAKE_CXX_COMPILER="$cxx" -DFAULTSWEEP_FUZZ=ON)
    targets+=(fuzz_targets_all)
  fi
  # A tree configured with another compiler (an older checkout's GCC tree) is laid anew.
  if [ -f "$B/CMakeCache.txt" ] && ! grep -qx "CMAKE_CXX_COMPILER:[A-Z]*=$cxx" "$B/CMakeCache.txt"; then
    echo "sanitize: $B was configured with another compiler; building it anew"
    rm -rf "$B"
  fi
  mkdir -p "$B"
  # -O1 -g1: the level the sanitizers are made for, and line tables, all a report's stack needs.
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DFAULTSWEEP_SANITIZE=ON \
    -DFAULTSWEEP_BUILD_BENCH=OFF "${compiler[@]}" "${launcher[@]}" >"$B/cmake-configure.log" 2>&1 ||
    { tail -30 "$B/cmake-configure.log"; exit 1; }
  cmake --build "$B" -j"${ASAN_BUILD_JOBS:-2}" --target "${targets[@]}" 2>&1 | tail -3
  echo "sanitize: build took $(($(date +%s) - t0)) s (${targets[*]})"
  [ "$STEP" = build ] && exit 0
fi
[ -x "$B/tests/faultsweep_tests" ] && [ -x "$B/faultsweep" ] ||
  { echo "sanitize: no sanitizer tree in $B (bash scripts/sanitize.sh build)" >&2; exit 1; }

export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
status=0
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# report NAME RC LOG: a non-zero exit or any sanitizer line is a failure.
report() {
  local name=$1 rc=$2 log=$3
  if [ "$rc" -ne 0 ] || grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log"; then
    echo "FAIL - $name (exit $rc)"
    grep -E -A12 "ERROR: |runtime error:" "$log" | head -40
    status=1
  else
    echo "ok - $name"
  fi
}

rc=0
FAULTSWEEP_SOURCE_DIR=$ROOT "$B/tests/faultsweep_tests" >"$W/unit.log" 2>&1 || rc=$?
tail -2 "$W/unit.log"
report "unit tests under ASan+UBSan" "$rc" "$W/unit.log"

mkdir -p "$W/results/plank"
cat >"$W/synthetic.toml" <<'TOML'
[sweep]
model = "synthetic"
output = "results/synthetic.h5"
replicas = { min = 4, max = 40, until = { metric = "value", rel_ci95 = 0.5 } }
[params]
work = "1ms"
[axes]
mean = { linear = [1, 2], n = 5 }
TOML
cp -r jobs/plank/table4.toml "$W/table4.toml"
sed -i 's|"../../inputs/plank"|"'"$ROOT"'/inputs/plank"|; s|results/plank/|results/plank/|' "$W/table4.toml"
# A cluster job too: Lublin jobs, trace failures, EASY, moldable sizes (the golden job).
jobs=("$W/synthetic.toml" "$W/table4.toml" "$ROOT/tests/golden/jobs/cluster_trace.toml")
for j in "${jobs[@]}"; do
  name=$(basename "$j" .toml)
  rc=0
  (cd "$W" && "$B/faultsweep" run "$j" -q --overwrite --out "$W/results/$name.h5") \
    >"$W/$name.log" 2>&1 || rc=$?
  report "run $name (1 rank)" "$rc" "$W/$name.log"
  rc=0
  (cd "$W" && mpirun --allow-run-as-root --oversubscribe -np 2 "$B/faultsweep" run "$j" -q \
    --overwrite --out "$W/results/$name.np2.h5") >"$W/$name.np2.log" 2>&1 || rc=$?
  report "run $name (mpirun -np 2)" "$rc" "$W/$name.np2.log"
  rc=0
  "$B/faultsweep" inspect "$W/results/$name.np2.h5" >"$W/$name.inspect.log" 2>&1 || rc=$?
  report "inspect $name" "$rc" "$W/$name.inspect.log"
done
# Refusals run the error paths: a bad job, a resume of a damaged journal.
printf '[sweep]\nmodel = "synthetic"\nseed = 99999999999999999999\n' >"$W/bad.toml"
rc=0
"$B/faultsweep" check "$W/bad.toml" >"$W/bad.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && rc=0
report "check of a bad job (exit 2)" "$rc" "$W/bad.log"
echo "sanitize: total $(($(date +%s) - t0)) s"
exit $status
