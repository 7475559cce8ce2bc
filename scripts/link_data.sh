#!/usr/bin/env bash
# Points the repository's `data` folder at the real data sets: creates the symlink
#   <repo root>/data -> $FAULTSWEEP_DATA
# which the job files in jobs/zhang/ read through relative paths ("../../data/workloads/...";
# paths in a job file resolve relative to the job file's folder). `data` is gitignored.
#   FAULTSWEEP_DATA=/path/to/data bash scripts/link_data.sh
# Expects $FAULTSWEEP_DATA/workloads/*.swf.gz and $FAULTSWEEP_DATA/failures/lanl/*.csv.xz.
# Replaces an existing symlink; refuses to touch a real file or folder named `data`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -z "${FAULTSWEEP_DATA:-}" ]; then
  echo "link_data.sh: FAULTSWEEP_DATA is not set; set it to the folder that holds workloads/ and failures/, e.g." >&2
  echo "  FAULTSWEEP_DATA=/work/shared/data bash scripts/link_data.sh" >&2
  exit 2
fi
if [ ! -d "$FAULTSWEEP_DATA" ]; then
  echo "link_data.sh: FAULTSWEEP_DATA=$FAULTSWEEP_DATA is not a directory" >&2
  exit 2
fi
if [ ! -d "$FAULTSWEEP_DATA/workloads" ]; then
  echo "link_data.sh: warning: $FAULTSWEEP_DATA has no workloads/ folder" >&2
fi
target="$(cd "$FAULTSWEEP_DATA" && pwd)"
link="$root/data"
if [ -e "$link" ] && [ ! -L "$link" ]; then
  echo "link_data.sh: $link exists and is not a symlink; move it away first" >&2
  exit 2
fi
ln -sfn "$target" "$link"
echo "link_data.sh: $link -> $target"
