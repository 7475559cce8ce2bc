#!/usr/bin/env bash
# The main job: sets everything up, runs jobs/quickstart.toml on 2 MPI ranks (an a x I sweep of
# Plank & Thomason's checkpointing system by Monte Carlo simulation, with the Markov chain's
# availability beside it) and jobs/quickstart_chain.toml (the chain's expected running time on a
# finer grid), and draws two plots. It builds only the program it runs: 134 of the 214 build
# steps; the tests and benchmarks (more than half of the compile time) are built by
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --target faultsweep
setup_s=$SECONDS
mkdir -p results
mpirun -q --allow-run-as-root --oversubscribe -np 2 build/faultsweep run jobs/quickstart.toml --overwrite
build/faultsweep run jobs/quickstart_chain.toml --overwrite
build/faultsweep inspect results/quickstart.h5
export PYTHONPATH="$PWD/analysis${PYTHONPATH:+:$PYTHONPATH}"
/usr/bin/python3 -m faultsweep_analysis runtime-map results/quickstart_chain.h5 \
  --sim results/quickstart.h5 --out results/quickstart_runtime.png
/usr/bin/python3 -m faultsweep_analysis plot results/quickstart.h5 --metric availability \
  --x a --by I --label "a=active processors a" --label "availability=availability A" \
  --title "EP on MEDIUM: availability by simulation, one panel per checkpoint interval I" \
  --out results/quickstart_availability.png
echo "quickstart: wrote results/quickstart.h5, results/quickstart_chain.h5," \
  "results/quickstart_runtime.png and results/quickstart_availability.png"
echo "quickstart: $SECONDS s in all: set-up and build $setup_s s, jobs and plots $((SECONDS - setup_s)) s"
