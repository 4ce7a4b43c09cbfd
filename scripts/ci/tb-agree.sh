#!/usr/bin/env bash
# Sable's Syzygy probes against python-chess's independent prober on every 3- and 4-piece
# table of the shared data (scripts/tb-agree.py), with python-chess installed when missing
# (as scripts/ci/dfrc-gauntlet.sh does).
#   scripts/ci/tb-agree.sh [TABLES]      (default ../shared/data/syzygy)
set -euo pipefail
cd "$(dirname "$0")/../.."
tables=${1:-../shared/data/syzygy}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release -q -p sable
if ! python3 -c "import chess.syzygy" 2>/dev/null; then
  pip install -q --target "$work/py" chess
  export PYTHONPATH="$work/py"
fi
python3 scripts/tb-agree.py --sable target/release/sable --tables "$tables"
