#!/usr/bin/env python3
"""Print the harness's room-to-room dependency edges, so docs/architecture.md's picture can be
checked against the code.

A room is a top-level module of the harness library (src/cmd, src/tournament, ...). An edge
A -> B is any `crate::B` path (in a `use` line or written out) in a file of room A. Code that
only the tests compile is left out by default: files declared under `#[cfg(test)]` (tests.rs,
*_tests.rs, hostile_input.rs) and inline `#[cfg(test)] mod ... { }` blocks; `--tests` counts
them too. The binaries (src/main.rs, src/bin/) use the library by its name, not `crate::`, and
are not rooms.

Inside a room, the files (modules) import each other too; a cycle among a room's files (two
sibling modules that need each other) is reported like a cycle of rooms. A module's own parent
(its mod.rs, which declares and re-exports it) and its children do not count.

Usage: python3 scripts/layers.py [--tests] [--files] [--engine] [--check] [--root DIR]
  --tests   count test-only code too
  --files   after each edge, the files that make it
  --engine  the engine's rooms (engine/src) instead of the harness's
  --check   exit 1 on a cycle (of rooms or of a room's files), on an arrow up (against the
            order of LAYERS below, the intended design of docs/architecture.md) and on a room
            that LAYERS does not place; .ci/run runs it
  --root    the checkout to read (default: the one this script is in)
Prints the edges grouped by room, then every pair of rooms that import each other (a cycle of
two) or larger cycle, and the rooms from top to bottom so that every arrow between them goes
down (rooms on one cycle are bracketed together: no order puts all their arrows down).
"""

import re
import sys
from collections import defaultdict
from pathlib import Path

def _root():
    if "--root" in sys.argv:
        return Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
    return Path(__file__).resolve().parent.parent


ROOT = _root()
SRC = ROOT / ("engine/src" if "--engine" in sys.argv else "src")

# The intended order of the rooms, top to bottom: a room may import only rooms after it in its
# list. docs/architecture.md draws the same order. A new room gets its place here.
LAYERS = {
    "harness": [
        "cmd", "fastchess", "bisect", "check", "spsa", "datagen", "tune", "tournament",
        "forensics", "stats", "suites", "openings", "game", "uci", "tablebase", "report",
        "plumbing",
    ],
    "engine": [
        "uci", "genfens", "bench", "search", "tablebase", "movegen", "memory", "eval", "board",
        "attacks", "types", "rng",
    ],
}

CFG_TEST = re.compile(r"#\[cfg\(test\)\]\s*((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*([;{])")
PATH_ATTR = re.compile(r'#\[path\s*=\s*"([^"]+)"\]')
CRATE_PATH = re.compile(r"\bcrate::(\w+)")
CRATE_GROUP = re.compile(r"\bcrate::\{([^}]*)\}")


def strip_comments(text):
    """Remove // and /* */ comments (doc comments name modules without depending on them)
    while keeping string literals, so braces inside comments do not upset the block skipper."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            # a raw string r"..." or r#"..."#: no escapes, ends at the quote and as many #
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            j = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if j < 0 else j + 1 + len(hashes)
            out.append(text[i:j])
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif c == "'" and i + 2 < n and (text[i + 2] == "'" or text[i + 1] == "\\"):
            # a char literal such as '{' or '\n' (a lifetime 'a has no closing quote)
            j = text.find("'", i + 3 if text[i + 1] == "\\" else i + 2)
            out.append(text[i : j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def child_file(parent, name, path_attr):
    """The file a `mod name;` in `parent` refers to, by Rust's rules."""
    base = parent.parent if parent.name in ("mod.rs", "lib.rs") else parent.with_suffix("")
    if path_attr:
        return parent.parent / path_attr
    for cand in (base / f"{name}.rs", base / name / "mod.rs"):
        if cand.exists():
            return cand
    return base / f"{name}.rs"


