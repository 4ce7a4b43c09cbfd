#!/usr/bin/env python3
"""Agreement of Sable's Syzygy probes with python-chess's independent prober.

Random legal positions for every table in the folder (both colours as the side with more
material, both sides to move, en passant positions for the tables where both sides have pawns)
are probed twice: by `sable tbprobe` (the engine's board, its conversion to a shakmaty position,
shakmaty-syzygy) and by python-chess (`chess.syzygy`, its own Python decoder of the same files).
WDL and DTZ must agree on every position. Exit 0 when they do and every table was covered.

DTZ convention: both follow Fathom / Stockfish ("DTZ before zeroing"): +-1 when the next move
zeroes (capture, pawn move, or mate), +-101 for that in a cursed win / blessed loss, otherwise
the plies to the next zeroing move, which the table may store halved (rounded: the true value
may be one ply more). python-chess returns the same number and no rounding flag, so the values
are compared as they are; `sable tbprobe` marks rounded ones and the script counts them.

  scripts/tb-agree-engine.py [--sable target/release/sable] [--tables DIR] [--per-table 150] [--seed 1]

DIR defaults to $SABLE_SHARED_DATA/syzygy, else ../shared/data/syzygy beside the checkout.
"""

import argparse
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

try:
    import chess
    import chess.syzygy
except ImportError:
    sys.exit("tb-agree: python-chess is not installed (pip install chess)")

ROOT = Path(__file__).resolve().parent.parent
PIECE = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
         "N": chess.KNIGHT, "P": chess.PAWN}


def default_tables():
    shared = os.environ.get("SABLE_SHARED_DATA")
    base = Path(shared) if shared else ROOT.parent / "shared" / "data"
    return base / "syzygy"


def materials(folder):
    """Material names (KQvKR) that have both a .rtbw and a .rtbz file in `folder`."""
    wdl = {p.stem for p in folder.glob("*.rtbw")}
    dtz = {p.stem for p in folder.glob("*.rtbz")}
    return sorted(wdl & dtz, key=lambda m: (len(m), m))


def place(board, rng, color, role):
    """Puts a piece of `role` on a random empty square (pawns off the back ranks)."""
    while True:
        sq = rng.randrange(64)
        if board.piece_at(sq) is None and not (
                role == chess.PAWN and chess.square_rank(sq) in (0, 7)):
            board.set_piece_at(sq, chess.Piece(role, color))
            return


def reachable(board):
    """python-chess's validity plus the engine's FEN rule on checks (engine/src/board/reachable.rs):
    a double check is a move plus a discovered slider, so two checkers of which none is a slider
    cannot arise in a game, and sable refuses such a position."""
    if not board.is_valid():
        return False
    checkers = [board.piece_at(sq).piece_type for sq in board.checkers()]
    sliders = (chess.BISHOP, chess.ROOK, chess.QUEEN)
    return len(checkers) < 2 or any(p in sliders for p in checkers)


def random_position(material, strong, turn, rng):
    """A random legal position of `material` with `strong` owning its first side."""
    white_side, black_side = material.split("v")
    while True:
        board = chess.Board(None)
        for letters, color in ((white_side, strong), (black_side, not strong)):
            for letter in letters:
                place(board, rng, color, PIECE[letter])
        board.turn = turn
        if reachable(board):
            return board


def en_passant_position(material, turn, rng):
    """A random legal position of `material` (pawns on both sides) where the side to move may
    capture en passant: the opponent's pawn has just moved two squares past one of ours."""
    white_side, black_side = material.split("v")
    us, them = turn, not turn
    # Our pawn on the fifth rank (relative), theirs beside it having just jumped there.
    rank = 4 if us == chess.WHITE else 3
    while True:
        board = chess.Board(None)
        file = rng.randrange(8)
        side = rng.choice([-1, 1])
        if not 0 <= file + side < 8:
            continue
        ours = chess.square(file, rank)
        theirs = chess.square(file + side, rank)
        board.set_piece_at(ours, chess.Piece(chess.PAWN, us))
        board.set_piece_at(theirs, chess.Piece(chess.PAWN, them))
        # The remaining pieces: both sides' letters less one pawn each.
        rest = {chess.WHITE: list(white_side), chess.BLACK: list(black_side)}
        rest[chess.WHITE].remove("P")
        rest[chess.BLACK].remove("P")
        for color in (chess.WHITE, chess.BLACK):
            for letter in rest[color]:
                place(board, rng, color, PIECE[letter])
        board.turn = us
        step = 8 if us == chess.WHITE else -8
        board.ep_square = theirs + step
        if board.piece_at(theirs + step) or board.piece_at(theirs + 2 * step):
            continue
        # Not in check: whether the double step could have given that check is the engine's
        # rule, not python-chess's (the engine refuses a check the pawn's move cannot explain).
        if reachable(board) and not board.is_check() and board.has_legal_en_passant():
            return board


