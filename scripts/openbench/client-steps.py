#!/usr/bin/env python3
"""Does to HEAD what an OpenBench client does to a commit, and fails where it would fail.

1. Export the commit's tree (`git archive HEAD`, no target/, nothing untracked).
2. Build it as the client does: `make -j EXE=<name>` in the engine's build path (`engine`, from
   scripts/openbench/Sable.json), and expect the binary at `<build path>/<name>`.
3. Run `./<name> bench` twice and parse nodes and nps the way Client/bench.py does (the last
   line that matches `N nodes` / `nodes N` and `N nps` / `nps N`, after replacing every
   character that is not a letter, digit or space by a space); the two benches must agree, and
   must equal the `Bench: N` of HEAD's commit message (OpenBench takes the expected bench from
   there).
4. Run `./<name> "genfens N seed S book None extra" "quit"` and read the lines starting with
   `info string genfens ` as Client/genfens.py does: N distinct positions, each a six-field FEN
   (its counters are turned into EPD `hmvc`/`fmvn`) that the engine itself accepts and can move
   from (`sable perft 1 FEN` > 0).

Usage: scripts/openbench/client-steps.py [--keep DIR]   (from any directory)
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def fail(msg):
    print(f"openbench client steps: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, cwd=None, timeout=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=timeout, check=False)


def parse_bench(output):
    """Nodes and nps as OpenBench's client reads them from `bench` output (bottom line up)."""
    nps = bench = None
    for line in output.strip().split("\n")[::-1]:
        line = re.sub(r"[^a-zA-Z0-9 ]+", " ", line)
        n = re.search(r"(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)", line, re.IGNORECASE)
        b = re.search(r"(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)", line, re.IGNORECASE)
        if n and nps is None:
            nps = n.group()
        if b and bench is None:
            bench = b.group()
    as_int = lambda m: int(re.search(r"\d+", m).group()) if m else None
    return as_int(bench), as_int(nps)


def bench_from_message(message):
    """The last `Bench: N` line of a commit message (OpenBench's convention)."""
    found = None
    for line in message.splitlines():
        m = re.match(r"\s*bench\s*:\s*([\d,_]+)\s*$", line, re.IGNORECASE)
        if m:
            found = int(m.group(1).replace(",", "").replace("_", ""))
    return found


def main():
    keep = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--keep" else None
    here = os.path.dirname(os.path.abspath(__file__))
    root = run(["git", "-C", here, "rev-parse", "--show-toplevel"]).stdout.decode().strip()
    if not root:
        fail("not inside a git checkout")
    config = json.load(open(os.path.join(root, "scripts", "openbench", "Sable.json")))
    build_path = config["build"]["path"]
    # The books an OpenBench server offers (its Config/config.json, "books").
    known = {"2moves_v1.epd", "3moves_FRC.epd", "4moves_noob.epd", "8moves_v3.epd", "DFRC.epd",
             "Endgames.epd", "Pohl.epd", "Pohl.pgn", "UHO_4060_v2.epd", "UHO_4060_vB.epd",
             "UHO_4060_vT.epd", "UHO_Lichess_4852_v1.epd", "DFRC_4852_v1.epd",
             "endgames_cdb95105.epd", "fortresses_150_250.epd"}
    for kind in ("test_presets", "tune_presets"):
        for preset, values in config.get(kind, {}).items():
            book = values.get("book_name")
            if book is not None and book not in known:
                fail(f"Sable.json {kind}/{preset}: book {book} is not one OpenBench offers")
    message = run(["git", "-C", root, "log", "-1", "--format=%B", "HEAD"]).stdout.decode()
    expected = bench_from_message(message)

    work = keep or tempfile.mkdtemp(prefix="sable-openbench-")
    os.makedirs(work, exist_ok=True)
    tree = os.path.join(work, "Sable-tmp")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    archive = subprocess.run(["git", "-C", root, "archive", "--format=tar", "HEAD"],
                             stdout=subprocess.PIPE, check=True).stdout
    subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
    if os.path.exists(os.path.join(tree, "target")):
        fail("the exported tree has a target/ directory")

    name = "Sable-client-test"
    make_dir = os.path.join(tree, build_path)
    start = time.time()
    built = run(["make", "-j", f"EXE={name}"], cwd=make_dir)
    if built.returncode != 0:
        fail(f"`make -j EXE={name}` in {build_path}/ failed:\n{built.stdout.decode()[-3000:]}")
    binary = os.path.join(make_dir, name)
    if not os.access(binary, os.X_OK):
        fail(f"make did not leave an executable at {build_path}/{name}")
    print(f"build: make -j EXE={name} in {build_path}/ ({time.time() - start:.0f} s)")

    benches = []
    for _ in range(2):
        start = time.time()
        out = run([f"./{name}", "bench"], cwd=make_dir, timeout=60)
        nodes, nps = parse_bench(out.stdout.decode())
        if nodes is None or nps is None:
            fail(f"bench output not parsed:\n{out.stdout.decode()[-1000:]}")
        benches.append(nodes)
        print(f"bench: {nodes} nodes, {nps} nps ({time.time() - start:.1f} s, limit 60 s)")
    if len(set(benches)) != 1:
        fail(f"non-deterministic bench: {benches}")
    if expected is None:
        fail(f"HEAD's commit message has no `Bench: N` line; OpenBench needs one. Amend it "
             f"(git commit --amend) and end the message with `Bench: {benches[0]}`")
    if expected != benches[0]:
        fail(f"HEAD's message says `Bench: {expected}` but `sable bench` gives {benches[0]}. "
             f"Amend it (git commit --amend) to end with `Bench: {benches[0]}` if the search "
             f"change is intended, else find what changed the search")
    print(f"bench: matches `Bench: {expected}` in HEAD's message")

    count = 16
    out = run([f"./{name}", f"genfens {count} seed 90210 book None extra", "quit"],
              cwd=make_dir, timeout=15 * count)
    fens = [line.split("genfens ")[1].rstrip() for line in out.stdout.decode().split("\n")
            if line.startswith("info string genfens ")]
    if len(fens) != count:
        fail(f"genfens gave {len(fens)} positions, not {count}:\n{out.stdout.decode()[-1000:]}")
    if len(set(fens)) != count:
        fail("genfens repeated a position")
    for fen in fens:
        fields = fen.split()
        if len(fields) != 6:
            fail(f"genfens position is not a six-field FEN: {fen}")
        halfmove, fullmove = int(fields[4]), int(fields[5])
        epd = " ".join(fields[:4]) + f" hmvc {halfmove}; fmvn {fullmove};"
        perft = run([f"./{name}", "perft", "1", fen], cwd=make_dir, timeout=10)
        moves = re.search(r"Nodes searched:\s*(\d+)", perft.stdout.decode())
        if perft.returncode != 0 or not moves or int(moves.group(1)) == 0:
            fail(f"the engine cannot play from its own genfens position {epd}")
    print(f"genfens: {count} distinct legal positions, e.g. {fens[0]}")
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    print("openbench client steps: PASS")


if __name__ == "__main__":
    main()
