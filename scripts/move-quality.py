#!/usr/bin/env python3
"""How good are an engine's moves, judged by a stronger engine: a low-variance screen for
changes whose worth self-play cannot see (an evaluation that shares Sable's blind spots scores
itself well; a judge that does not share them says what they cost).

  sample   positions where `--side` (default sable) was to move in `harness match` PGNs, after
           the book and before ply 120, with both sides' recent scores within --balanced cp,
           one per game ply drawn at random (seeded): one FEN a line
  play     each position searched by each `--engine` (`CMD[:Name=Value,...]=LABEL`; the options
           go to the engine, except `nodes=N` or `movetime=MS`, that engine's own limit in place
           of `--nodes`/`--movetime`: Ethereal 12 ignores `go nodes`); then every distinct
           (position, move) searched by the judge (`--judge`, `--judge-nodes`) on the position
           after the move. Prints per engine the mean expected score of its moves from the
           mover's view, 1/(1+10^(-cp/400)) of the judge's score, and each engine's mean
           difference from the first engine's, paired by position, with a 95 % error bar.
           Every search is cached in `--cache` (JSON lines), so a rerun or one more engine
           costs only the new searches.

A screen, not a verdict, and a weak one where the engines search about as deep as the judge:
docs/results-search.md (the seventh session of 2026-11-28) has its calibration. A change it
prefers still needs its SPRT and its gauntlet.

  python3 scripts/move-quality.py sample docs/gauntlet/2026-11-2*-ethereal.pgn.gz \
      --count 600 > mq.fens
  python3 scripts/move-quality.py play mq.fens --nodes 400000 --cache mq.jsonl \
      --engine .sprt/sable-1027616=main --engine .sprt/sable-1027616:nodes=200000=main200k \
      --engine "/usr/games/ethereal-chess:movetime=240=eth240" \
      --engine ".sprt/sable-1027616:EvalFile=$PWD/tuned.json=tuned"

Needs python-chess (`pip install chess`).
"""

import argparse
import concurrent.futures
import importlib.util
import json
import math
import os
import random
import sys

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("move-quality: needs python-chess (pip install chess)")

def gauntlet_games():
    """The one reader of the gauntlets' PGNs, `games()` of gauntlet-diagnose.py beside this file."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gauntlet-diagnose.py")
    spec = importlib.util.spec_from_file_location("gauntlet_diagnose", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.games


def sample(args):
    rng = random.Random(args.seed)
    found = []
    for _, _, _, plies, _ in gauntlet_games()(args.pgn, args.side):
        candidates = []
        recent = []
        for ply, (fen, mine, cp, _, _) in enumerate(plies):
            if (
                mine
                and args.min_ply <= ply < args.max_ply
                and len(recent) >= 2
                and all(abs(c) <= args.balanced for c in recent[-2:])
            ):
                candidates.append(fen)
            if cp is not None:
                recent.append(cp)
        if candidates:
            found.append(rng.choice(candidates))
    rng.shuffle(found)
    out = list(dict.fromkeys(found))
    for fen in out[: args.count]:
        print(fen)
    print(f"sample: {min(len(out), args.count)} positions of {len(out)}", file=sys.stderr)


def parse_engine(spec):
    """`cmd[:Name=Value,...]=label`: the label after the last '='; options after the first ':'."""
    body, _, label = spec.rpartition("=")
    if not body:
        sys.exit(f"move-quality: --engine {spec!r}: needs CMD=LABEL")
    cmd, _, opts = body.partition(":")
    options = {}
    for word in filter(None, opts.split(",")):
        name, eq, value = word.partition("=")
        if not eq:
            sys.exit(f"move-quality: --engine {spec!r}: option {word!r} is not Name=Value")
        options[name] = value
    return label, cmd, options


def search_all(cmd, options, jobs, limit, threads):
    """jobs: list of (key, fen, move_or_None). Returns {key: (move, cp)} from the mover's view."""
    chunks = [jobs[i::threads] for i in range(threads)]

    def work(chunk):
        out = {}
        eng = chess.engine.SimpleEngine.popen_uci(cmd)
        try:
            opts = {"Hash": 16, "Threads": 1}
            opts.update(options)
            eng.configure({k: v for k, v in opts.items() if k in eng.options})
            for key, fen, move in chunk:
                board = chess.Board(fen)
                if move is not None:
                    board.push_uci(move)
                info = eng.analyse(board, limit, game=object())
                score = info.get("score")
                cp = None
                if score is not None:
                    cp = score.pov(board.turn).score(mate_score=3000)
                best = info.get("pv", [None])[0]
                out[key] = (best.uci() if best else None, cp)
        finally:
            eng.quit()
        return out

    result = {}
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        try:
            for part in pool.map(work, chunks):
                result.update(part)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as e:
            sys.exit(f"move-quality: engine {cmd}: {e} (the searches of earlier calls stay cached)")
    return result


def load_cache(path):
    cache = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                rec = json.loads(line)
                cache[rec["key"]] = rec["value"]
    return cache


