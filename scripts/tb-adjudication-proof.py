#!/usr/bin/env python3
"""Syzygy adjudication, checked: the same node-limited match with and without `--tb`.

An endgame book (random legal positions of 5 and 6 pieces, so that games cross into the 3-4
piece tables by captures after some moves) is played twice by sable against itself at a fixed
node count, same book, same order, same seed: once to the end, once with `--tb DIR`. Then,
game by game (paired by their Round tag):

- every adjudicated game's moves must be the start of the same game played out (node-limited
  searches are deterministic), and its result must agree with the table, recomputed by
  python-chess from the final position (WDL, and DTZ plus the halfmove clock for the 50-move
  rule);
- its result is compared with the finished game's: they agree, or the finished game shows why
  not (the engines could not convert a won ending, or the 50-move rule came first);
- the plies that adjudication saved are summed, with the engines' thinking time on them (from
  the played-out games' move comments, so measured within one run), and the wall time of the
  two runs is compared, median of `--repeat` runs taken alternately (the machine's load varies).

    scripts/tb-adjudication-proof.py [--tb DIR] [--openings N] [--nodes N] [--concurrency N]
                                     [--repeat K] [--keep DIR]

Prints the figures for docs/results.md. Needs python-chess; builds target/release/{sable,harness}
when missing.
"""

import argparse
import io
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import chess
import chess.pgn
import chess.syzygy

# Materials of the book: White's pieces, Black's pieces (kings added). Captures lead from them
# into the 3-4 piece tables; pawns promote into them too.
MATERIALS = [
    ("RP", "R"), ("QP", "Q"), ("RB", "R"), ("RN", "R"), ("PP", "P"), ("BP", "B"),
    ("NP", "N"), ("Q", "RP"), ("RPP", "R"), ("RP", "RP"), ("BPP", "B"), ("QP", "QP"),
]


def random_opening(rng, white, black):
    board = chess.Board(None)
    pieces = [("K", True), ("K", False)] + [(p, True) for p in white] + [(p, False) for p in black]
    for sq, (symbol, is_white) in zip(rng.sample(range(64), len(pieces)), pieces):
        if symbol == "P" and chess.square_rank(sq) in (0, 7):
            return None
        board.set_piece_at(sq, chess.Piece.from_symbol(symbol if is_white else symbol.lower()))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    if not board.is_valid() or board.is_check() or board.is_game_over():
        return None
    # No capture on the first move: the game, not the book, should cross into the tables.
    if any(board.is_capture(m) for m in board.legal_moves):
        return None
    return board


