#!/usr/bin/env python3
"""Plants a regression on a scratch branch, so that `harness bisect` has something to find
(README, "Try bisect on a planted regression").

    scripts/plant-regression.py [--branch planted-regression] [--base HEAD]

Makes BRANCH: six commits on top of BASE, built with git's plumbing (a temporary index), so
the checkout, its index and its current branch are left as they are. Commits 1, 2, 4, 5 and 6
change only `docs/planted.md`, a file of this branch alone, and keep BASE's `Bench:`. Commit 3
is the regression: the knight is worth a pawn (`engine/src/eval/defaults.rs`), which loses
hundreds of Elo. Its `Bench:` is measured: the script builds sable at that commit (cargo, in a
temporary folder, into `target/sable-revs/build`, the `rev:` cache's build folder, so the
dependencies are built once) and runs `sable bench`; `suites/bench.txt` carries it too.

Remove the branch afterwards with `git branch -D planted-regression`.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

KNIGHT = re.compile(r"(// material\n\s*S::new\([^)]*\), )S::new\([^)]*\)")


def git(*args, env=None, data=None):
    """Runs git; its stdout, stripped. Exits with git's message when it fails."""
    p = subprocess.run(
        ["git", *args], input=data, capture_output=True, env=env, text=data is None or isinstance(data, str)
    )
    if p.returncode != 0:
        err = p.stderr if isinstance(p.stderr, str) else p.stderr.decode(errors="replace")
        sys.exit(f"error: git {' '.join(args)}: {err.strip()}")
    out = p.stdout if isinstance(p.stdout, str) else p.stdout.decode()
    return out.strip()


def tree_with(parent, files):
    """parent's tree with `files` (path -> text) replaced; its hash."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp, "index"))
        git("read-tree", parent, env=env)
        for path, text in files.items():
            blob = git("hash-object", "-w", "--stdin", data=text)
            git("update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=env)
        return git("write-tree", env=env)


def commit(parent, files, message):
    """A commit of parent's tree with `files` replaced; its hash. Where git has no identity
    configured (a fresh CI machine), the commits are signed `plant-regression`."""
    env = dict(os.environ)
    for who in ("AUTHOR", "COMMITTER"):
        env.setdefault(f"GIT_{who}_NAME", git_config("user.name") or "plant-regression")
        env.setdefault(f"GIT_{who}_EMAIL", git_config("user.email") or "plant-regression@localhost")
    return git("commit-tree", tree_with(parent, files), "-p", parent, "-m", message, env=env)


def git_config(key):
    """A git setting, or '' where it is unset."""
    p = subprocess.run(["git", "config", key], capture_output=True, text=True)
    return p.stdout.strip()


def bench_of(tree, root):
    """The node count of `sable bench` built from a tree."""
    target = os.path.join(root, "target", "sable-revs", "build")
    with tempfile.TemporaryDirectory() as src:
        archive = subprocess.run(["git", "archive", tree], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
        print(f"plant: building sable with the regression (cargo build --release -p sable)", flush=True)
        built = subprocess.run(
            ["cargo", "build", "--release", "-q", "-p", "sable", "--bin", "sable", "--target-dir", target],
            cwd=src,
        )
        if built.returncode != 0:
            sys.exit(f"error: sable did not build with the regression")
    out = subprocess.run(
        [os.path.join(target, "release", "sable"), "bench"], capture_output=True, text=True, check=True
    )
    counts = re.findall(r"^(\d+) nodes", out.stdout, re.M)
    if not counts:
        sys.exit(f"error: `sable bench` printed no `N nodes` line:\n{out.stdout}")
    return int(counts[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--branch", default="planted-regression")
    ap.add_argument("--base", default="HEAD")
    args = ap.parse_args()
    root = git("rev-parse", "--show-toplevel")
    os.chdir(root)
    if subprocess.run(["git", "rev-parse", "--verify", "-q", f"refs/heads/{args.branch}"],
                      capture_output=True).returncode == 0:
        sys.exit(f"error: branch {args.branch} exists; remove it (git branch -D {args.branch}) "
                 f"or name another (--branch NAME)")
    base = git("rev-parse", "--verify", f"{args.base}^{{commit}}")
    bench = git("show", f"{base}:suites/bench.txt").split()[0]
    defaults = git("show", f"{base}:engine/src/eval/defaults.rs") + "\n"
    weakened, found = KNIGHT.subn(r"\1S::new(  85,   85)", defaults, count=1)
    if found != 1:
        sys.exit("error: engine/src/eval/defaults.rs has no `// material` table to weaken")

    head, planted = base, None
    for step in range(1, 7):
        note = f"# A planted history\n\nStep {step} of scripts/plant-regression.py.\n"
        if step == 3:
            files = {"engine/src/eval/defaults.rs": weakened, "docs/planted.md": note}
            bench = str(bench_of(tree_with(head, files), root))
            files["suites/bench.txt"] = bench + "\n"
            head = commit(head, files, f"planted: the knight worth a pawn (the regression)\n\nBench: {bench}")
            planted = head
        else:
            head = commit(head, {"docs/planted.md": note},
                          f"planted: step {step}, docs only\n\nBench: {bench}")
    git("branch", args.branch, head)
    print(f"plant: branch {args.branch}: 6 commits on {base[:10]}; the regression is {planted[:10]} "
          f"(Bench: {bench}); remove it with `git branch -D {args.branch}`")


if __name__ == "__main__":
    main()