def positions(mats, per_table, seed):
    """(material, fen) pairs: per_table for each material, split over the four colour and
    side-to-move combinations, plus en passant positions where both sides have pawns."""
    rng = random.Random(seed)
    out = []
    for m in mats:
        for i in range(per_table):
            strong = chess.WHITE if i % 2 == 0 else chess.BLACK
            turn = chess.WHITE if (i // 2) % 2 == 0 else chess.BLACK
            out.append((m, random_position(m, strong, turn, rng).fen()))
        white_side, black_side = m.split("v")
        if "P" in white_side and "P" in black_side:
            for i in range(per_table):
                turn = chess.WHITE if i % 2 == 0 else chess.BLACK
                out.append((m + " e.p.", en_passant_position(m, turn, rng).fen()))
    return out


def sable_probes(sable, tables, fens):
    """`sable tbprobe`'s (wdl, dtz, rounded) for each FEN."""
    proc = subprocess.run([str(sable), "tbprobe", str(tables)], input="\n".join(fens) + "\n",
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"tb-agree: sable tbprobe exited with {proc.returncode}:\n{proc.stderr}")
    lines = proc.stdout.splitlines()
    if len(lines) != len(fens):
        sys.exit(f"tb-agree: {len(fens)} FENs sent, {len(lines)} answers:\n{proc.stderr}")
    out = []
    for line in lines:
        words = line.split()
        # "wdl W dtz D [rounded]"
        if len(words) < 4 or words[0] != "wdl" or words[2] != "dtz":
            sys.exit(f"tb-agree: unexpected answer {line!r}")
        wdl = None if words[1] == "none" else int(words[1])
        dtz = None if words[3] == "none" else int(words[3])
        out.append((wdl, dtz, words[4:] == ["rounded"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sable", default=str(ROOT / "target" / "release" / "sable"))
    ap.add_argument("--tables", default=str(default_tables()))
    ap.add_argument("--per-table", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    tables = Path(args.tables)
    mats = materials(tables)
    if not mats:
        sys.exit(f"tb-agree: no tables in {tables}")
    pairs = positions(mats, args.per_table, args.seed)
    fens = [f for _, f in pairs]
    ours = sable_probes(args.sable, tables, fens)
    mismatches = []
    covered = Counter()
    rounded = 0
    decisive = 0
    ep = 0
    with chess.syzygy.open_tablebase(str(tables)) as tb:
        for (material, fen), (wdl, dtz, was_rounded) in zip(pairs, ours):
            board = chess.Board(fen)
            want_wdl = tb.probe_wdl(board)
            want_dtz = tb.probe_dtz(board)
            covered[material.split()[0]] += 1
            rounded += was_rounded
            decisive += want_wdl != 0
            ep += board.has_legal_en_passant()
            if (wdl, dtz) != (want_wdl, want_dtz):
                mismatches.append(f"{fen}: sable wdl {wdl} dtz {dtz}, "
                                  f"python-chess wdl {want_wdl} dtz {want_dtz}")
    missing = [m for m in mats if covered[m] == 0]
    print(f"{len(fens)} positions over {len(covered)} tables ({', '.join(mats)}); "
          f"{decisive} decisive, {ep} with en passant, {rounded} rounded DTZ")
    for line in mismatches[:20]:
        print("MISMATCH", line)
    if mismatches or missing:
        print(f"tb-agree: {len(mismatches)} mismatches, tables not covered: {missing}")
        return 1
    print(f"tb-agree: WDL and DTZ agree on all {len(fens)} positions (100 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
