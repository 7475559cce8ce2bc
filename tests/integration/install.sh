#!/usr/bin/env bash
# `cmake --install` of the build this binary comes from: the installed tree runs a bundled job
# after being moved to another folder, from a folder that is neither the prefix nor the source
# tree, with its inputs read from the prefix; and the example tool builds against the prefix
# with find_package(faultsweep) and reads the results.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BUILD=$(dirname "$FS")
[ -f "$BUILD/cmake_install.cmake" ] || { fail "$BUILD is not a CMake build tree"; finish; }

section "cmake --install"
RC=0
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.out" 2>"$WORK/install.err" || RC=$?
expect_rc "cmake --install to a temporary prefix" 0 install
for f in bin/faultsweep libexec/faultsweep/faultsweep include/faultsweep/sweep/store.hpp \
  lib/libfaultsweep_core.a \
  lib/cmake/faultsweep/faultsweepConfig.cmake lib/cmake/faultsweep/faultsweepConfigVersion.cmake \
  lib/cmake/faultsweep/faultsweepTargets.cmake share/faultsweep/jobs/quickstart.toml \
  share/faultsweep/inputs/plank share/faultsweep/slurm-scripts/submit.sh; do
  check "installs $f" test -e "$WORK/prefix/$f"
done
check "submit.sh stays executable" test -x "$WORK/prefix/share/faultsweep/slurm-scripts/submit.sh"
# The installed README's links into docs/ resolve as in the source tree (whether every link of
# the source tree resolves is integration.readme's check).
doc="$WORK/prefix/share/doc/faultsweep"
for page in $(grep -o '](docs/[^)#]*' "$SRC/README.md" | cut -c3- | sort -u); do
  if [ -e "$SRC/$page" ]; then check "installs $page beside the README" test -e "$doc/$page"; fi
done

section "the installed tree, moved, runs a bundled job"
# The whole prefix moves: nothing may point back at the build, the source tree or the old prefix.
mv "$WORK/prefix" "$WORK/moved"
P="$WORK/moved"
# A small copy of the quickstart job beside it (same inputs, found relative to the job file).
sed -e 's/^replicas = 8/replicas = 2/' -e 's/range = \[1, 32\]/range = [1, 3]/' \
  -e 's/n = 8 }/n = 2 }/' -e 's/"20000d"/"200d"/' \
  "$P/share/faultsweep/jobs/quickstart.toml" >"$P/share/faultsweep/jobs/quick_small.toml"
# The job writes results/quickstart.h5 relative to where it runs; check refuses a missing folder.
mkdir -p "$WORK/elsewhere/results"
cd "$WORK/elsewhere"
FS="$P/bin/faultsweep"
run_fs check_bundled check jobs/quickstart.toml
expect_rc "check jobs/quickstart.toml finds the bundled job from another folder" 0 check_bundled
run_fs run_bundled run jobs/quick_small.toml --out "$WORK/small.h5" -q
expect_rc "run a bundled job from the moved prefix" 0 run_bundled
run_fs inspect inspect "$WORK/small.h5"
check "the results are complete (3 x 2 points)" grep -q "COMPLETE" "$WORK/inspect.out"
h5dump -a /inputs/0/path "$WORK/small.h5" >"$WORK/input_path.txt" 2>&1 || true
check "the inputs were read from the moved prefix" grep -q "$P/share/faultsweep/inputs/plank" \
  "$WORK/input_path.txt"
check "... not from the source tree" bash -c "! grep -q '$SRC/' '$WORK/input_path.txt'"
run_fs missing run jobs/no_such_job.toml --out "$WORK/none.h5"
expect_rc "a job that is neither here nor bundled is bad input" 2 missing
# A Python policy imports the API installed in the prefix (its __init__ names the module's file).
printf 'import faultsweep_policy as fp\nclass Where(fp.Allocator):\n    def __init__(self, params, rng):\n        raise ValueError(fp.__file__)\n    def allocate(self, view, count):\n        return []\n' >where.py
printf '[sweep]\nmodel = "cluster"\n[params]\nnodes = 4\nworkload = { source = "lublin", jobs = 5 }\nfailures = { process = "none" }\nallocator = { python = "where.py", class = "Where" }\n' >where.toml
run_fs where check where.toml
check "a Python policy imports the installed API" \
  grep -q "ValueError: $P/share/faultsweep/python/faultsweep_policy/__init__.py" "$WORK/where.err"

section "find_package(faultsweep) from the example tool"
RC=0
cmake -S "$SRC/examples/cpp_tool" -B "$WORK/tool" -DCMAKE_PREFIX_PATH="$P" \
  -DCMAKE_BUILD_TYPE=Release >"$WORK/tool_cfg.out" 2>"$WORK/tool_cfg.err" || RC=$?
expect_rc "configure examples/cpp_tool against the prefix" 0 tool_cfg
RC=0
cmake --build "$WORK/tool" >"$WORK/tool_build.out" 2>"$WORK/tool_build.err" || RC=$?
[ "$RC" -ne 0 ] && tail -20 "$WORK/tool_build.out"
expect_rc "build examples/cpp_tool" 0 tool_build
RC=0
"$WORK/tool/best_point" "$WORK/small.h5" availability >"$WORK/tool_run.out" \
  2>"$WORK/tool_run.err" || RC=$?
expect_rc "best_point reads the results" 0 tool_run
check "best_point names the model and the metric" grep -q "model checkpoint_sim, 6 points; best availability" \
  "$WORK/tool_run.out"

section "the configure the Spack recipe runs (tests, benchmarks and Slurm scripts off)"
RC=0
cmake -S "$SRC" -B "$WORK/spack-like" -DCMAKE_BUILD_TYPE=Release -DFAULTSWEEP_BUILD_TESTS=OFF \
  -DFAULTSWEEP_BUILD_BENCH=OFF -DFAULTSWEEP_INSTALL_SLURM=OFF -DCMAKE_INSTALL_PREFIX="$WORK/sp" \
  >"$WORK/spack_cfg.out" 2>"$WORK/spack_cfg.err" || RC=$?
expect_rc "configure with the recipe's options" 0 spack_cfg
check "its install rules leave the Slurm scripts out" \
  bash -c "! grep -q slurm-scripts '$WORK/spack-like/cmake_install.cmake'"
check "... and still install the jobs" grep -q "share/faultsweep" "$WORK/spack-like/cmake_install.cmake"
finish
