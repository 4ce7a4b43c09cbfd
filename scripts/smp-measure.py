#!/usr/bin/env python3
"""Lazy SMP figures for docs/search.md ("Threads"): nps and time to depth with 1 and N threads.

usage: scripts/smp-measure.py ENGINE [--threads 2] [--movetime 5000] [--depth 16]
                              [--positions 5] [--reps 3]

For each of the first POSITIONS bench positions and each repetition, alternating 1 and N
threads (ucinewgame and Hash 64 before each search): nps of `go movetime MS` (from the last
info line) and the engine's time to finish iteration DEPTH of `go depth DEPTH`. Prints every
measurement and the medians and ratios (N threads / 1 thread).
"""
import argparse, statistics, subprocess, sys

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
    "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 3 54",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
]


def search(engine, threads, fen, go):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"setoption name Threads value {threads}\nsetoption name Hash value 64\n"
                  f"ucinewgame\nposition fen {fen}\nisready\n")
    p.stdin.flush()
    while p.stdout.readline().strip() != "readyok":
        pass
    p.stdin.write(go + "\n")
    p.stdin.flush()
    infos = []
    for line in p.stdout:
        if line.startswith("info depth"):
            infos.append(line.split())
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.close()
    p.wait()
    return infos


def field(info, name):
    return int(info[info.index(name) + 1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--movetime", type=int, default=5000)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    nps = {1: [], a.threads: []}
    ttd = {1: [], a.threads: []}
    for rep in range(a.reps):
        for i, fen in enumerate(POSITIONS[: a.positions]):
            for t in (1, a.threads) if rep % 2 == 0 else (a.threads, 1):
                if a.movetime > 0:
                    n = field(search(a.engine, t, fen, f"go movetime {a.movetime}")[-1], "nps")
                    nps[t].append(n)
                    print(f"rep {rep} pos {i} threads {t} nps {n}", flush=True)
                if a.depth > 0:
                    infos = search(a.engine, t, fen, f"go depth {a.depth}")
                    ms = next(field(x, "time") for x in infos if field(x, "depth") >= a.depth)
                    ttd[t].append(ms)
                    print(f"rep {rep} pos {i} threads {t} time-to-depth {a.depth} {ms} ms",
                          flush=True)
    for name, d, better in (("nps", nps, "x"), (f"time to depth {a.depth} (ms)", ttd, "x")):
        if d[1]:
            m1, mn = statistics.median(d[1]), statistics.median(d[a.threads])
            print(f"{name}: median 1 thread {m1:.0f}, {a.threads} threads {mn:.0f}, "
                  f"ratio {mn / m1:.2f}")
    # Time to depth per position: median over repetitions, then the median of the ratios.
    if ttd[1]:
        per = a.positions
        ratios = []
        for i in range(per):
            t1 = statistics.median(ttd[1][i::per])
            tn = statistics.median(ttd[a.threads][i::per])
            ratios.append(t1 / tn)
        print(f"time-to-depth speed-up per position (1 thread / {a.threads}): "
              + " ".join(f"{r:.2f}" for r in ratios)
              + f"; median {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    sys.exit(main())
