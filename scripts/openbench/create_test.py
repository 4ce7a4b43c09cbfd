#!/usr/bin/env python3
"""Creates an OpenBench test the way a user's script does, for scripts/openbench/e2e.sh.

A POST to the server's `/scripts/` endpoint with `action=CREATE_TEST`, the user's name and
password and the fields of OpenBench's test form (the same ones its Scripts/create_test.py
sends). The server looks each branch up on GitHub (here: the local stand-in), takes the bench
from the commit message's `Bench:` line and, as the user is an approver, approves the test.
On success the server redirects to /index/; on an error to the form, with the error kept in the
session, which this script then reads back and prints.

Prints the new test's id on stdout (found through /api/workload/<id>/info/: the newest test
whose dev branch is --dev). Exit 1 with the server's message when the test was not created.

Usage: create_test.py --server URL --user U --password P --repo https://github.com/O/R
           --dev BRANCH --base BRANCH --tc N=5000 (--games N | --sprt "[e0, e1]")
           [--workload-size N] [--priority N] [--book 8moves_v3.epd]
"""

import argparse
import html
import re
import sys

import requests


def fail(msg):
    print(f"create_test: error: {msg}", file=sys.stderr)
    sys.exit(1)


def form(args):
    """The fields of OpenBench's test form, Sable on both sides."""
    side = lambda branch: {"engine": "Sable", "repo": args.repo, "branch": branch, "bench": "",
                           "network": "", "options": "Threads=1 Hash=16",
                           "time_control": args.tc}
    data = {f"dev_{k}": v for k, v in side(args.dev).items()}
    data.update({f"base_{k}": v for k, v in side(args.base).items()})
    data.update({
        "test_mode": "SPRT" if args.sprt else "GAMES",
        "test_bounds": args.sprt or "N/A",
        "test_confidence": "[0.05, 0.05]" if args.sprt else "N/A",
        "test_max_games": str(args.games or ""),
        "book_name": args.book, "upload_pgns": "FALSE",
        "throughput": "1000", "workload_size": str(args.workload_size),
        "priority": str(args.priority),
        "syzygy_wdl": "DISABLED", "syzygy_adj": "OPTIONAL",
        "win_adj": "movecount=3 score=400", "draw_adj": "movenumber=40 movecount=8 score=10",
        "scale_method": "BASE", "scale_nps": "1780000", "info": "",
        "username": args.user, "password": args.password, "action": "CREATE_TEST",
    })
    return data


def server_error(session, server, location):
    """The error message the server stored in the session for the page it redirected to."""
    page = session.get(server.rstrip("/") + location, timeout=30).text
    found = re.findall(r"error[^>]*>\s*([^<]+)<", page, re.IGNORECASE)
    return html.unescape(found[0].strip()) if found else f"redirected to {location}"


def newest_test(server, dev):
    """The id of the newest test whose dev branch is `dev`, from the server's API."""
    newest, n = None, 1
    while True:
        info = requests.get(f"{server.rstrip('/')}/api/workload/{n}/info/", timeout=30).json()
        if "info" not in info:
            return newest
        if info["info"]["dev"]["name"] == dev:
            newest = n
        n += 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for flag in ("--server", "--user", "--password", "--repo", "--dev", "--base", "--tc"):
        p.add_argument(flag, required=True)
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--games", type=int)
    mode.add_argument("--sprt")
    p.add_argument("--workload-size", type=int, default=1)
    p.add_argument("--priority", type=int, default=0)
    p.add_argument("--book", default="8moves_v3.epd")
    args = p.parse_args()

    session = requests.Session()
    try:
        reply = session.post(args.server.rstrip("/") + "/scripts/", data=form(args),
                             allow_redirects=False, timeout=120)
    except requests.RequestException as err:
        fail(f"POST {args.server}/scripts/ failed: {err}")
    location = reply.headers.get("Location", "")
    if reply.status_code != 302 or not location.startswith("/index/"):
        why = server_error(session, args.server, location) if location else reply.text[-500:]
        fail(f"the server did not create the test {args.dev} vs {args.base}: {why}")
    test_id = newest_test(args.server, args.dev)
    if test_id is None:
        fail(f"the server accepted the test {args.dev} vs {args.base} but its API lists none")
    print(test_id)


if __name__ == "__main__":
    main()
