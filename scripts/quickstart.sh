#!/usr/bin/env bash
# The main job: sets everything up, runs jobs/quickstart.toml on 2 MPI ranks (an a x I sweep of
# Plank & Thomason's chain and its Monte Carlo simulation), and draws two plots.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p results
mpirun --allow-run-as-root --oversubscribe -np 2 build/faultsweep run jobs/quickstart.toml --overwrite
build/faultsweep inspect results/quickstart.h5
export PYTHONPATH="$PWD/analysis${PYTHONPATH:+:$PYTHONPATH}"
/usr/bin/python3 -m faultsweep_analysis heatmap results/quickstart.h5 --metric availability \
  --x a --y I --out results/quickstart_heatmap.png
/usr/bin/python3 -m faultsweep_analysis plot results/quickstart.h5 --metric availability \
  --x a --by I --out results/quickstart_availability.png
echo "quickstart: wrote results/quickstart.h5, results/quickstart_heatmap.png and results/quickstart_availability.png"
