# Sourced by the benches that run the faultsweep binary on SDSC-SP2 (54,034 jobs, 128 nodes):
# sets bin (the binary: $1 or build/faultsweep), swf (the log, under FAULTSWEEP_DATA), jobs,
# rounds (ROUNDS, default $default_rounds) and work (a scratch folder removed at exit).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$here/build/faultsweep}"
data="${FAULTSWEEP_DATA:-/work/shared/data}"
swf="$data/workloads/SDSC-SP2-1998-4.2-cln.swf.gz"
jobs=54034
rounds="${ROUNDS:-$default_rounds}"
[ -r "$swf" ] || { echo "$(basename "$0"): no $swf (set FAULTSWEEP_DATA)"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
