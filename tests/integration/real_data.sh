#!/usr/bin/env bash
# Real data (FAULTSWEEP_DATA): replays of public workload and failure logs end to end.
# Skips (visibly) when FAULTSWEEP_DATA is not set. Filled in by the cluster simulator work.
set -euo pipefail
if [ -z "${FAULTSWEEP_DATA:-}" ]; then echo "SKIP: FAULTSWEEP_DATA is not set"; exit 0; fi
echo "FAULTSWEEP_DATA=$FAULTSWEEP_DATA: no real-data cases yet"
