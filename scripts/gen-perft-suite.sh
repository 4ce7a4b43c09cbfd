#!/usr/bin/env bash
# Regenerates suites/perft.epd: the six CPW positions, hand-picked edge cases and random playout
# positions, each counted by both sable and shakmaty (the command fails if they disagree).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -- perft --generate suites/perft.epd
echo "suites/perft.epd: $(grep -vc '^#' suites/perft.epd) positions"
