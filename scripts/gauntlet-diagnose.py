#!/usr/bin/env python3
"""Where a gauntlet's games are lost: read `harness match` PGNs (eval comments `{+0.35/18 0.4s}`,
the mover's score) of one engine against others and report from that engine's side.

  imbalances  the first lasting material imbalance of each game (the same piece counts for 8
              plies), with the engine's score in those games and the mean of both sides' search
              scores at its start, from the engine's view
  turns       the positions before the opponent's score first rose to +150 for good in games the
              engine lost, searched again by both engines (`--time` seconds each, Hash 64): how
              often they pick the same move and how far their scores differ
  drift       by move number after the book, the mean of both sides' search scores from the
              engine's view (the opponent's score at its move, the engine's at the engine's move
              just after), how often the opponent already sees +100, and the engine's score in
              those games: where in the game the engine falls behind, and whether it knows
  moves       each side's moves in the first `--plies` plies after the book by kind (piece, and
              for a pawn a centre or wing push, for a piece forward, sideways or back; captures
              and castling apart): how often each side plays each kind, and for the engine's
              moves the mean change of the opponent's score from its move before to its move
              after (the opponent's view of what the engine's move cost)
  groups      a sample of the positions where one side is to move (`--side`), each scored by the
              engine's `eval` groups and by a reference engine's search (`--reference`, `--nodes`),
              and the least-squares weight of each group in the reference's score: a group whose
              weight stands well above the material's is worth more to the reference than the
              engine's evaluation says
  clock       by move number after the book, each side's mean seconds a move (the `1.23s` of
              the eval comments), and the mean clock each side has left at a game's end
              (base plus increments less the time it used, from the TimeControl tag): who
              spends the clock where
  blunders    the engine's moves after which the opponent's score rose by `--drop` cp or more
              from a position it scored within `--window` cp, each confirmed by a judge engine
              (`--judge`, `--judge-nodes`: its best move against the played one), as EPD lines
              `FEN am MOVE; id ...; c0 ...` for `harness epd`: a suite of the decisive errors
              the engine made against this opponent. A count of avoided moves rewards any move
              that differs, so judge a candidate's moves there (`move-quality.py play` on the
              suite's FENs) before reading its count as better play
  warm        a sample of the engine's moves searched again from a fresh table for the time they
              took in the game (`--engine-cmd`): how many plies deeper the game's table, warm
              from the moves before, let it search
  losses      in the games the engine lost, the ply from which the opponent's own score stayed
              at `--lost` cp or more, and the non-pawn material left then: whether the games
              are lost in the middle game or the end game
  positions   every position as CSV `fen,result,score` for `harness tune`: the opponent's search
              score where it moved, the result alone where the engine moved; games grouped by
              opening and the openings shuffled, so that tune's held-out last 10 % are whole
              openings it never trained on

Needs python-chess (`pip install chess`). Examples (the figures of docs/results-search.md,
"The first session of 2026-11-28"):

  python3 scripts/gauntlet-diagnose.py imbalances docs/gauntlet/2026-11-2*-ethereal*.pgn.gz
  python3 scripts/gauntlet-diagnose.py turns --engine-cmd .sprt/sable-1191782 \
      --opponent /usr/games/ethereal-chess docs/gauntlet/2026-11-27[ef]-ethereal.pgn.gz
  python3 scripts/gauntlet-diagnose.py positions docs/gauntlet/2026-11-2*-ethereal*.pgn.gz > vs.csv
  python3 scripts/gauntlet-diagnose.py drift docs/gauntlet/2026-11-2[78]*-ethereal.pgn.gz
  python3 scripts/gauntlet-diagnose.py moves docs/gauntlet/2026-11-2[78]*-ethereal.pgn.gz
  python3 scripts/gauntlet-diagnose.py clock docs/gauntlet/2026-11-28[cd]-ethereal.pgn.gz
  python3 scripts/gauntlet-diagnose.py blunders --judge /usr/games/stockfish \
      docs/gauntlet/2026-11-2[678]*-ethereal.pgn.gz > blunders.epd
  python3 scripts/gauntlet-diagnose.py groups --engine-cmd target/release/sable \
      --reference /usr/games/stockfish docs/gauntlet/2026-11-2[78]*-ethereal.pgn.gz
"""

