#!/usr/bin/env bash
# A small double Fischer random gauntlet of sable against ethereal-chess and stockfish (both
# offer UCI_Chess960), checked the way the Chess960 issue asks: no illegal move, no crash, no
# disconnect, and a PGN that python-chess replays. Node limits keep it quick and load-proof.
#   scripts/ci/dfrc-gauntlet.sh [ROUNDS]        (needs /usr/games/{stockfish,ethereal-chess})
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release -q -p sable -p sable-harness
target/release/harness book --variant fischerandom --dfrc --plies 2 --count 32 --max-cp 100 \
  --depth 6 --seed 2026 --engine cmd=target/release/sable --out "$work/dfrc.epd"
set +e
target/release/harness match --variant fischerandom \
  --engine cmd=target/release/sable name=sable \
  --engine cmd=/usr/games/ethereal-chess name=ethereal \
  --engine cmd=/usr/games/stockfish name=stockfish \
  --each tc=inf nodes=20000 option.Hash=16 option.Threads=1 --rounds "$rounds" --concurrency 2 \
  --openings file="$work/dfrc.epd" order=random --seed 7 --pgnout "$work/dfrc.pgn" \
  --results "$work/dfrc.json" --quiet --ratinginterval 0
code=$?
set -e
[ "$code" -eq 0 ] || { echo "the DFRC gauntlet exited with $code" >&2; exit 1; }
python3 - "$work/dfrc.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
bad = [f for f in summary["faults"] if f["crashes"] or f["illegal_moves"] or f["disconnects"] or f["time_losses"]]
assert not bad, f"faults: {bad}"
assert summary["finished"] == summary["scheduled"], summary
print(f"{summary['finished']} DFRC games, no faults")
PY
if ! python3 -c "import chess" 2>/dev/null; then
  pip install -q --target "$work/py" chess
  export PYTHONPATH="$work/py"
fi
python3 scripts/ci/replay-chess960.py "$work/dfrc.pgn"
