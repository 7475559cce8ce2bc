#!/usr/bin/env bash
# The README's commands (and docs/analysis.md's) work as shown; the docs hold no dead links or
# broken tables.
#
# Every fenced code block of README.md is taken in order:
#   sh      run with bash -eo pipefail in a scratch folder laid out like the repository (jobs/,
#           inputs/, analysis/, slurm-scripts/ linked; build/faultsweep = FAULTSWEEP_BIN, also
#           on PATH as `faultsweep`), each stopped after BLOCK_TIMEOUT seconds (a hang), without
#           PYTHONPATH and with a `python3` on PATH that lacks the analysis package;
#   python  run with /usr/bin/python3, the analysis package and the policy API on PYTHONPATH;
#           a first line naming a file (`# policies/x.py: ...`) also writes the block there;
#   toml    a job file whose first line is a comment naming it (`# NAME.toml ...`): written
#           there and checked with `faultsweep check`, for the blocks after it to run;
#   marked `<!-- readme-test: synopsis -->`: the command-line summary; every subcommand's
#           --help must list each option the line shows;
#   marked `<!-- readme-test: skip REASON -->`: not run, reported with the reason.
# Any other block fails the test, so a new block must be runnable or say why it is not. The
# blocks of docs/analysis.md follow the same rules, after the README's (they read its files),
# then docs/your-cluster.md's. With PAGE arguments (`readme_commands.sh docs/your-cluster.md`)
# only those pages' blocks run and the checks below are left out (a page's own test).
# Then every relative link in README.md and docs/**/*.md must point to an existing file, every
# Markdown table in them must have a header, a separator and rows of the same width, docs/index.md
# must link every page of docs/ and docs/papers/, and docs/job-files.md every generated reference
# page (a new model's page is listed where users look for it). Last, every docs page an error
# message in src/ names must exist, and every "README's SECTION" it names must be a README heading.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BLOCK_TIMEOUT=${BLOCK_TIMEOUT:-300} # a guard against a hang, not a speed check
PY=/usr/bin/python3
HELPER="$SRC/tests/integration/markdown_check.py"

# A scratch copy of the repository's layout: the README's relative paths resolve as in a clone.
RUN="$WORK/repo"
mkdir -p "$RUN/build" "$RUN/bin"
for d in jobs inputs analysis python slurm-scripts examples tests; do ln -s "$SRC/$d" "$RUN/$d"; done
ln -s "$FS" "$RUN/build/faultsweep"
ln -s "$FS" "$RUN/bin/faultsweep"
# A reader's `python3` may be a venv's or conda's without the analysis package or h5py: `python3`
# on the blocks' PATH is one (no site-packages, PYTHONPATH ignored), and sh blocks run without
# PYTHONPATH, so a block must name /usr/bin/python3 with PYTHONPATH, or `faultsweep-analysis`.
printf '#!/bin/sh\nexec %s -I -S "$@"\n' "$PY" >"$RUN/bin/python3"
chmod +x "$RUN/bin/python3"
# mpirun as root in a container, more ranks than cores (users run plain `mpirun -np N`).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

