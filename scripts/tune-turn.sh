#!/usr/bin/env bash
# One turn of the tuning loop: self-play positions (datagen), a tuning run from the current
# weights on them, and an SPRT of the tuned weights (through EvalFile) against the current ones.
#   scripts/tune-turn.sh [POSITIONS=500000] [DIR=target/turn] [NODES=5000] [ROUNDS=1500]
# Each step is resumable: datagen appends to DIR/selfplay.csv and stops at POSITIONS, the SPRT
# resumes from DIR/turn-sprt.json (a rerun continues where a stopped one left off). The SPRT is
# node-limited (10,000 nodes a move) so that a busy machine cannot bias it; confirm an H1 at a
# clock before adopting the weights (docs/results-tune.md).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500000}
DIR=${2:-target/turn}
NODES=${3:-5000}
ROUNDS=${4:-1500}
cargo build --release --quiet
H=./target/release/harness
mkdir -p "$DIR"
echo "=== datagen: $N positions at $NODES nodes a move into $DIR/selfplay.csv"
"$H" datagen --out "$DIR/selfplay.csv" --positions "$N" --nodes "$NODES" --random-plies 8 \
    --threads 0 --seed 26
echo "=== tune from the current weights (results blended with the search scores)"
"$H" tune "$DIR/selfplay.csv" --init current --epochs 600 --lr 0.25 --l2 3e-9 --lambda 0.5 \
    --out "$DIR/tuned.json" --curve "$DIR/turn-loss.svg"
echo "=== SPRT: tuned against current"
SPRT=(sprt --engine "cmd=$PWD/target/release/sable" name=tuned "option.EvalFile=$PWD/$DIR/tuned.json"
    --engine "cmd=$PWD/target/release/sable" name=current --each nodes=10000 option.Hash=8
    --elo0 0 --elo1 10 --rounds "$ROUNDS" --concurrency "$(nproc)" --seed 26)
if [ -e "$DIR/turn-sprt.json" ]; then
    "$H" sprt --resume "$DIR/turn-sprt.json" --rounds "$ROUNDS"   # engines and settings from the file
else
    "$H" "${SPRT[@]}" --results "$DIR/turn-sprt.json"
fi
