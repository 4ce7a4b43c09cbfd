#!/usr/bin/env bash
# Generate labelled self-play positions with the in-process engine (harness datagen).
# Scales with the first argument; resumable (re-run the same command to continue).
#   scripts/datagen.sh [POSITIONS=20000] [OUT=target/selfplay.csv] [NODES=5000] [THREADS=0 (all cores)]
# The issue's eventual target is 1,000,000+ positions: scripts/datagen.sh 1000000 big.csv
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-20000}
OUT=${2:-target/selfplay.csv}
NODES=${3:-5000}
THREADS=${4:-0}
cargo build --release --quiet
mkdir -p "$(dirname "$OUT")"
./target/release/harness datagen --out "$OUT" --positions "$N" --nodes "$NODES" \
    --random-plies 8 --threads "$THREADS" --seed 1
