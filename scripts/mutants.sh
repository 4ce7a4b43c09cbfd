#!/usr/bin/env bash
# Mutation testing of the modules whose silent bugs cost a user a wrong decision: the statistics,
# the check gate, the runner's stopping rules, the engine's clock and SEE, and the eval trace.
# cargo-mutants (`cargo install cargo-mutants`) applies one small bug at a time to a copy of the
# tree and runs the tests that guard that module; a mutant no test notices is "missed".
#
#   scripts/mutants.sh [GROUP ...]     groups: stats check tally time see trace (default: all)
#
# Each group prints cargo-mutants' summary line, e.g. "47 mutants tested in 8m: 40 caught, 7
# unviable"; the full lists are in mutants.out/<group>/ (missed.txt, caught.txt, ...). Builds use
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
  # cargo-mutants exits non-zero when a mutant survives; the summary says so, go on.
  { cargo mutants --profile mutants --no-shuffle -p "$package" "${files[@]}" \
    -o "mutants.out/$group" -- "$@" 2>&1 || true; } | tail -1
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
    trace) run trace sable 'engine/src/eval/trace.rs' -- --test eval ;;
    *) echo "unknown group $g" >&2; exit 2 ;;
  esac
done
