#!/usr/bin/env bash
# Regenerates suites/tactics.epd from games the project plays itself:
#  1. `harness match` plays GAMES games between two engines from random 8-move openings
#     (default: Stockfish limited to Elo 1350 against Glaurung, both at a fixed node count, so
#     the games are full of tactical mistakes; pass other engine words to use sable's games);
#  2. `harness suite-gen` has Stockfish (MultiPV 2) analyse every position (20000 nodes) and keeps
#     those where the best move beats the second by >= 150 cp while the second is not already
#     winning (<= +200 cp), or is the only forced mate; plain recaptures are dropped.
#
# Usage: scripts/gen-tactics.sh [ROUNDS] [ORACLE]   (default 40 rounds x 2 games, stockfish)
# Needs ../shared/data/books/8moves_v3.epd (the openings) beside the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-40}
ORACLE=${2:-/usr/games/stockfish}
BOOK=${BOOK:-../shared/data/books/8moves_v3.epd}
OUT=suites/tactics.epd
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cargo build --release --quiet
H=target/release/harness

"$H" match \
    --engine cmd=/usr/games/stockfish name=stockfish-1350 option.UCI_LimitStrength=true option.UCI_Elo=1350 \
    --engine cmd=/usr/games/glaurung name=glaurung \
    --each nodes=3000 \
    --openings file="$BOOK" order=random \
    --games 2 --rounds "$ROUNDS" --concurrency 2 --seed 2026 --recover \
    --pgnout "$TMP/games.pgn" --results "$TMP/match.json"

"$H" suite-gen --pgn "$TMP/games.pgn" --oracle "$ORACLE" --nodes 20000 \
    --margin 150 --max-second 200 --skip-plies 0 --id-prefix tactics --concurrency 2 \
    --out "$TMP/tactics.epd"
{
    echo "# Tactical positions from $((ROUNDS * 2)) games stockfish-1350 vs glaurung (3000 nodes/move),"
    echo "# played by harness match; selected by harness suite-gen (scripts/gen-tactics.sh):"
    echo "# oracle $(basename "$ORACLE") MultiPV 2 at 20000 nodes, best beats second by >= 150 cp, second <= +200 cp."
    cat "$TMP/tactics.epd"
} > "$OUT"
echo "wrote $(grep -vc '^#' "$OUT") positions to $OUT"
