#!/usr/bin/env bash
# Regenerates suites/mates.epd: unique forced mates in 1 to 4 moves found in seeded random
# playouts by `harness suite-gen` with Stockfish as the oracle (MultiPV 2: the mating move must be
# the only one that mates). Mates in 1 and 2 are re-checked by our own exhaustive shakmaty search
# inside suite-gen; then every position is verified by Stockfish at a higher depth with
# `harness epd` (the `dm` criterion: it must report the mate in N or faster). Deterministic for a
# given seed and Stockfish version (every search is depth-limited).
#
# Usage: scripts/gen-mates.sh [ORACLE] (default /usr/games/stockfish)
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLE=${1:-/usr/games/stockfish}
OUT=suites/mates.epd
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cargo build --release --quiet
H=target/release/harness

"$H" suite-gen --random-playouts 50 --seed 2026 --skip-plies 16 --playout-plies 140 \
    --oracle "$ORACLE" --depth 8 --mates-only 4 --max-per-mate 50 \
    --id-prefix mates --concurrency 2 --out "$TMP/mates.epd"

# Independent check at a greater depth: a mate Stockfish does not confirm there (mate in N or
# faster) is dropped.
"$H" epd "$TMP/mates.epd" --engine "$ORACLE" --depth 16 --concurrency 2 --csv "$TMP/verify.csv" \
    --no-failures
awk -F, 'NR > 1 && $3 == 0 { print "id \"" $2 "\";" }' "$TMP/verify.csv" > "$TMP/unconfirmed"
echo "dropping $(wc -l < "$TMP/unconfirmed") unconfirmed mates"
grep -v -F -f "$TMP/unconfirmed" "$TMP/mates.epd" > "$TMP/confirmed.epd" || true
{
    echo "# Unique forced mates in 1-4 from seeded random playouts (scripts/gen-mates.sh)."
    echo "# Oracle: $(basename "$ORACLE"), MultiPV 2 depth 8; verified by it at depth 16;"
    echo "# mates in 1-2 also verified by the harness's exhaustive shakmaty mate search."
    cat "$TMP/confirmed.epd"
} > "$OUT"
echo "wrote $(grep -vc '^#' "$OUT") positions to $OUT"
