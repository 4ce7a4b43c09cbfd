#!/usr/bin/env python3
"""Waits for OpenBench tests to end and checks how they ended, for scripts/openbench/e2e.sh.

Everything is read from the server: a test's state and counts from its API
(`/api/workload/<id>/info/`), and the errors clients reported from the `/errors/` page (the
API has no endpoint for them). Each `--expect LABEL:ID:WHAT` is one test and what must hold:

  games:N   finished, not in error, exactly N games counted, the trinomial summing to N and
            the pentanomial to N/2 pairs (every game reported, none twice)
  h0        an SPRT that ended by accepting H0 (failed: its LLR fell below the lower bound)
  bench     stopped without a game, with the client's `Wrong Bench` error for it on /errors/

It polls until every test has finished or --timeout seconds have passed, then prints one line
per test (`e2e: (a) PASS ...` or `e2e: (a) FAIL ...`, with the server's numbers) and exits 0
only when all hold.

Usage: check_tests.py --server URL --timeout S --expect a:1:games:8 [--expect ...]
"""

import argparse
import html
import re
import sys
import time

import requests


def info(server, test_id):
    reply = requests.get(f"{server}/api/workload/{test_id}/info/", timeout=30).json()
    if "info" not in reply:
        raise LookupError(f"test {test_id}: the server says {reply.get('error', reply)}")
    return reply["info"]


def reported_errors(server, test_id):
    """The summaries of the /errors/ rows that link to test `test_id`."""
    page = requests.get(f"{server}/errors/", timeout=30).text
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.DOTALL)
    out = []
    for row in rows:
        if re.search(rf'href="/test/{test_id}/?"', row):
            # Its cells: date, machine, user, test, summary, logs.
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)
            out.append(html.unescape(re.sub(r"<[^>]+>", "", cells[4] if len(cells) > 4 else row)))
    return out


def numbers(t):
    """The server's counts of a test, as one phrase."""
    l, d, w = t["tri"]  # OpenBench's order: losses, draws, wins
    return (f"games {t['games']} (W {w} L {l} D {d}), pentanomial {t['penta']}"
            + (f", LLR {t['currentllr']:.2f} in [{t['lowerllr']:.2f}, {t['upperllr']:.2f}]"
               if t["test_mode"] == "SPRT" else ""))


def verdict(server, kind, arg, t):
    """(ok, reason) for one finished (or timed-out) test."""
    if not t["finished"]:
        return False, f"not finished in time: {numbers(t)}"
    if kind == "games":
        n = int(arg)
        tri, pairs = sum(t["tri"]), sum(t["penta"])
        ok = not t["error"] and t["games"] == n and tri == n and 2 * pairs == n
        return ok, f"{numbers(t)}; expected {n} games, {n // 2} pairs"
    if kind == "h0":
        ok = t["failed"] and not t["passed"] and t["currentllr"] < t["lowerllr"]
        return ok, f"{'H0 accepted' if ok else 'not H0'}: {numbers(t)}"
    if kind == "bench":
        errors = [e for e in reported_errors(server, t["id"]) if "Wrong Bench" in e]
        ok = t["games"] == 0 and bool(errors)
        shown = errors[0] if errors else "no Wrong Bench error reported"
        return ok, f"stopped at {t['games']} games, expected bench {t['dev']['bench']}: {shown}"
    raise ValueError(kind)


def parse_expect(spec):
    parts = spec.split(":")
    if len(parts) < 3 or not parts[1].isdigit() or parts[2] not in ("games", "h0", "bench") \
            or (parts[2] == "games") != (len(parts) == 4 and parts[3].isdigit()):
        raise argparse.ArgumentTypeError(
            f"--expect {spec!r}: expected LABEL:ID:games:N, LABEL:ID:h0 or LABEL:ID:bench")
    return parts[0], int(parts[1]), parts[2], parts[3] if len(parts) == 4 else None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--server", required=True)
    p.add_argument("--timeout", type=float, required=True)
    p.add_argument("--expect", type=parse_expect, action="append", required=True)
    args = p.parse_args()
    server = args.server.rstrip("/")

    deadline = time.time() + args.timeout
    while True:
        try:
            tests = {e[1]: info(server, e[1]) for e in args.expect}
        except (LookupError, requests.RequestException, ValueError) as err:
            print(f"e2e: FAIL: cannot read the server's API: {err}")
            return 1
        if all(t["finished"] for t in tests.values()) or time.time() > deadline:
            break
        time.sleep(5)

    all_ok = True
    for label, test_id, kind, arg in args.expect:
        ok, why = verdict(server, kind, arg, tests[test_id])
        all_ok &= ok
        print(f"e2e: ({label}) {'PASS' if ok else 'FAIL'} test {test_id}: {why}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
