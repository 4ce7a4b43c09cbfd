#!/usr/bin/env bash
# Regenerates suites/openings.epd: random 8-ply openings that sable, searching to depth 8, scores
# within ±60 cp. Run from anywhere in the repository once sable plays.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin sable
cargo run --release --bin harness -- book --engine cmd=target/release/sable option.Hash=16 \
    --count "${COUNT:-2000}" --plies 8 --depth 8 --max-cp 60 --seed "${SEED:-1}" --out suites/openings.epd --force
