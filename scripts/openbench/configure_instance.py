#!/usr/bin/env python3
"""Registers Sable in a copy of OpenBench's source, for scripts/openbench/e2e.sh.

Run in the copy's root (never in a developer's checkout). It writes two of OpenBench's
configuration files, as a server's owner does, and nothing else:

- Engines/Sable.json: scripts/openbench/Sable.json with `source` set to --source (the GitHub
  URL under which the local stand-in serves this repository);
- Config/config.json: "Sable" added to `engines`; `fastchess_repo_url` / `fastchess_repo_ref`
  set to the fastchess the stand-in serves (OpenBench's default, AndyGrant/fastchess at
  master, is not on the machine). `fastchess_min_version` is left as it is;

The book's file (Books/8moves_v3.epd.json) stays OpenBench's: e2e.sh puts a local copy of the
book where the client keeps downloaded ones, and the client checks it against that sha.
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
    for flag in ("--sable-json", "--source", "--fastchess-url", "--fastchess-ref"):
        p.add_argument(flag, required=True)
    args = p.parse_args()

    sable = load(args.sable_json)
    sable["source"] = args.source
    save("Engines/Sable.json", sable)

    conf = load("Config/config.json")
    if "Sable" not in conf["engines"]:
        conf["engines"].append("Sable")
    conf["fastchess_repo_url"] = args.fastchess_url
    conf["fastchess_repo_ref"] = args.fastchess_ref
    save("Config/config.json", conf)


if __name__ == "__main__":
    main()
