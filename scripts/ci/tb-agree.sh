#!/usr/bin/env bash
# Syzygy probes against python-chess's independent prober, on random positions of every table
# of the shared data (both colour arrangements, both sides to move, en passant), with
# python-chess installed when missing (as scripts/ci/dfrc-gauntlet.sh does):
# - the engine: `sable tbprobe`, through its own board conversion (scripts/tb-agree-engine.py);
# - the harness: `harness tb probe`, WDL, DTZ, result and every legal move's value
#   (scripts/tb-agree.py).
#   scripts/ci/tb-agree.sh [TABLES]      (default ../shared/data/syzygy)
set -euo pipefail
cd "$(dirname "$0")/../.."
tables=${1:-../shared/data/syzygy}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release -q -p sable -p sable-harness
if ! python3 -c "import chess.syzygy" 2>/dev/null; then
  pip install -q --target "$work/py" chess
  export PYTHONPATH="$work/py"
fi
echo "engine (sable tbprobe):"
python3 scripts/tb-agree-engine.py --sable target/release/sable --tables "$tables"
echo "harness (harness tb probe):"
python3 scripts/tb-agree.py --tb "$tables" --harness target/release/harness
