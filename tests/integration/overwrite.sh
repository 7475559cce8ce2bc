#!/usr/bin/env bash
# The one rule of every command that writes a file (run, merge, fit): --overwrite replaces only a
# file of the command's own kind (HDF5 root attribute `filetype`), never a job file, a failure
# log, a CSV, a results file of the other kind, or one of the command's own inputs. A refusal
# exits 2, leaves the file byte for byte as it was and creates nothing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

P="$WORK/pristine"
mkdir -p "$P"
cat >"$P/job.toml" <<'TOML'
[sweep]
model = "synthetic"
output = "in.h5"
replicas = 3
[params]
work = "0s"
TOML
# A failure log for `fit --format csv`: four nodes, eight failures each.
/usr/bin/python3 - >"$P/log.csv" <<'PY'
import random
random.seed(1)
rows = []
for node in range(4):
    t = 0.0
    for _ in range(8):
        t += random.expovariate(1 / 86400)
        rows.append((round(t), node))
print("time_s,node,downtime_s")
for t, node in sorted(rows):
    print(f"{t},{node},600")
PY
printf 'a,b\n1,2\n' >"$P/notes.csv"
(cd "$P" && "$FS" run job.toml -q && cp in.h5 results.h5 &&
  "$FS" fit log.csv --format csv --out fit.h5 >/dev/null)

T="$WORK/t"
fresh() {
  rm -rf "$T"
  cp -r "$P" "$T"
  mkdir "$T/folder"
}
listing() { (cd "$T" && find . -printf '%p %s %T@\n' | sort && cat ./*.toml ./*.csv | sha256sum); }

# command TARGET: the command line writing TARGET with --overwrite.
cmd_run() { echo run job.toml -q --out "$1" --overwrite; }
cmd_merge() { echo merge "$1" in.h5 --overwrite; }
cmd_fit() { echo fit log.csv --format csv --out "$1" --overwrite; }

# refused COMMAND TARGET WHAT: exit 2, a message naming the target, nothing changed.
refused() {
  local c=$1 target=$2 what=$3 before
  fresh
  before=$(listing)
  # shellcheck disable=SC2046
  RC=0
  (cd "$T" && "$FS" $(cmd_$c "$target")) >"$WORK/out" 2>"$WORK/err" || RC=$?
  if [ "$RC" -eq 2 ] && grep -q "$target" "$WORK/err" && [ "$(listing)" = "$before" ]; then
    pass "$c onto $what ($target): refused, exit 2, nothing changed"
  else
    fail "$c onto $what ($target): exit $RC (expected 2), changed: $([ "$(listing)" = "$before" ] && echo no || echo YES)"
    sed 's/^/    | /' "$WORK/err" | tail -5
  fi
  if grep -q "Success" "$WORK/err"; then fail "$c onto $what: says \"Success\""; fi
}

# allowed COMMAND TARGET KIND: exit 0 and TARGET is now a file of KIND.
allowed() {
  local c=$1 target=$2 kind=$3
  fresh
  RC=0
  # shellcheck disable=SC2046
  (cd "$T" && "$FS" $(cmd_$c "$target")) >"$WORK/out" 2>"$WORK/err" || RC=$?
  if [ "$RC" -eq 0 ] && h5dump -a /filetype "$T/$target" 2>/dev/null | grep -q "\"$kind\""; then
    pass "$c onto its own kind ($target): replaced, exit 0"
  else
    fail "$c onto its own kind ($target): exit $RC"
    sed 's/^/    | /' "$WORK/err" | tail -5
  fi
}

section "every writing command x every kind of existing file, with --overwrite"
for c in run merge fit; do
  refused "$c" job.toml "a job file"
  refused "$c" log.csv "a failure log"
  refused "$c" notes.csv "a CSV file"
  refused "$c" folder "a folder"
done
refused run fit.h5 "a fit file"
refused merge fit.h5 "a fit file"
refused fit results.h5 "a results file"
refused merge in.h5 "its own input"
allowed run results.h5 faultsweep-results
allowed merge results.h5 faultsweep-results
allowed fit fit.h5 faultsweep-fit

section "without --overwrite an existing file of the own kind is kept"
for c in run merge fit; do
  fresh
  target=$([ $c = fit ] && echo fit.h5 || echo results.h5)
  before=$(listing)
  # shellcheck disable=SC2046
  RC=0
  (cd "$T" && "$FS" $(cmd_$c "$target" | sed 's/ --overwrite//')) >"$WORK/out" 2>"$WORK/err" || RC=$?
  if [ "$RC" -eq 2 ] && grep -q "exists; pass" "$WORK/err" && [ "$(listing)" = "$before" ]; then
    pass "$c onto an existing $target without --overwrite: refused"
  else
    fail "$c onto an existing $target without --overwrite: exit $RC"
  fi
done

finish
