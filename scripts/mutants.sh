#!/usr/bin/env bash
# Mutation testing of the modules whose silent bugs cost a user a wrong decision: the statistics,
# the check gate, the runner's stopping rules, the engine's clock and SEE, and the eval trace.
# cargo-mutants (`cargo install cargo-mutants`) applies one small bug at a time to a copy of the
# tree and runs the tests that guard that module; a mutant no test notices is "missed".
#
#   scripts/mutants.sh [GROUP ...]     groups: stats check tally time see trace (default: all)
#   MUTANTS_ARGS="-F perft_on" scripts/mutants.sh check     a narrower run (cargo-mutants' own
#                                      --file / -F options, added to the group's)
#
# Each group prints cargo-mutants' summary line, e.g. "47 mutants tested in 8m: 40 caught, 7
# unviable"; the full lists are in mutants.out/<group>/ (missed.txt, caught.txt, ...), and the
# run's record (command, commit, summary, every mutant by outcome) is written to
# docs/mutants/<group>.txt to be committed, so each number in docs/mutants.md can be checked. Builds use
# the `mutants` profile (incremental, lightly optimised), so after a first build each mutant
# takes seconds. Mutants that cannot be killed (equivalent ones) are listed with their reason in
# .cargo/mutants.toml. Scores per module: docs/mutants.md.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || { echo "needs cargo-mutants: cargo install cargo-mutants" >&2; exit 2; }

run() { # group, package, file globs..., -- test filter args
  local group=$1 package=$2; shift 2
  local files=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do files+=(-f "$1"); shift; done
  shift
  echo "=== $group"
  mkdir -p "mutants.out/$group"
  local extra=()
  read -r -a extra <<<"${MUTANTS_ARGS:-}"
  local cmd=(cargo mutants --profile mutants --no-shuffle -p "$package" "${files[@]}" "${extra[@]}"
    -o "mutants.out/$group" -- "$@")
  # cargo-mutants exits non-zero when a mutant survives; the summary says so, go on.
  local summary
  summary=$({ "${cmd[@]}" 2>&1 || true; } | grep -E 'mutants? tested' | tail -1)
  summary=${summary:-"(no summary: the run stopped before its end; the lists below hold what finished)"}
  echo "$summary"
  record "$group" "$summary" "${cmd[@]}"
}

record() { # group, summary, command...: the run's record under docs/mutants/
  local group=$1 summary=$2; shift 2
  local out="mutants.out/$group/mutants.out" file="docs/mutants/$group.txt"
  mkdir -p docs/mutants
  {
    echo "# cargo-mutants run of group '$group' (scripts/mutants.sh), $(date -u +%Y-%m-%d\ %H:%M) UTC"
    echo "# commit $(git rev-parse --short HEAD)$(git diff --quiet -- engine src || echo ' (with uncommitted changes)')"
    echo "# $(cargo mutants --version 2>/dev/null)"
    echo "# command: $*"
    echo "# summary: $summary"
    for outcome in missed timeout caught unviable; do
      [ -f "$out/$outcome.txt" ] || continue
      echo
      echo "## $outcome ($(wc -l <"$out/$outcome.txt"))"
      cat "$out/$outcome.txt"
    done
  } >"$file"
  echo "record: $file"
}

groups=("$@")
[ ${#groups[@]} -eq 0 ] && groups=(stats check tally time see trace)
for g in "${groups[@]}"; do
  case $g in
    stats) run stats sable-harness 'src/stats/*.rs' -- --lib -- stats:: ;;
    check) run check sable-harness 'src/check/*.rs' -- --lib -- check:: ;;
    tally) run tally sable-harness 'src/tournament/tally.rs' -- --lib -- tournament:: ;;
    time) run time sable 'engine/src/search/time.rs' -- --lib -- search::time ;;
    see) run see sable 'engine/src/search/see.rs' -- --lib -- see ;;
    trace) run trace sable 'engine/src/eval/trace.rs' -- --test integration eval:: ;;
    *) echo "unknown group $g" >&2; exit 2 ;;
  esac
done
