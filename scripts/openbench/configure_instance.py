#!/usr/bin/env python3
"""Registers Sable in a copy of OpenBench's source, for scripts/openbench/e2e.sh.

Run in the copy's root (never in a developer's checkout). It writes three of OpenBench's
configuration files, as a server's owner does, and nothing else:

- Engines/Sable.json: scripts/openbench/Sable.json with `source` set to --source (the GitHub
  URL under which the local stand-in serves this repository);
- Config/config.json: "Sable" added to `engines`; `fastchess_repo_url` / `fastchess_repo_ref`
  set to the fastchess the stand-in serves (OpenBench's default, AndyGrant/fastchess at
  master, is not on the machine). `fastchess_min_version` is left as it is;
- Books/8moves_v3.epd.json: the sha256 of the local copy of the book, which e2e.sh puts in the
  client's Books/ (the client then checks it against this sha and downloads nothing).
"""

import argparse
import json
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as err:
        print(f"configure_instance: error: cannot read {path}: {err}", file=sys.stderr)
        sys.exit(1)


def save(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=4)
        f.write("\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for flag in ("--sable-json", "--source", "--book-sha", "--fastchess-url", "--fastchess-ref"):
        p.add_argument(flag, required=True)
    args = p.parse_args()

    sable = load(args.sable_json)
    sable["source"] = args.source
    save("Engines/Sable.json", sable)

    conf = load("Config/config.json")
    if "Sable" not in conf["engines"]:
        conf["engines"].append("Sable")
    if "8moves_v3.epd" not in conf["books"]:
        conf["books"].append("8moves_v3.epd")
    conf["fastchess_repo_url"] = args.fastchess_url
    conf["fastchess_repo_ref"] = args.fastchess_ref
    save("Config/config.json", conf)

    save("Books/8moves_v3.epd.json", {
        "sha": args.book_sha,
        # Never fetched: the client finds the book in its Books/ and only checks the sha.
        "source": "https://github.com/sable-e2e/books/archive/8moves_v3.epd.zip",
    })


if __name__ == "__main__":
    main()
