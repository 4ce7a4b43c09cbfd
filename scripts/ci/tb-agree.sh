#!/usr/bin/env bash
# `harness tb probe` against python-chess's Syzygy prober on random positions of every table in
# ../shared/data/syzygy (both colour arrangements, both sides to move, en passant): WDL, DTZ,
# result and every legal move's value must agree 100 % (scripts/tb-agree.py says more).
#   scripts/ci/tb-agree.sh [extra tb-agree.py options]
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release -q -p sable-harness
if ! python3 -c "import chess.syzygy" 2>/dev/null; then
  pip install -q --target "$work/py" chess
  export PYTHONPATH="$work/py"
fi
python3 scripts/tb-agree.py --tb ../shared/data/syzygy --harness target/release/harness "$@"