import argparse
import collections
import gzip
import random
import re
import sys

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("gauntlet-diagnose: needs python-chess (pip install chess)")

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
MATE_CP = 3000


def comment_score(text):
    """The mover's score in centipawns of a `{+0.35/18 ...}` comment (mates as +-MATE_CP)."""
    m = re.search(r"([+-]?M?[\d.]+)/\d+", text)
    if not m:
        return None
    s = m.group(1)
    if "M" in s:
        return -MATE_CP if s.startswith("-") else MATE_CP
    return float(s) * 100


def comment_seconds(text):
    """The seconds a move took, the `1.23s` of a `{+0.35/18 1.23s ...}` comment, or None."""
    m = re.search(r"\s([\d.]+)s\b", text)
    return float(m.group(1)) if m else None


def comment_depth(text):
    """The search depth of a `{+0.35/18 ...}` comment, or None."""
    m = re.search(r"/(\d+)", text)
    return int(m.group(1)) if m else None


def games(paths, engine):
    """Each finished game as (start FEN, engine plays White, engine's result, plies, PGN tags), a
    ply being [FEN before the move, engine moved, mover's score or None, the move, seconds or
    None, depth or None]."""
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            text = f.read()
        for g in text.split("[Event ")[1:]:
            header = dict(re.findall(r'\[(\w+) "(.*?)"\]', g))
            if header.get("Result") not in RESULTS or engine not in (header.get("White"), header.get("Black")):
                continue
            white = header["White"] == engine
            result = RESULTS[header["Result"]]
            board = chess.Board(header.get("FEN", chess.STARTING_FEN))
            plies = []
            for tok in re.findall(r"\{[^}]*\}|[^\s{}]+", g.split("\n\n", 1)[1]):
                if tok.startswith("{"):
                    if plies and plies[-1][2] is None:
                        plies[-1][2] = comment_score(tok)
                    if plies and plies[-1][4] is None:
                        plies[-1][4] = comment_seconds(tok)
                    if plies and plies[-1][5] is None:
                        plies[-1][5] = comment_depth(tok)
                    continue
                tok = re.sub(r"^\d+\.+", "", tok)
                if not tok or tok in RESULTS or tok == "*":
                    continue
                fen, mine = board.fen(), (board.turn == chess.WHITE) == white
                try:
                    move = board.push_san(tok)
                except ValueError:
                    break
                plies.append([fen, mine, None, move, None, None])
            yield header.get("FEN", chess.STARTING_FEN), white, result if white else 1 - result, plies, header


def signature(board, us):
    """Material difference by kind from `us`'s side: pawns, minors, rooks, queens."""
    kinds = [("P", [chess.PAWN]), ("M", [chess.KNIGHT, chess.BISHOP]), ("R", [chess.ROOK]), ("Q", [chess.QUEEN])]
    return " ".join(
        "%s%+d" % (k, sum(len(board.pieces(p, us)) - len(board.pieces(p, not us)) for p in ps)) for k, ps in kinds
    )


