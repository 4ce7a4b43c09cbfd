#!/usr/bin/env python3
"""`harness tb probe` against python-chess's own Syzygy prober (an independent implementation).

Random legal positions for every table in the folder, both colour arrangements, both sides to
move, plus en passant positions for the tables with a pawn on each side, go through
`harness tb probe --epd` once; python-chess probes the same positions. Every position's WDL,
DTZ and result, and every legal move's value (the lists WinningMoves, DrawingMoves, ...) and
the best move's value, must agree: 100 %, or the script exits 1 naming the first disagreements.

Convention mapping: python-chess's probe_wdl is the table's value counted from a zeroing move
(-2..2), as the harness's WDL tag (Loss..Win). python-chess's probe_dtz returns the stored DTZ,
which may be one ply short (rounded tables); shakmaty-syzygy returns it as MaybeRounded, and
the harness prints `n` (precise) or `n or n+1` (rounded): python-chess's value is the `n`.

    scripts/tb-agree.py [--tb DIR] [--per-side N] [--ep N] [--seed S] [--harness PATH]

Needs python-chess (`pip install chess`); builds target/release/harness when it is missing.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

import chess
import chess.syzygy

WDL_NAMES = {"Loss": -2, "BlessedLoss": -1, "Draw": 0, "CursedWin": 1, "Win": 2}
MOVE_TAGS = {
    "WinningMoves": 2,
    "CursedWinningMoves": 1,
    "DrawingMoves": 0,
    "BlessedLosingMoves": -1,
    "LosingMoves": -2,
}


def wdl_from_dtz(n):
    """The 5-valued WDL of a DTZ (shakmaty-syzygy's Wdl::from_dtz, the Syzygy definition)."""
    if n < -100:
        return -1
    if n < 0:
        return -2
    if n == 0:
        return 0
    return 2 if n <= 100 else 1


def add_plies(n, plies):
    """DTZ `n` seen `plies` halfmoves later on the clock (away from zero)."""
    return n + plies if n > 0 else n - plies if n < 0 else 0


def materials(folder):
    """The materials of the WDL tables in `folder`: ('KQ', 'KR') for KQvKR.rtbw."""
    out = []
    for name in sorted(os.listdir(folder)):
        m = re.fullmatch(r"(K[QRBNP]*)v(K[QRBNP]*)\.rtbw", name)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def random_position(rng, white, black, turn):
    """A random legal position with these pieces, or None."""
    board = chess.Board(None)
    squares = rng.sample(range(64), len(white) + len(black))
    for sq, (symbol, color) in zip(
        squares, [(s, chess.WHITE) for s in white] + [(s, chess.BLACK) for s in black]
    ):
        piece = chess.Piece.from_symbol(symbol if color == chess.WHITE else symbol.lower())
        if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
            return None
        board.set_piece_at(sq, piece)
    board.turn = turn
    # Double checks are left out: shakmaty refuses those no move can give (two knights), which
    # python-chess accepts.
    return board if board.is_valid() and len(board.checkers()) < 2 else None


def ep_position(rng, turn):
    """A KPvKP position where the side to move can take en passant, or None."""
    board = chess.Board(None)
    file = rng.randrange(8)
    side = rng.choice([-1, 1])
    if not 0 <= file + side < 8:
        return None
    # The pawn that just moved two squares, and the one that may take it.
    if turn == chess.WHITE:
        moved, taker, ep, start = (chess.square(file, 4), chess.square(file + side, 4),
                                   chess.square(file, 5), chess.square(file, 6))
    else:
        moved, taker, ep, start = (chess.square(file, 3), chess.square(file + side, 3),
                                   chess.square(file, 2), chess.square(file, 1))
    board.set_piece_at(moved, chess.Piece(chess.PAWN, not turn))
    board.set_piece_at(taker, chess.Piece(chess.PAWN, turn))
    free = [s for s in range(64) if s not in (moved, taker, ep, start)]
    wk, bk = rng.sample(free, 2)
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.turn = turn
    board.ep_square = ep
    if not board.is_valid() or not board.has_legal_en_passant():
        return None
    return board


def positions(folder, per_side, n_ep, seed):
    """(board, table) pairs: per table, `per_side` positions for each colour arrangement and
    side to move; `n_ep` en passant positions for each side to move."""
    rng = random.Random(seed)
    out = []
    for strong, weak in materials(folder):
        table = f"{strong}v{weak}"
        for white, black in [(strong, weak), (weak, strong)]:
            for turn in (chess.WHITE, chess.BLACK):
                made = 0
                while made < per_side:
                    board = random_position(rng, white, black, turn)
                    if board is not None:
                        out.append((board, table))
                        made += 1
    for turn in (chess.WHITE, chess.BLACK):
        made = 0
        while made < n_ep:
            board = ep_position(rng, turn)
            if board is not None:
                out.append((board, "KPvKP e.p."))
                made += 1
    return out


def harness_blocks(harness, tb, epd):
    """The tag blocks `harness tb probe` prints, in order, as dicts."""
    run = subprocess.run([harness, "tb", "probe", "--tb", tb, "--epd", epd],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"harness tb probe exited with {run.returncode}:\n{run.stderr[-2000:]}")
    blocks = []
    for chunk in run.stdout.strip().split("\n\n"):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', chunk, re.M))
        blocks.append(tags)
    return blocks


def move_values(tablebase, board):
    """Each legal move's value for the mover, python-chess's way: -(the position after it),
    counting the halfmove clock after the move as the 50-move rule does."""
    values = {}
    for move in board.legal_moves:
        san = board.san(move)
        board.push(move)
        if board.halfmove_clock == 0:
            child = tablebase.probe_wdl(board)
        else:
            child = wdl_from_dtz(add_plies(tablebase.probe_dtz(board), board.halfmove_clock))
        board.pop()
        values[san] = -child
    return values


def expected_result(board, wdl):
    if board.is_checkmate():
        return "0-1" if board.turn == chess.WHITE else "1-0"
    if wdl in (-1, 0, 1):
        return "1/2-1/2"
    white_wins = (wdl > 0) == (board.turn == chess.WHITE)
    return "1-0" if white_wins else "0-1"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tb", default=os.path.join(root, "..", "shared", "data", "syzygy"))
    ap.add_argument("--per-side", type=int, default=30,
                    help="positions per table, colour arrangement and side to move")
    ap.add_argument("--ep", type=int, default=100, help="en passant positions per side to move")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--harness", default=os.path.join(root, "target", "release", "harness"))
    args = ap.parse_args()
    if not os.path.exists(args.harness):
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "sable-harness"],
                       cwd=root, check=True)
    cases = positions(args.tb, args.per_side, args.ep, args.seed)
    tables = sorted({t for _, t in cases if "e.p." not in t})
    with tempfile.TemporaryDirectory() as work:
        epd = os.path.join(work, "positions.epd")
        with open(epd, "w") as f:
            for board, _ in cases:
                f.write(board.fen() + "\n")
        blocks = harness_blocks(args.harness, args.tb, epd)
    if len(blocks) != len(cases):
        sys.exit(f"{len(cases)} positions sent, {len(blocks)} answers")
    bad = []
    checks = {"wdl": 0, "dtz": 0, "result": 0, "moves": 0, "best": 0}
    with chess.syzygy.open_tablebase(args.tb) as tablebase:
        for (board, table), tags in zip(cases, blocks):
            fen = board.fen()
            where = f"{table} {fen}"
            if tags.get("FEN") != fen:
                bad.append(f"{where}: the harness answered for {tags.get('FEN')}")
                continue
            if "Error" in tags:
                bad.append(f"{where}: no answer from the harness: {tags['Error']}")
                continue
            wdl = tablebase.probe_wdl(board)
            dtz = tablebase.probe_dtz(board)
            ours_wdl = WDL_NAMES.get(tags.get("WDL"))
            ours_dtz = int(tags["DTZ"].split(" or ")[0])
            if ours_wdl != wdl:
                bad.append(f"{where}: WDL {tags.get('WDL')} here, {wdl} by python-chess")
            if ours_dtz != dtz:
                bad.append(f"{where}: DTZ {tags['DTZ']} here, {dtz} by python-chess")
            if tags.get("Result") != expected_result(board, wdl):
                bad.append(f"{where}: Result {tags.get('Result')}, "
                           f"{expected_result(board, wdl)} by python-chess")
            checks["wdl"] += 1
            checks["dtz"] += 1
            checks["result"] += 1
            values = move_values(tablebase, board)
            listed = {}
            for name, value in MOVE_TAGS.items():
                for san in filter(None, tags.get(name, "").split(" ")):
                    listed[san] = value
            if listed != values:
                diff = {m: (listed.get(m), values.get(m))
                        for m in set(listed) | set(values) if listed.get(m) != values.get(m)}
                bad.append(f"{where}: move values (here, python-chess) differ: {diff}")
            checks["moves"] += len(values)
            if values:
                best = tags.get("BestMove")
                if values.get(best) != max(values.values()):
                    bad.append(f"{where}: best move {best} is worth {values.get(best)}, "
                               f"the best move {max(values.values())}")
                checks["best"] += 1
    n = len(cases)
    n_ep = sum(1 for _, t in cases if "e.p." in t)
    print(f"{n} positions ({len(tables)} tables, both colour arrangements and sides to move; "
          f"{n_ep} with en passant), {checks['moves']} legal moves")
    for what, count in checks.items():
        print(f"  {what}: {count} compared")
    if bad:
        print(f"DISAGREE: {len(bad)} of them")
        for line in bad[:20]:
            print("  " + line)
        return 1
    print("harness tb probe and python-chess agree on all of them (100 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