run_block() { # NAME PYTHONPATH COMMAND...: runs in $RUN with a time limit, output to $WORK/NAME.log
  local name=$1 pythonpath=$2
  shift 2
  local t0 t1
  t0=$(date +%s.%N)
  RC=0
  (cd "$RUN" && PATH="$RUN/bin:$PATH" PYTHONPATH="$pythonpath" \
    timeout "$BLOCK_TIMEOUT" "$@") </dev/null >"$WORK/$name.log" 2>&1 || RC=$?
  t1=$(date +%s.%N)
  ELAPSED=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
}
synopsis_check() { # FILE: each `faultsweep SUB ... --opt ...` line's options are in SUB --help
  local file=$1 line sub opt ok=0
  while IFS= read -r line; do
    [[ $line =~ ^faultsweep\ ([a-z]+) ]] || continue
    sub=${BASH_REMATCH[1]}
    if ! "$FS" "$sub" --help >"$WORK/help_$sub.txt" 2>&1; then
      echo "    | faultsweep $sub --help fails"
      ok=1
      continue
    fi
    for opt in $(sed 's/#.*//' <<<"$line" | grep -o -- '--[a-z][a-z-]*' || true); do
      grep -q -- "$opt" "$WORK/help_$sub.txt" || {
        echo "    | faultsweep $sub --help does not list $opt"
        ok=1
      }
    done
  done <"$file"
  return $ok
}
run_page() { # PAGE: runs the code blocks of PAGE (relative to the repository root) in order
  local page=$1 dir n line lang marker block what name
  dir="$WORK/blocks/${page//\//_}"
  section "$page code blocks"
  "$PY" "$HELPER" blocks "$SRC/$page" "$dir"
  while IFS=$'\t' read -r -u 3 n line lang marker; do
    block="$dir/$n.$lang"
    what="block $n ($page:$line, $lang)"
    case "$marker" in
      skip\ *)
        skip "$what: ${marker#skip }"
        continue
        ;;
      synopsis)
        check "$what: every option shown is in the subcommand's --help" synopsis_check "$block"
        continue
        ;;
      run) ;;
      *)
        fail "$what: unknown marker '$marker'"
        continue
        ;;
    esac
    case "$lang" in
      sh)
        run_block "$(basename "$dir")_$n" "" bash -eo pipefail "$block"
        ;;
      python)
        # A block whose first line names a file (`# policies/x.py: ...`) is also written there,
        # for the job blocks after it (a policy in Python).
        name=$(sed -n '1s/^# *\([A-Za-z0-9_./-]*\.py\):.*/\1/p' "$block")
        if [ -n "$name" ]; then
          mkdir -p "$RUN/$(dirname "$name")"
          cp "$block" "$RUN/$name"
        fi
        run_block "$(basename "$dir")_$n" "$RUN/analysis:$RUN/python" "$PY" "$block"
        ;;
      toml)
        name=$(sed -n '1s/^# *\([A-Za-z0-9_.-]*\.toml\).*/\1/p' "$block")
        if [ -z "$name" ]; then
          fail "$what: a job block must start with a comment naming its file (# NAME.toml)"
          continue
        fi
        mkdir -p "$RUN/results"
        cp "$block" "$RUN/$name"
        run_block "$(basename "$dir")_$n" "$RUN/analysis:$RUN/python" "$FS" check "$name"
        ;;
      *)
        fail "$what: neither runnable nor marked (<!-- readme-test: skip REASON -->)"
        continue
        ;;
    esac
    if [ "$RC" -eq 0 ]; then
      pass "$what ran in ${ELAPSED} s"
    else
      fail "$what: exit $RC after ${ELAPSED} s"
      sed 's/^/    | /' "$block"
      echo "    output:"
      tail -20 "$WORK/$(basename "$dir")_$n.log" | sed 's/^/    | /'
    fi
  done 3<"$dir/manifest"
}
if [ $# -gt 0 ]; then
  for page in "$@"; do run_page "$page"; done
  finish
  exit
fi
run_page README.md
# The analysis guide's examples read the files the README's examples wrote.
run_page docs/analysis.md
run_page docs/your-cluster.md

section "links and tables in README.md and docs/"
mapfile -t pages < <(cd "$SRC" && { echo README.md; find docs -name '*.md' | sort; })
if (cd "$SRC" && "$PY" "$HELPER" links "${pages[@]}") >"$WORK/links.log" 2>&1; then
  pass "every relative link of ${#pages[@]} pages points to an existing file"
else
  fail "dead links:"
  sed 's/^/    | /' "$WORK/links.log"
fi
if (cd "$SRC" && "$PY" "$HELPER" tables "${pages[@]}") >"$WORK/tables.log" 2>&1; then
  pass "every table of ${#pages[@]} pages has a header, a separator and rows of its width"
else
  fail "broken tables:"
  sed 's/^/    | /' "$WORK/tables.log"
fi
linked_from() { # PAGE LINK: PAGE has a Markdown link to LINK
  grep -qF "]($2" "$SRC/$1"
}
for page in "$SRC"/docs/*.md "$SRC"/docs/papers/*.md; do
  rel=${page#"$SRC/docs/"}
  [ "$rel" = index.md ] && continue
  check "docs/index.md links $rel" linked_from docs/index.md "$rel"
done
for page in "$SRC"/docs/reference/*.md; do
  rel=${page#"$SRC/docs/"}
  check "docs/job-files.md links the generated $rel" linked_from docs/job-files.md "$rel"
done
section "pages the program's messages point to"
# Error messages send users to a page: it must exist (a section moved out of the README would
# otherwise leave them pointing at nothing).
mapfile -t named < <(cd "$SRC" && grep -rhoE 'docs/[A-Za-z0-9_/.-]+\.md' src --include='*.cpp' | sort -u)
for page in "${named[@]}"; do
  check "src/ names $page, which exists" test -f "$SRC/$page"
done
mapfile -t sections < <(cd "$SRC" && grep -rhoE "README's [A-Z][A-Za-z]*" src --include='*.cpp' | sort -u)
for ref in "${sections[@]}"; do
  check "src/ names $ref, a section of README.md" grep -q "^## ${ref#README\'s }" "$SRC/README.md"
done

lines=$(wc -l <"$SRC/README.md")
check "README.md is a front door of at most 200 lines ($lines)" test "$lines" -le 200

finish
