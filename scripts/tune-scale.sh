#!/usr/bin/env bash
# Tuner scaling: epochs per second against threads, on DATA replicated to N positions (so that
# an epoch lasts long enough at many threads), this tree's harness from a mapped cache against
# BASE (an older harness, from the text) when given, alternating, one run per thread count.
#
#   scripts/tune-scale.sh DATA [N=16000000] [THREADS="1 2 4 8 16"] [EPOCHS=6]
#   BASE=path/to/old/harness scripts/tune-scale.sh ...
#
# The issue 43 figures (docs/results-tune.md) came from this on the 16-core device machine.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:?usage: scripts/tune-scale.sh DATA [N] [THREADS] [EPOCHS]}
N=${2:-16000000}
THREADS=${3:-1 2 4 8 16}
EPOCHS=${4:-6}
cargo build --release --quiet
H=./target/release/harness
CACHE=$(mktemp -d)/scale.cache
"$H" tune "$DATA" --valid 0 --k 1 --epochs 1 --cache "$CACHE" --out /dev/null 2>&1 | grep -E 'traced|dictionary' || true
run() { # BINARY THREADS EXTRA...
    local bin=$1 t=$2
    shift 2
    out=$("$bin" tune "$DATA" "$@" --replicate "$N" --valid 0 --k 1 --epochs "$EPOCHS" \
        --threads "$t" --out /dev/null 2>&1)
    echo "$bin, $t thread(s): $(sed -n 's/^epochs *\(.*\)/\1/p' <<<"$out")"
}
for T in $THREADS; do
    run "$H" "$T" --cache "$CACHE"
    if [ -n "${BASE:-}" ]; then run "$BASE" "$T"; fi
done
rm -rf "$(dirname "$CACHE")"