def book(path, n, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        made = 0
        while made < n:
            white, black = MATERIALS[made % len(MATERIALS)]
            board = random_opening(rng, white, black)
            if board is not None:
                f.write(board.epd() + "\n")
                made += 1


def play(harness, sable, book_path, out, nodes, concurrency, rounds, extra):
    for old in (out + ".pgn", out + ".json", out + ".json.games.jsonl"):
        if os.path.exists(old):
            os.remove(old)  # PGNs are appended to and results files never overwritten
    args = [harness, "match",
            "--engine", f"cmd={sable}", "name=sable-a",
            "--engine", f"cmd={sable}", "name=sable-b",
            "--each", "tc=inf", f"nodes={nodes}", "option.Hash=16", "option.Threads=1",
            "--openings", f"file={book_path}", "order=sequential",
            "--rounds", str(rounds), "--games", "2", "--concurrency", str(concurrency),
            "--seed", "7", "--pgnout", out + ".pgn", "--results", out + ".json",
            "--quiet", "--ratinginterval", "0"] + extra
    start = time.monotonic()
    run = subprocess.run(args, capture_output=True, text=True)
    wall = time.monotonic() - start
    if run.returncode != 0:
        sys.exit(f"{' '.join(args)}\nexited with {run.returncode}:\n{run.stdout}{run.stderr}")
    return run.stdout, wall


def games(pgn_path):
    out = {}
    with open(pgn_path) as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                return out
            out[g.headers["Round"]] = g


def seconds(game):
    return float(game.headers["GameDuration"].rstrip("s"))


def moves(game):
    return [m.uci() for m in game.mainline_moves()]


def by_round(pgn_path):
    return {r: moves(g) for r, g in games(pgn_path).items()}


def think_seconds(game, after_ply):
    """The engines' thinking time on the moves after `after_ply`, from the `{score/depth 0.123s}`
    comments the harness writes."""
    total = 0.0
    for ply, node in enumerate(game.mainline()):
        m = re.search(r"/\S+ (\d+\.\d+)s", node.comment)
        if ply >= after_ply and m:
            total += float(m.group(1))
    return total


def table_result(tablebase, board):
    """The result python-chess's prober gives the final position under the 50-move rule
    counted from its clock: a win whose zeroing move comes after the 100th halfmove is a draw.
    (At exactly 100 a rounded DTZ would leave it open; the harness then does not adjudicate.)"""
    wdl = tablebase.probe_wdl(board)
    if board.halfmove_clock > 0 and abs(wdl) == 2:
        if abs(tablebase.probe_dtz(board)) + board.halfmove_clock > 100:
            wdl = 0
    if wdl in (-1, 0, 1):
        return "1/2-1/2"
    return "1-0" if (wdl > 0) == (board.turn == chess.WHITE) else "0-1"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tb", default=os.path.join(root, "..", "shared", "data", "syzygy"))
    ap.add_argument("--openings", type=int, default=100)
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, for the wall times")
    ap.add_argument("--keep", help="keep the book, PGNs and results in this folder")
    args = ap.parse_args()
    harness = os.path.join(root, "target", "release", "harness")
    sable = os.path.join(root, "target", "release", "sable")
    if not (os.path.exists(harness) and os.path.exists(sable)):
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "sable", "-p", "sable-harness"],
                       cwd=root, check=True)
    work = args.keep or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    book_path = os.path.join(work, "endgames.epd")
    book(book_path, args.openings, args.seed)
    common = (harness, sable, book_path)
    walls = {"full": [], "tb": []}
    for k in range(args.repeat):
        for name, extra in [("full", []), ("tb", ["--tb", args.tb])]:
            out = os.path.join(work, f"{name}{k}")
            report, wall = play(*common, out, args.nodes, args.concurrency, args.openings, extra)
            walls[name].append(wall)
            if k == 0:
                os.replace(out + ".pgn", os.path.join(work, f"{name}.pgn"))
                if name == "tb":
                    tb_report = report
            elif by_round(out + ".pgn") != by_round(os.path.join(work, f"{name}.pgn")):
                print(f"note: run {k + 1} of {name} did not repeat run 1 move for move")
    full_wall = sorted(walls["full"])[len(walls["full"]) // 2]
    tb_wall = sorted(walls["tb"])[len(walls["tb"]) // 2]
    full = games(os.path.join(work, "full.pgn"))
    tb = games(os.path.join(work, "tb.pgn"))
    assert full.keys() == tb.keys(), "the two runs played different games"
    adjudicated = [r for r, g in tb.items() if g.headers["Termination"] == "adjudication"]
    problems, same, differ, prefix = [], 0, [], 0
    saved_plies = saved_think = 0.0
    with chess.syzygy.open_tablebase(args.tb) as tablebase:
        for r in adjudicated:
            a, b = full[r], tb[r]
            # python-chess joins the move's own comment and the reason after it.
            comment = b.end().comment
            comment = comment[comment.find("Syzygy:"):] if "Syzygy:" in comment else comment
            if not comment.startswith("Syzygy:"):
                problems.append(f"{r}: adjudicated, but not by the tables: {comment}")
                continue
            if moves(a)[:len(moves(b))] == moves(b):
                prefix += 1
            else:
                problems.append(f"{r}: the adjudicated game is not the start of the full one")
            expected = table_result(tablebase, b.end().board())
            if expected != b.headers["Result"]:
                problems.append(f"{r}: adjudicated {b.headers['Result']}, python-chess's "
                                f"prober says {expected} ({comment})")
            if a.headers["Result"] == b.headers["Result"]:
                same += 1
            else:
                differ.append(f"  round {r}: adjudicated {b.headers['Result']} {{{comment}}}; "
                              f"played out {a.headers['Result']} "
                              f"{{{a.end().comment}}} after {len(moves(a))} plies")
            saved_plies += len(moves(a)) - len(moves(b))
            saved_think += think_seconds(a, len(moves(b)))
    total_plies = [sum(len(moves(g)) for g in gs.values()) for gs in (full, tb)]
    total_time = [sum(seconds(g) for g in gs.values()) for gs in (full, tb)]
    n = len(tb)
    print(f"book: {args.openings} endgame openings (5 and 6 pieces), {n} games, "
          f"sable vs sable at nodes={args.nodes}, concurrency {args.concurrency}")
    print(f"without --tb: {total_plies[0]} plies, {total_time[0]:.1f} s of games (run 1)")
    print(f"with --tb:    {total_plies[1]} plies, {total_time[1]:.1f} s of games (run 1)")
    print(f"adjudicated by the tables: {len(adjudicated)} of {n} games; "
          f"{prefix} of them move for move the start of the game played out")
    print(f"their results: {len(adjudicated) - len([p for p in problems if 'prober' in p])} "
          f"agree with python-chess's prober; {same} equal the played-out result, "
          f"{len(differ)} differ (below)")
    think_all = sum(think_seconds(g, 0) for g in full.values())
    print(f"saved: {saved_plies:.0f} plies ({100 * saved_plies / max(total_plies[0], 1):.1f} % "
          f"of all plies); the engines thought {saved_think:.1f} s of the "
          f"{think_all:.1f} s of the played-out run on them "
          f"({100 * saved_think / max(think_all, 1e-9):.1f} %)")
    print(f"wall time, median of {args.repeat} runs each: {full_wall:.1f} s without --tb, "
          f"{tb_wall:.1f} s with it ({100 * (1 - tb_wall / full_wall):.1f} % less); "
          f"all runs: without {', '.join(f'{w:.1f}' for w in walls['full'])}, "
          f"with {', '.join(f'{w:.1f}' for w in walls['tb'])}")
    for line in differ:
        print(line)
    line = [l for l in tb_report.splitlines() if l.startswith("Syzygy adjudications")]
    print(f"match report: {line[0] if line else 'no Syzygy line'}")
    if problems:
        print("PROBLEMS:")
        for p in problems:
            print("  " + p)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
