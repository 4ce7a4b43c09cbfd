#!/usr/bin/env bash
# Regenerates the built-in perft suites, each count computed by both sable and shakmaty (the
# command fails if they disagree):
#   suites/perft.epd     the six CPW positions, hand-picked edge cases and random playouts;
#   suites/perft960.epd  Chess960 and Double Fischer Random start positions, castling edge cases
#                        and random playouts that keep castling rights.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -- perft --generate suites/perft.epd
echo "suites/perft.epd: $(grep -vc '^#' suites/perft.epd) positions"
cargo run --release --quiet -- perft --generate-960 suites/perft960.epd
echo "suites/perft960.epd: $(grep -vc '^#' suites/perft960.epd) positions"