def without_test_blocks(text, path, test_files):
    """The text minus inline #[cfg(test)] modules; records out-of-line test modules' files."""
    keep, pos = [], 0
    for m in CFG_TEST.finditer(text):
        if m.start() < pos:
            continue
        if m.group(3) == ";":
            attr = PATH_ATTR.search(m.group(1) or "")
            test_files.add(child_file(path, m.group(2), attr.group(1) if attr else None).resolve())
            continue
        keep.append(text[pos : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        pos = j
    keep.append(text[pos:])
    return "".join(keep)


def room_of(path):
    rel = path.relative_to(SRC)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def main():
    with_tests = "--tests" in sys.argv
    show_files = "--files" in sys.argv
    files = sorted(p for p in SRC.rglob("*.rs") if p.relative_to(SRC).parts[0] != "bin")
    files = [p for p in files if p.name not in ("main.rs",)]
    texts = {p: strip_comments(p.read_text()) for p in files}

    # Test-only files are known once every parent has been read.
    test_files = set()
    bodies = {p: without_test_blocks(t, p, test_files) for p, t in texts.items()}
    # A test file's own children are test-only too (none today, but keep the rule honest).
    changed = True
    while changed:
        changed = False
        for p in files:
            if p.resolve() in test_files:
                before = len(test_files)
                without_test_blocks(texts[p], p, test_files)
                for m in re.finditer(r"\bmod\s+(\w+)\s*;", texts[p]):
                    test_files.add(child_file(p, m.group(1), None).resolve())
                changed |= len(test_files) != before

    # The rooms are the modules lib.rs declares (a test-only one, such as the harness's
    # hostile_input, only with --tests).
    declared = re.findall(r"\bmod\s+(\w+)\s*;", texts[SRC / "lib.rs"])
    rooms = sorted(
        r
        for r in declared
        if with_tests or child_file(SRC / "lib.rs", r, None).resolve() not in test_files
    )
    edges = defaultdict(set)  # (from, to) -> files
    for p in files:
        if not with_tests and p.resolve() in test_files:
            continue
        src_room = room_of(p)
        if src_room not in rooms:
            continue  # lib.rs itself, or a binary's module (engine/src/perft_cmd.rs)
        body = texts[p] if with_tests else bodies[p]
        targets = set(CRATE_PATH.findall(body))
        for group in CRATE_GROUP.findall(body):
            targets |= {t.strip().split("::")[0] for t in group.split(",") if t.strip()}
        for t in targets:
            if t in rooms and t != src_room:
                edges[(src_room, t)].add(str(p.relative_to(SRC.parent)))

    print(f"# {'engine' if '--engine' in sys.argv else 'harness'} room edges ({'with' if with_tests else 'without'} test-only code)")
    for room in rooms:
        outs = sorted(t for (f, t) in edges if f == room)
        print(f"{room:14} -> {', '.join(outs) if outs else '(none)'}")
        if show_files:
            for t in outs:
                print(f"{'':16}{t}: {', '.join(sorted(edges[(room, t)]))}")

    pairs = sorted((a, b) for (a, b) in edges if a < b and (b, a) in edges)
    print()
    for a, b in pairs:
        print(f"cycle: {a} <-> {b}")
    groups = strongly_connected(rooms, edges)
    for g in groups:
        if len(g) > 2:
            print("cycle through:", " ".join(g))
    if not pairs and all(len(g) == 1 for g in groups):
        print("no cycle")
    # The rooms top to bottom: each room (or group of rooms on one cycle, in brackets) is
    # listed before everything it imports, so every arrow between groups goes down.
    order = " ".join(g[0] if len(g) == 1 else "[" + " ".join(g) + "]" for g in groups)
    print("top to bottom:", order)

    live = [p for p in files if with_tests or p.resolve() not in test_files]
    cycles = file_cycles(live, {p: (texts[p] if with_tests else bodies[p]) for p in live})
    for room, mods in cycles:
        print(f"cycle of files in {room}: {' '.join(mods)}")
    if not cycles:
        print("no cycle among a room's files")

    layers = LAYERS["engine" if "--engine" in sys.argv else "harness"]
    problems = [f"room {r} has no place in LAYERS (scripts/layers.py)" for r in rooms if r not in layers]
    for (a, b) in sorted(edges):
        if a in layers and b in layers and layers.index(a) > layers.index(b):
            problems.append(f"arrow up: {a} -> {b} ({', '.join(sorted(edges[(a, b)]))})")
    problems += [f"cycle: {a} <-> {b}" for a, b in pairs]
    problems += [f"cycle through: {' '.join(g)}" for g in groups if len(g) > 2]
    problems += [f"cycle of files in {room}: {' '.join(m)}" for room, m in cycles]
    for p in problems:
        if p.startswith("arrow up") or p.startswith("room "):
            print(p)
    if "--check" in sys.argv:
        if problems:
            print(f"layers: {len(problems)} problem(s); the intended order is LAYERS in scripts/layers.py")
            sys.exit(1)
        print("layers: every arrow goes down, no cycle")


def module_of(path):
    """The module path of a file: src/tune/dict.rs -> ("tune", "dict"), src/tune/mod.rs ->
    ("tune",)."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return tuple(parts[:-1] if parts[-1] == "mod" else parts)


PATH_REF = re.compile(r"\b((?:crate|self|super)(?:::super)*)::((?:\w+::)*)(\{[^{}]*\}|\w+)")


def module_refs(body, here, is_dir):
    """The module paths a file's text names through crate::, self:: and super:: paths (each
    path as far as it goes; groups `{a, b::c}` one level deep)."""
    refs = []
    for m in PATH_REF.finditer(body):
        head, mid, last = m.group(1).split("::"), m.group(2), m.group(3)
        if head[0] == "crate":
            base = ()
        else:
            # self:: of a mod.rs is the module itself; of a.rs too (its children live in a/).
            base = here
            supers = head.count("super")
            for _ in range(supers):
                base = base[:-1]
        prefix = base + tuple(x for x in mid.split("::") if x)
        items = [last] if not last.startswith("{") else [t.strip().split("::")[0] for t in last[1:-1].split(",") if t.strip()]
        for item in items:
            refs.append(prefix + (item,))
    return refs


def file_cycles(files, bodies):
    """Cycles among the files of one room: sibling (non-nested) modules that import each
    other, directly or around a loop. Returns [(room, [modules])]."""
    mods = {module_of(p): p for p in files}
    succ = defaultdict(set)
    for p in files:
        here = module_of(p)
        if len(here) < 1:
            continue
        for ref in module_refs(bodies[p], here, p.name == "mod.rs"):
            # the longest prefix of the path that is a module of the crate
            target = next((ref[:k] for k in range(len(ref), 0, -1) if ref[:k] in mods), None)
            if not target or target[0] != here[0] or target == here:
                continue
            if target == here[: len(target)] or here == target[: len(here)]:
                continue  # a parent and its child: declared and re-exported, not a cycle
            succ[here].add(target)
    nodes = sorted(mods)
    edges = {(a, b): set() for a in succ for b in succ[a]}
    out = []
    for comp in strongly_connected(nodes, edges):
        if len(comp) > 1:
            out.append((comp[0][0], ["::".join(c) for c in comp]))
    return out


def strongly_connected(rooms, edges):
    """Tarjan's strongly connected components, returned importers first (a topological order
    of the components), each component's rooms sorted."""
    succ = defaultdict(list)
    for (a, b) in sorted(edges):
        succ[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for r in rooms:
        if r not in index:
            visit(r)
    return out[::-1]

if __name__ == "__main__":
    main()
