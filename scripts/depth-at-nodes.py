#!/usr/bin/env python3
"""The depth a UCI engine reaches at a node budget: searches a sample of a book's positions
with `go nodes N` (fresh hash each), and prints the median and the share reaching depth 8.

Used to pick an SPRT's node budget deep enough for the change it decides (docs/results-search.md,
"How an engine change is decided").

    python3 scripts/depth-at-nodes.py ENGINE BOOK.epd NODES [--positions 60] [--seed 1]
"""
import argparse
import random
import statistics
import subprocess
import sys


def book_fens(path):
    """The FEN of each EPD line (first four fields, counters added)."""
    fens = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.split(";")[0].split()
            if not fields:
                continue
            if len(fields) < 4:
                sys.exit(f"{path}:{number}: not an EPD position: {line.strip()!r}")
            fens.append(" ".join(fields[:4]) + " 0 1")
    if not fens:
        sys.exit(f"{path}: no positions")
    return fens


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"the engine exited before '{word}'")
            if line.split()[:1] == [word]:
                return line

    def depth_at(self, fen, nodes):
        """The depth of the last `info ... depth D` line of one search."""
        self.send("ucinewgame")
        self.send("position fen " + fen)
        self.send(f"go nodes {nodes}")
        depth = 0
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"the engine exited while searching {fen}")
            words = line.split()
            if words[:1] == ["info"] and "depth" in words:
                depth = int(words[words.index("depth") + 1])
            if words[:1] == ["bestmove"]:
                return depth

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("book")
    ap.add_argument("nodes", type=int)
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    fens = book_fens(args.book)
    random.seed(args.seed)
    sample = random.sample(fens, min(args.positions, len(fens)))
    engine = Engine(args.engine)
    depths = [engine.depth_at(fen, args.nodes) for fen in sample]
    engine.quit()
    deep = sum(d >= 8 for d in depths) / len(depths)
    print(
        f"nodes {args.nodes}: {len(depths)} positions, depth median {statistics.median(depths)}, "
        f"mean {statistics.mean(depths):.1f}, min {min(depths)}, max {max(depths)}, "
        f"reaching depth 8: {deep:.0%}"
    )


if __name__ == "__main__":
    main()
