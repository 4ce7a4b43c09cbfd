#!/usr/bin/env bash
# Labelled positions from games between two instances of a reference engine (Stockfish from
# Debian by default), played by the harness's own match runner from the project's opening book,
# then extracted with their scores. Labels from a much stronger engine's games carry what
# self-play cannot teach (king attacks that Sable's own games never punish).
# Resumable: re-run the same command and the match continues from its results file.
#   scripts/refdata.sh [ROUNDS=2000] [DIR=target/refdata] [ENGINE=/usr/games/stockfish]
# Then, for example:
#   harness tune target/refdata/ref.csv --init current --lambda 0.5 --l2 3e-9 --epochs 800 --lr 1
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-2000}
DIR=${2:-target/refdata}
ENGINE=${3:-/usr/games/stockfish}
cargo build --release --quiet
mkdir -p "$DIR"
BOOK=$(pwd)/suites/openings.epd
HARNESS=$(pwd)/target/release/harness
cd "$DIR"
if [ -f ref.json ]; then
    "$HARNESS" match --resume ref.json
else
    # Two node budgets so that the same opening does not give the same game twice.
    "$HARNESS" match --engine "cmd=$ENGINE" name=refa nodes=8000 \
        --engine "cmd=$ENGINE" name=refb nodes=10000 \
        --each option.Hash=16 option.Threads=1 --concurrency "$(nproc)" --rounds "$ROUNDS" \
        --openings "file=$BOOK" order=sequential --resign movecount=4 score=800 --recover \
        --results ref.json --pgnout ref.pgn
fi
"$HARNESS" extract ref.pgn --out ref.csv
