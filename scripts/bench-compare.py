#!/usr/bin/env python3
"""Side-by-side nps of `bench`-style commands: runs each command once per round, in turn, for
several rounds, and prints each command's median nps and its median ratio to the first
command's nps of the same round (a paired ratio: the load of the machine moves all commands of a
round alike). Each command must print `N nodes M nps` as its last line (`sable bench` does).
Besides the wall-clock nps the command prints, the nodes per second of user CPU time are shown
(`cpu nps`, from the child's resource usage, start-up included): on a machine shared with other
work, waiting for a core inflates wall time but not CPU time.

  scripts/bench-compare.py [--rounds 9] CMD1 CMD2 ...
  e.g. scripts/bench-compare.py "old/sable bench" "target/release/sable bench" \
         "target/release/sable bench 10 ../shared/data/syzygy"
"""

import argparse
import resource
import shlex
import statistics
import subprocess
import sys


def run(cmd):
    """(nodes, wall nps, cpu nps) of one run of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run(shlex.split(cmd), capture_output=True, text=True, check=True).stdout
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    words = out.strip().splitlines()[-1].split()
    if len(words) != 4 or words[1] != "nodes" or words[3] != "nps":
        sys.exit(f"bench-compare: unexpected last line from {cmd!r}: {out!r}")
    return int(words[0]), int(words[2]), int(words[0]) / max(cpu, 1e-6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("commands", nargs="+")
    args = ap.parse_args()
    nps = {c: [] for c in args.commands}
    cpu = {c: [] for c in args.commands}
    nodes = {}
    for r in range(args.rounds):
        for c in args.commands:
            n, speed, cpu_speed = run(c)
            nodes[c] = n
            nps[c].append(speed)
            cpu[c].append(cpu_speed)
        print(f"round {r + 1}: " + "  ".join(str(nps[c][-1]) for c in args.commands),
              file=sys.stderr)
    first = args.commands[0]

    def ratio(series, c):
        return statistics.median(a / b for a, b in zip(series[c], series[first]))

    print(f"{'command':<58} {'nodes':>8} {'nps':>8} {'ratio':>6} {'cpu nps':>8} {'ratio':>6}")
    for c in args.commands:
        print(f"{c:<58} {nodes[c]:>8} {statistics.median(nps[c]):>8.0f} {ratio(nps, c):>6.3f}"
              f" {statistics.median(cpu[c]):>8.0f} {ratio(cpu, c):>6.3f}")


if __name__ == "__main__":
    main()
