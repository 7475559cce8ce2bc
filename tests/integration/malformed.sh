#!/usr/bin/env bash
# The malformed-input corpus (tests/malformed/<group>/<case>/, format in tests/malformed/README.md):
# every case is copied to a scratch folder and run; the exit code must be the expected one,
# stderr must match the expected regular expression, nothing may hang (20 s per command), and
# nothing in the folder may be created, removed or changed (a listing of names, sizes, modes and
# mtimes is compared before and after). Every case folder is found by glob, so new groups
# (e.g. readers/) need no change here.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
CORPUS="$SRC/tests/malformed"
TIMEOUT_S=${MALFORMED_TIMEOUT_S:-20}

listing() { (cd "$1" && find . -printf '%p %y %s %m %T@\n' | sort); }

# run_case DIR: all checks of one case.
run_case() {
  local case_dir=$1 name
  name=${case_dir#"$CORPUS"/}
  local want_exit want_msg commands
  want_exit=$(sed -n 's/^exit=//p' "$case_dir/expect" | head -1)
  want_msg=$(sed -n 's/^message=//p' "$case_dir/expect" | head -1)
  commands=$(sed -n 's/^commands=//p' "$case_dir/expect" | head -1)
  [ -n "$commands" ] || commands="check run"
  if [ -z "$want_exit" ] || [ -z "$want_msg" ]; then
    fail "$name: expect must hold exit=<code> and message=<regex>"
    return
  fi
  local dir="$WORK/cases/$name"
  mkdir -p "$dir"
  cp -a "$case_dir/." "$dir/"
  rm -f "$dir/expect" "$dir/setup" "$dir/args"
  ln -s "$SRC/inputs" "$dir/inputs"  # cases name the repository's inputs as inputs/...
  if [ -f "$case_dir/setup" ]; then
    if ! (cd "$dir" && FAULTSWEEP_BIN="$FS" bash "$case_dir/setup") >"$WORK/setup.log" 2>&1; then
      if grep -q '^SKIP' "$WORK/setup.log"; then
        skip "$name: $(grep '^SKIP' "$WORK/setup.log" | head -1)"
        return
      fi
      fail "$name: setup failed"
      sed 's/^/    | /' "$WORK/setup.log" | tail -10
      return
    fi
  fi
  local before after
  before=$(listing "$dir")
  local argv=() label
  local -a runs=()
  if [ -f "$case_dir/args" ]; then
    mapfile -t argv <"$case_dir/args"
    runs=("args")
  else
    read -r -a runs <<<"$commands"
  fi
  for label in "${runs[@]}"; do
    local cmd=()
    if [ "$label" = args ]; then cmd=("${argv[@]}"); else cmd=("$label" job.toml); fi
    RC=0
    (cd "$dir" && timeout -k 5 "$TIMEOUT_S" "$FS" "${cmd[@]}") >"$WORK/out" 2>"$WORK/err" </dev/null || RC=$?
    local what="$name: ${cmd[*]:0:3}"
    if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
      fail "$what: hung (killed after ${TIMEOUT_S} s)"
    elif [ "$RC" -ne "$want_exit" ]; then
      fail "$what: exit $RC, expected $want_exit"
      sed 's/^/    | /' "$WORK/err" | head -8
    elif ! grep -Eq -- "$want_msg" "$WORK/err"; then
      fail "$what: stderr does not match /$want_msg/"
      sed 's/^/    | /' "$WORK/err" | head -8
    else
      pass "$what: exit $RC, message matches"
    fi
  done
  after=$(listing "$dir")
  if [ "$before" = "$after" ]; then
    pass "$name: nothing created or changed"
  else
    fail "$name: the folder changed:"
    diff <(echo "$before") <(echo "$after") | sed 's/^/    | /' | head -10
  fi
}

n=0
for expect in "$CORPUS"/*/*/expect; do
  run_case "$(dirname "$expect")"
  n=$((n + 1))
done
echo "$n cases"
[ "$n" -ge 1 ] || fail "no cases found under $CORPUS"
finish