def append_cache(path, items):
    if not path:
        return
    with open(path, "a") as f:
        for key, value in items.items():
            f.write(json.dumps({"key": key, "value": value}) + "\n")


def expected(cp):
    return 1.0 / (1.0 + 10 ** (-max(-3000, min(3000, cp)) / 400.0))


def read_fens(path):
    """One FEN a line (`#` comments); a bad line stops the run naming the file and line."""
    fens = []
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                text = line.strip()
                if not text or text.startswith("#"):
                    continue
                try:
                    chess.Board(text)
                except ValueError as e:
                    sys.exit(f"move-quality: {path}:{n}: not a FEN ({e}): {text!r}")
                fens.append(text)
    except OSError as e:
        sys.exit(f"move-quality: {path}: {e.strerror}")
    return fens


def play(args):
    fens = read_fens(args.fens)
    if args.count:
        fens = fens[: args.count]
    cache = load_cache(args.cache)
    limit_desc = f"nodes={args.nodes}" if args.nodes else f"movetime={args.movetime}"
    limit = (
        chess.engine.Limit(nodes=args.nodes)
        if args.nodes
        else chess.engine.Limit(time=args.movetime / 1000)
    )
    engines = [parse_engine(s) for s in args.engine]
    moves = {}
    for label, cmd, options in engines:
        own = {k: int(options.pop(k)) for k in ("nodes", "movetime") if k in options}
        if own:
            # Per-engine limit (`:nodes=N` or `:movetime=MS`), e.g. for an engine that ignores nodes.
            key, n = next(iter(own.items()))
            desc = f"{key}={n}"
            lim = chess.engine.Limit(nodes=n) if key == "nodes" else chess.engine.Limit(time=n / 1000)
        else:
            desc, lim = limit_desc, limit
        tag = json.dumps([cmd, sorted(options.items()), desc])
        jobs = [(f"m|{tag}|{fen}", fen, None) for fen in fens]
        todo = [j for j in jobs if j[0] not in cache]
        if todo:
            print(f"{label}: searching {len(todo)} positions", file=sys.stderr)
            got = search_all(cmd, options, todo, lim, args.threads)
            append_cache(args.cache, got)
            cache.update(got)
        moves[label] = [cache[k][0] for k, _, _ in jobs]
    judge_tag = json.dumps([args.judge, args.judge_nodes])
    pairs = {(fen, mv) for ms in moves.values() for fen, mv in zip(fens, ms) if mv}
    jobs = [(f"j|{judge_tag}|{fen}|{mv}", fen, mv) for fen, mv in sorted(pairs)]
    todo = [j for j in jobs if j[0] not in cache]
    if todo:
        print(f"judge: searching {len(todo)} (position, move) pairs", file=sys.stderr)
        got = search_all(
            args.judge, {"Hash": 64}, todo, chess.engine.Limit(nodes=args.judge_nodes), args.threads
        )
        append_cache(args.cache, got)
        cache.update(got)

    def value(fen, mv):
        if not mv:
            return None
        cp = cache[f"j|{judge_tag}|{fen}|{mv}"][1]
        # The judge scored the position after the move from its side to move: the opponent's.
        return None if cp is None else 1.0 - expected(cp)

    table = {label: [value(fen, mv) for fen, mv in zip(fens, ms)] for label, ms in moves.items()}
    base_label = engines[0][0]
    print(f"{len(fens)} positions, engines at {limit_desc}, judge {args.judge} at {args.judge_nodes} nodes")
    for label, _, _ in engines:
        vals = [v for v in table[label] if v is not None]
        mean = sum(vals) / len(vals) if vals else float("nan")
        same = sum(
            1 for a, b in zip(moves[label], moves[base_label]) if a == b
        )
        diffs = [
            a - b
            for a, b in zip(table[label], table[base_label])
            if a is not None and b is not None
        ]
        line = f"{label:>14}: mean expected score {mean:.4f}, same move as {base_label} {same}/{len(fens)}"
        if label != base_label and len(diffs) > 1:
            d = sum(diffs) / len(diffs)
            var = sum((x - d) ** 2 for x in diffs) / (len(diffs) - 1)
            err = 1.96 * math.sqrt(var / len(diffs))
            line += f", vs {base_label} {d * 100:+.3f} ± {err * 100:.3f} % a move"
        print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("pgn", nargs="+")
    s.add_argument("--side", default="sable")
    s.add_argument("--count", type=int, default=800)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--min-ply", type=int, default=2)
    s.add_argument("--max-ply", type=int, default=120)
    s.add_argument("--balanced", type=int, default=250)
    p = sub.add_parser("play")
    p.add_argument("fens")
    p.add_argument("--engine", action="append", required=True)
    p.add_argument("--nodes", type=int)
    p.add_argument("--movetime", type=int, default=300)
    p.add_argument("--judge", default="/usr/games/stockfish")
    p.add_argument("--judge-nodes", type=int, default=300000)
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--cache", default="")
    args = ap.parse_args()
    sample(args) if args.cmd == "sample" else play(args)


if __name__ == "__main__":
    main()