def imbalances(args):
    table = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for _, white, score, plies, _ in games(args.pgn, args.engine):
        us = chess.WHITE if white else chess.BLACK
        # The material after each move (the position before the next one).
        sigs = [signature(chess.Board(p[0]), us) for p in plies[1:]]
        for i in range(len(sigs) - 8):
            s = sigs[i]
            if s.endswith("M+0 R+0 Q+0") or any(x != s for x in sigs[i : i + 8]):
                continue
            window = plies[i + 1 : i + 9]
            ours = [p[2] for p in window if p[1] and p[2] is not None]
            theirs = [-p[2] for p in window if not p[1] and p[2] is not None]
            row = table[s]
            row[0] += 1
            row[1] += score
            row[2] += ours[0] if ours else 0
            row[3] += theirs[0] if theirs else 0
            break
    print("%-20s %5s %7s %10s %10s" % ("imbalance", "games", "score", "own cp", "their cp"))
    for s, (n, pts, ours, theirs) in sorted(table.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print("%-20s %5d %6.1f%% %10.0f %10.0f" % (s, n, 100 * pts / n, ours / n, theirs / n))


def turns(args):
    fens = []
    for _, _, score, plies, _ in games(args.pgn, args.engine):
        if score != 0.0:
            continue
        theirs = [(i, p[2]) for i, p in enumerate(plies) if not p[1] and p[2] is not None]
        for k, (i, v) in enumerate(theirs):
            if v >= 150 and all(x >= 50 for _, x in theirs[k:]):
                if i >= 1 and plies[i - 1][1]:
                    fens.append(plies[i - 1][0])
                break
    ours = chess.engine.SimpleEngine.popen_uci(args.engine_cmd)
    them = chess.engine.SimpleEngine.popen_uci(args.opponent)
    same, diffs = 0, []
    try:
        for e in (ours, them):
            e.configure({"Hash": 64})
        for fen in fens:
            board = chess.Board(fen)
            got = []
            for e in (ours, them):
                info = e.analyse(board, chess.engine.Limit(time=args.time))
                got.append((info["score"].pov(board.turn).score(mate_score=MATE_CP), info["pv"][0]))
            same += got[0][1] == got[1][1]
            diffs.append(got[0][0] - got[1][0])
    finally:
        ours.quit()
        them.quit()
    diffs.sort()
    n = len(diffs)
    print("%d positions: the same move in %d; own score minus theirs: mean %+.0f cp, median %+.0f cp"
          % (n, same, sum(diffs) / max(n, 1), diffs[n // 2] if n else 0))


def drift(args):
    # move number -> list of (opponent's score, engine's score, engine's result), engine's view
    rows = collections.defaultdict(list)
    for _, _, score, plies, _ in games(args.pgn, args.engine):
        theirs_move = 0
        for i in range(len(plies) - 1):
            fen, mine, cp = plies[i][:3]
            if mine:
                continue
            theirs_move += 1
            reply = plies[i + 1][2]
            if cp is None or reply is None or abs(cp) >= MATE_CP or abs(reply) >= MATE_CP:
                continue
            rows[theirs_move].append((-cp, reply, score))
    print("%5s %6s %9s %9s %6s %11s %11s" % ("move", "games", "their cp", "own cp", "gap", "they >=+1", "score then"))
    for move in args.moves:
        v = rows.get(move)
        if not v:
            continue
        n = len(v)
        behind = [r for r in v if r[0] <= -100]
        print(
            "%5d %6d %+9.0f %+9.0f %+6.0f %10.1f%% %10.1f%%"
            % (
                move,
                n,
                sum(r[0] for r in v) / n,
                sum(r[1] for r in v) / n,
                sum(r[1] - r[0] for r in v) / n,
                100 * len(behind) / n,
                100 * sum(r[2] for r in behind) / max(len(behind), 1),
            )
        )


def clock(args):
    spent = {True: collections.defaultdict(list), False: collections.defaultdict(list)}
    left = {True: [], False: []}
    for _, _, _, plies, header in games(args.pgn, args.engine):
        tc = re.fullmatch(r"([\d.]+)\+([\d.]+)", header.get("TimeControl", ""))
        used = {True: 0.0, False: 0.0}
        moves = {True: 0, False: 0}
        for i, (_, mine, _, _, secs, _) in enumerate(plies):
            if secs is None:
                continue
            spent[mine][i // 2].append(secs)
            used[mine] += secs
            moves[mine] += 1
        if tc:
            for side in (True, False):
                left[side].append(float(tc.group(1)) + float(tc.group(2)) * moves[side] - used[side])
    print("%5s %8s %10s" % ("move", args.engine, "opponent"))
    for move in args.moves:
        a, b = spent[True].get(move), spent[False].get(move)
        if a and b:
            print("%5d %8.3f %10.3f" % (move, sum(a) / len(a), sum(b) / len(b)))
    for side, name in ((True, args.engine), (False, "opponent")):
        if left[side]:
            print("%s: %.2f s left at the end on average over %d games" % (name, sum(left[side]) / len(left[side]), len(left[side])))


def move_kind(board, move):
    """A move's kind: the piece, then `capture`, `castle`, a pawn's `centre` or `wing` (a, b, g
    and h files) push, or a piece's direction from its owner's side (`fwd`, `side`, `back`)."""
    piece = board.piece_at(move.from_square)
    name = chess.piece_name(piece.piece_type)
    if board.is_capture(move):
        return name + "-capture"
    if board.is_castling(move):
        return "castle"
    if piece.piece_type == chess.PAWN:
        return name + ("-wing" if chess.square_file(move.from_square) in (0, 1, 6, 7) else "-centre")
    if piece.piece_type == chess.KING:
        return name
    up = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
    up = up if piece.color == chess.WHITE else -up
    return name + ("-fwd" if up > 0 else "-back" if up < 0 else "-side")


def moves(args):
    played = {True: collections.Counter(), False: collections.Counter()}
    cost = collections.defaultdict(list)  # kind -> the opponent's score change over the engine's move
    for _, _, _, plies, _ in games(args.pgn, args.engine):
        for i, (fen, mine, _, move, *_) in enumerate(plies[: args.plies]):
            kind = move_kind(chess.Board(fen), move)
            played[mine][kind] += 1
            if mine and i >= 1 and i + 1 < len(plies):
                before, after = plies[i - 1][2], plies[i + 1][2]
                if before is not None and after is not None and abs(before) < 300 and abs(after) < MATE_CP:
                    cost[kind].append(after - before)
    own, theirs = sum(played[True].values()), sum(played[False].values())
    print("%-16s %8s %8s %7s %9s" % ("kind", "engine", "opponent", "moves", "their +cp"))
    for kind in sorted(played[True], key=lambda k: -played[True][k]):
        c = cost.get(kind, [])
        print(
            "%-16s %7.1f%% %7.1f%% %7d %+9.1f"
            % (kind, 100 * played[True][kind] / max(own, 1), 100 * played[False][kind] / max(theirs, 1),
               len(c), sum(c) / max(len(c), 1))
        )


def engine_groups(proc, fen):
    """The blended centipawns of each group of the engine's `eval` (White's view), and the total."""
    proc.stdin.write("position fen %s\neval\nisready\n" % fen)
    proc.stdin.flush()
    groups = {}
    while True:
        line = proc.stdout.readline()
        if not line or line.startswith("readyok"):
            return groups
        p = line.split()
        # `info string NAME mg eg blend`; complexity and mop-up are not weights, phase is no group
        if len(p) == 6 and p[:2] == ["info", "string"] and p[2] not in ("group", "complexity"):
            groups[p[2]] = int(p[5])


def solve(a, b):
    """x with a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def least_squares(xs, ys):
    """Coefficients and their standard errors of ys ~ xs (no intercept)."""
    k = len(xs[0])
    xtx = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    xty = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(k)]
    beta = solve(xtx, xty)
    resid = [y - sum(b * v for b, v in zip(beta, x)) for x, y in zip(xs, ys)]
    var = sum(r * r for r in resid) / max(len(ys) - k, 1)
    inv_diag = [solve(xtx, [1.0 if j == i else 0.0 for j in range(k)])[i] for i in range(k)]
    return beta, [(var * d) ** 0.5 if d > 0 else float("nan") for d in inv_diag], var**0.5


def groups(args):
    import subprocess

    rows = []
    for _, _, _, plies, _ in games(args.pgn, args.engine):
        rows += [fen for fen, mine, *_ in plies if mine == (args.side == "engine")]
    random.Random(args.seed).shuffle(rows)
    proc = subprocess.Popen([args.engine_cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ref = chess.engine.SimpleEngine.popen_uci(args.reference)
    ref.configure({"Threads": 1, "Hash": 32})
    names, xs, ys = None, [], []
    try:
        for fen in rows:
            if len(ys) >= args.positions:
                break
            board = chess.Board(fen)
            if board.is_check():
                continue
            g = engine_groups(proc, fen)
            cp = ref.analyse(board, chess.engine.Limit(nodes=args.nodes))["score"].white().score(mate_score=MATE_CP)
            total = g.pop("total", None)
            g.pop("mop-up", None)
            if total is None or abs(total) > 600 or abs(cp) > 600:
                continue
            names = names or sorted(g)
            xs.append([g.get(n, 0) for n in names])
            ys.append(cp)
            print("%d positions" % len(ys), end="\r", file=sys.stderr)
    finally:
        ref.quit()
        proc.kill()
    if len(ys) <= len(names or []):
        sys.exit("gauntlet-diagnose: too few positions")
    single, _, sd1 = least_squares([[sum(x)] for x in xs], ys)
    beta, se, sd = least_squares(xs, ys)
    print("%d positions (%s to move); reference ~ %.2f x the engine's eval, residual %.0f cp" % (len(ys), args.side, single[0], sd1))
    print("%-10s %7s %7s %9s %9s" % ("group", "weight", "+-", "/ single", "group sd"))
    for i, n in enumerate(names):
        col = [x[i] for x in xs]
        mean = sum(col) / len(col)
        spread = (sum((c - mean) ** 2 for c in col) / len(col)) ** 0.5
        print("%-10s %7.2f %7.2f %9.2f %9.0f" % (n, beta[i], se[i], beta[i] / single[0], spread))
    print("residual with a weight per group: %.0f cp" % sd)


def blunders(args):
    judge = chess.engine.SimpleEngine.popen_uci(args.judge)
    judge.configure({"Hash": 64, "Threads": 1})
    limit = chess.engine.Limit(nodes=args.judge_nodes)
    found = kept = 0
    for path in args.pgn:
        for _, _, _, plies, header in games([path], args.engine):
            for i in range(1, len(plies) - 1):
                fen, mine, _, move, *_ = plies[i]
                before, after = plies[i - 1][2], plies[i + 1][2]
                if not mine or plies[i - 1][1] or plies[i + 1][1] or before is None or after is None:
                    continue
                if abs(before) > args.window or after - before < args.drop:
                    continue
                found += 1
                board = chess.Board(fen)
                best = judge.analyse(board, limit)
                # A judge that names no best move cannot confirm the error (nor name its fix).
                judge_move = (best.get("pv") or [None])[0]
                if judge_move is None or judge_move == move:
                    continue
                board.push(move)
                played = judge.analyse(board, limit)
                board.pop()
                best_cp = best["score"].pov(board.turn).score(mate_score=MATE_CP)
                played_cp = -played["score"].pov(not board.turn).score(mate_score=MATE_CP)
                if best_cp - played_cp < args.drop:
                    continue
                kept += 1
                epd = board.epd(am=move, id="%s round %s ply %d" % (path.split("/")[-1], header.get("Round", "?"), i))
                print('%s; c0 "opponent %+d -> %+d, judge best %s %+d, played %+d";' % (
                    epd.rstrip(";"), -before, -after, board.san(judge_move), best_cp, played_cp), flush=True)
    judge.quit()
    print("%d candidate moves, %d confirmed by the judge" % (found, kept), file=sys.stderr)


def warm(args):
    """Each sampled move searched again from a fresh table (`ucinewgame`, Hash 16) for the seconds
    it took in the game: the depth the game's warm table bought."""
    sample = []
    for _, _, _, plies, _ in games(args.pgn, args.engine):
        sample += [(fen, secs, depth) for i, (fen, mine, _, _, secs, depth) in enumerate(plies)
                   if mine and args.first <= i <= args.last and secs and depth]
    random.Random(args.seed).shuffle(sample)
    proc = chess.engine.SimpleEngine.popen_uci(args.engine_cmd)
    proc.configure({"Hash": 16, "Threads": 1})
    gains = []
    for fen, secs, depth in sample[: args.positions]:
        info = proc.analyse(chess.Board(fen), chess.engine.Limit(time=secs), game=object())
        if "depth" in info:
            gains.append(depth - info["depth"])
    proc.quit()
    if not gains:
        sys.exit("gauntlet-diagnose: no move with a depth and a time in the comments")
    gains.sort()
    print("%s: %d moves, in-game depth minus a fresh search's at the same time: mean %+.2f, median %+d"
          % (args.engine, len(gains), sum(gains) / len(gains), gains[len(gains) // 2]))


def losses(args):
    """In each game the engine lost, the ply from which the opponent's own score stayed at
    `--lost` cp or more to the end, and the non-pawn material (N, B 3, R 5, Q 9) left then."""
    phases = collections.Counter()
    turns_at = []
    lost = played = 0
    values = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    for _, _, score, plies, _ in games(args.pgn, args.engine):
        played += 1
        if score != 0.0:
            continue
        lost += 1
        theirs = [(i, fen, cp) for i, (fen, mine, cp, *_) in enumerate(plies) if not mine and cp is not None]
        k = len(theirs)
        while k > 0 and theirs[k - 1][2] >= args.lost:
            k -= 1
        if k == len(theirs):
            continue
        i, fen, _ = theirs[k]
        board = chess.Board(fen)
        material = sum(v * len(board.pieces(p, c)) for p, v in values.items() for c in chess.COLORS)
        phases["middle game (40+)" if material >= 40 else "20-39" if material >= 20 else "end game (<20)"] += 1
        turns_at.append(i)
    turns_at.sort()
    print("%d games, %d lost, %d with a lasting turn" % (played, lost, len(turns_at)))
    for phase in ("middle game (40+)", "20-39", "end game (<20)"):
        print("  non-pawn material %-18s %3d" % (phase, phases[phase]))
    if turns_at:
        print("  plies after the book at the turn: median %d" % turns_at[len(turns_at) // 2])


def positions(args):
    by_opening = collections.defaultdict(list)
    for start, white, score, plies, _ in games(args.pgn, args.engine):
        white_result = score if white else 1 - score
        rows = []
        for fen, mine, cp, *_ in plies:
            if mine:
                rows.append("%s,%.1f," % (fen, white_result))
            elif cp is not None and abs(cp) <= 1500:
                white_to_move = fen.split()[1] == "w"
                rows.append("%s,%.1f,%d" % (fen, white_result, round(cp if white_to_move else -cp)))
        by_opening[start].append(rows)
    openings = sorted(by_opening)
    random.Random(args.seed).shuffle(openings)
    for o in openings:
        for rows in by_opening[o]:
            print("\n".join(rows))
    print("%d openings, %d games" % (len(openings), sum(len(v) for v in by_opening.values())), file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("imbalances", "turns", "drift", "moves", "clock", "groups", "positions", "blunders", "warm", "losses"):
        s = sub.add_parser(name)
        s.add_argument("pgn", nargs="+")
        s.add_argument("--engine", dest="engine", default="sable", help="the engine's name in the PGNs")
    sub.choices["imbalances"].add_argument("--top", type=int, default=20)
    sub.choices["turns"].add_argument("--engine-cmd", required=True, help="the engine's binary")
    sub.choices["turns"].add_argument("--opponent", required=True, help="the opponent's binary")
    sub.choices["turns"].add_argument("--time", type=float, default=1.0)
    sub.choices["drift"].add_argument(
        "--moves", type=lambda t: [int(x) for x in t.split(",")], default=[1, 2, 3, 5, 8, 11, 16, 21, 26, 31, 41],
        help="the opponent's move numbers after the book to report, comma-separated")
    sub.choices["moves"].add_argument("--plies", type=int, default=40, help="plies after the book to read")
    sub.choices["clock"].add_argument(
        "--moves", type=lambda t: [int(x) for x in t.split(",")], default=[0, 1, 3, 6, 9, 12, 15, 20, 27, 35, 45, 60],
        help="move numbers after the book to report (0 = the first), comma-separated")
    g = sub.choices["groups"]
    g.add_argument("--engine-cmd", required=True, help="the engine's binary (its UCI `eval` prints the groups)")
    g.add_argument("--reference", required=True, help="the reference engine's binary")
    g.add_argument("--nodes", type=int, default=200000, help="the reference's nodes a position")
    g.add_argument("--positions", type=int, default=1000)
    g.add_argument("--side", choices=("engine", "opponent"), default="engine", help="who is to move in the sample")
    g.add_argument("--seed", type=int, default=3)
    sub.choices["positions"].add_argument("--seed", type=int, default=7)
    b = sub.choices["blunders"]
    b.add_argument("--judge", required=True, help="the judge engine's binary (Stockfish)")
    b.add_argument("--judge-nodes", type=int, default=2000000, help="the judge's nodes a position")
    b.add_argument("--drop", type=int, default=150, help="centipawns the move must lose, by both the opponent and the judge")
    b.add_argument("--window", type=int, default=200, help="the opponent's score before the move must be within this")
    w = sub.choices["warm"]
    w.add_argument("--engine-cmd", required=True, help="the engine's binary")
    w.add_argument("--positions", type=int, default=250)
    w.add_argument("--first", type=int, default=16, help="first ply after the book to sample")
    w.add_argument("--last", type=int, default=90, help="last ply after the book to sample")
    w.add_argument("--seed", type=int, default=7)
    sub.choices["losses"].add_argument("--lost", type=int, default=150, help="the opponent's lasting score, cp")
    args = p.parse_args()
    commands = {"imbalances": imbalances, "turns": turns, "drift": drift, "moves": moves, "groups": groups}
    commands["positions"] = positions
    commands["clock"] = clock
    commands["blunders"] = blunders
    commands["warm"] = warm
    commands["losses"] = losses
    commands[args.cmd](args)


if __name__ == "__main__":
    main()
