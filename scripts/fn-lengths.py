#!/usr/bin/env python3
"""List the longest functions of the harness (or the engine), test code left out, so that the
style rule "functions within about 60 lines, none over 100" can be checked.

A function's length is its lines from the `fn` line to its closing brace, signature and doc-less
body included (doc comments above it do not count). Test code is what only the tests compile:
files declared under `#[cfg(test)]` by name (tests.rs, *_tests.rs, hostile_input.rs) and inline
`#[cfg(test)] mod ... { }` blocks.

Usage: python3 scripts/fn-lengths.py [--engine] [--over N] [--check MAX] [--root DIR]
  --engine     engine/src instead of src (the harness, its binaries included)
  --over N     list the functions longer than N lines (default 60)
  --check MAX  exit 1 when a function is longer than MAX lines (CI's "none over 100")
"""

import re
import sys
from pathlib import Path


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


ROOT = Path(arg("--root", Path(__file__).resolve().parent.parent))
SRC = ROOT / ("engine/src" if "--engine" in sys.argv else "src")
TEST_FILES = re.compile(r"(^|/)(tests|[a-z0-9_]+_tests|hostile_input)\.rs$")
FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")
CFG_TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")


def blank_literals(text):
    """Comments and the insides of string and char literals become spaces (newlines kept), so
    braces in them do not count and line numbers stay."""
    out, i, n = [], 0, len(text)

    def blank(s):
        return re.sub(r"[^\n]", " ", s)

    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(text[i:j]))
            i = j
        elif re.match(r'(?<![A-Za-z0-9_])b?r#*"', text[i : i + 20]) and not (
            i and (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            m = re.match(r'b?r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('"' + blank(text[i + 1 : j - 1]) + '"')
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + blank(text[i + 1 : j]) + '"')
            i = j + 1
        elif text[i] == "'" and i + 2 < n and (text[i + 2] == "'" or text[i + 1] == "\\"):
            j = text.find("'", i + 3 if text[i + 1] == "\\" else i + 2)
            out.append("'" + blank(text[i + 1 : j]) + "'")
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def matching_brace(text, open_at):
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text) - 1


def functions(path):
    """(name, first line, lines) of every function outside test blocks."""
    text = blank_literals(path.read_text())
    test_spans = []
    for m in CFG_TEST_MOD.finditer(text):
        test_spans.append((m.start(), matching_brace(text, m.end() - 1)))
    found = []
    for m in FN.finditer(text):
        if any(a <= m.start() <= b for a, b in test_spans):
            continue
        # The body: the first `{` after the signature, unless a `;` ends it first (a trait's
        # declaration without a body).
        k = m.end()
        depth = 0
        while k < len(text):
            c = text[k]
            if c in "(<[":
                depth += 1
            elif c in ")>]":
                depth -= 1
            elif c == ";" and depth <= 0:
                k = -1
                break
            elif c == "{" and depth <= 0:
                break
            k += 1
        if k < 0 or k >= len(text):
            continue
        end = matching_brace(text, k)
        first = text.count("\n", 0, m.start()) + 1
        last = text.count("\n", 0, end) + 1
        found.append((m.group(1), first, last - first + 1))
    return found


def main():
    over = int(arg("--over", 60))
    check = arg("--check", None)
    rows = []
    for path in sorted(SRC.rglob("*.rs")):
        rel = path.relative_to(ROOT).as_posix()
        if TEST_FILES.search(rel):
            continue
        for name, line, length in functions(path):
            rows.append((length, f"{rel}:{line}", name))
    rows.sort(reverse=True)
    long = [r for r in rows if r[0] > over]
    for length, where, name in long:
        print(f"{length:4}  {where}  {name}")
    print(f"{len(long)} of {len(rows)} functions over {over} lines", file=sys.stderr)
    if check is not None:
        worst = [r for r in rows if r[0] > int(check)]
        if worst:
            print(f"fn-lengths: {len(worst)} functions over {check} lines", file=sys.stderr)
            sys.exit(1)


if __name__ == "__main__":
    main()
