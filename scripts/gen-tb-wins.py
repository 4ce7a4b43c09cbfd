#!/usr/bin/env python3
"""Writes engine/tests/data/syzygy-wins.epd: won 3- and 4-piece positions that take many moves
to convert, for the conversion test (engine/tests/syzygy_convert.rs).

For each material below, random legal placements with the stronger side to move are probed
with python-chess and the Syzygy tables; among the wins (WDL 2: won under the fifty-move rule
from a fresh halfmove clock), the ones with the longest DTZ are kept, so the set is made of the
hard cases (KBNvK, KQvKR and KRvKB wins that need dozens of moves before the first capture or
mate). Deterministic for a seed.

  scripts/gen-tb-wins.py [--tables DIR] [--seed 2026] [--out engine/tests/data/syzygy-wins.epd]
"""

import argparse
import os
import random
import sys
from pathlib import Path

try:
    import chess
    import chess.syzygy
except ImportError:
    sys.exit("gen-tb-wins: python-chess is not installed (pip install chess)")

ROOT = Path(__file__).resolve().parent.parent
PIECE = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
         "N": chess.KNIGHT, "P": chess.PAWN}

# Material, how many positions to keep, how many random placements to draw them from.
PLAN = [
    ("KBNvK", 12, 6000),
    ("KQvKR", 12, 6000),
    ("KRvKB", 8, 8000),
    ("KRvKN", 4, 3000),
    ("KQvKN", 3, 3000),
    ("KQvKB", 3, 3000),
    ("KBBvK", 4, 3000),
    ("KQvKP", 3, 3000),
    ("KRvKP", 3, 3000),
    ("KPvK", 2, 3000),
    ("KRvK", 2, 2000),
    ("KQvK", 2, 2000),
]


def default_tables():
    shared = os.environ.get("SABLE_SHARED_DATA")
    base = Path(shared) if shared else ROOT.parent / "shared" / "data"
    return base / "syzygy"


def random_position(material, rng):
    """A random legal placement of `material`, colours at random, the stronger side to move."""
    strong_side, weak_side = material.split("v")
    strong = rng.choice([chess.WHITE, chess.BLACK])
    while True:
        board = chess.Board(None)
        for letters, color in ((strong_side, strong), (weak_side, not strong)):
            for letter in letters:
                role = PIECE[letter]
                while True:
                    sq = rng.randrange(64)
                    if board.piece_at(sq) is None and not (
                            role == chess.PAWN and chess.square_rank(sq) in (0, 7)):
                        board.set_piece_at(sq, chess.Piece(role, color))
                        break
        board.turn = strong
        if board.is_valid() and not board.is_check():
            return board


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default=str(default_tables()))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=str(ROOT / "engine" / "tests" / "data" / "syzygy-wins.epd"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lines = []
    with chess.syzygy.open_tablebase(args.tables) as tb:
        for material, keep, draws in PLAN:
            wins = {}
            for _ in range(draws):
                board = random_position(material, rng)
                if tb.probe_wdl(board) == 2:
                    wins[board.epd()] = tb.probe_dtz(board)
            best = sorted(wins.items(), key=lambda kv: (-kv[1], kv[0]))[:keep]
            if len(best) < keep:
                sys.exit(f"gen-tb-wins: only {len(best)} wins of {material} in {draws} draws")
            for i, (epd, dtz) in enumerate(best, 1):
                lines.append(f'{epd} id "{material}.{i:02}"; c0 "wdl 2 dtz {dtz}";')
    Path(args.out).write_text(
        "# Won Syzygy positions, stronger side to move, longest DTZ first per material.\n"
        "# Regenerate: scripts/gen-tb-wins.py (python-chess + the 3-4-piece tables).\n"
        + "\n".join(lines) + "\n")
    print(f"gen-tb-wins: {len(lines)} positions written to {args.out}")


if __name__ == "__main__":
    sys.exit(main())
