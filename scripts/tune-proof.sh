#!/usr/bin/env bash
# Tune from --init material and from the current defaults on DATA; prints final training and
# validation losses, writes data/tuned.json (from the defaults), the loss curves and the Rust source.
#   scripts/tune-proof.sh [DATA=target/selfplay.csv] [EPOCHS=1000]
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-target/selfplay.csv}
EPOCHS=${2:-1000}
mkdir -p target/tune
cargo build --release --quiet
echo "=== from material values"
./target/release/harness tune "$DATA" --init material --epochs "$EPOCHS" --lr 2 \
    --out target/tune/material.json --curve target/tune/material-loss.svg
echo "=== from the current defaults"
./target/release/harness tune "$DATA" --init current --epochs "$EPOCHS" --lr 1 \
    --out data/tuned.json --curve target/tune/current-loss.svg --emit-rust target/tune/defaults.rs
