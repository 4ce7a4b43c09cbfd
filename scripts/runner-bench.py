#!/usr/bin/env python3
"""The runner benchmark: what a match runner itself costs, engines excluded.

Plays the same games with `harness match` and, where it is installed, fastchess (alternating,
run by run), and prints for each run the runner's own CPU (user + system of the runner
process's threads, read from the kernel when it has exited but is not yet reaped, so its
engines' CPU is not in it), games per minute, time losses, plies per game, the runner's
threads, open descriptors and memory (peak over the run), zombies seen, and the ratio of the
medians. With `--probe` the engines are the harness's faulty engine in its fast mode, stamping
`go` and `bestmove` on the monotonic clock: the latency is the time from one engine's
`bestmove` leaving it to its opponent's `go` arriving, the runner's whole turnaround (reading
the move, stopping the clock, judging the move, sending `position` and `go`), p50 and p99.

    scripts/runner-bench.py compare [--fastchess PATH] [--tc 1+0.01] [--games 40] [--reps 3]
    scripts/runner-bench.py scale [--concurrency 2,8,32,64] [--games 256]

`compare` plays sable against sable by default (`--engine PATH`); `scale` plays the fast
faulty engine against itself at each concurrency (cheap engines, so many games at once fit on
2 cores). Without fastchess (not on PATH, no --fastchess, no $FASTCHESS) the comparison is
skipped with a line that says so. Nothing is written outside a temporary folder.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICK = os.sysconf("SC_CLK_TCK")


def proc_stat(pid):
    """(own user+system seconds, children's user+system seconds, threads) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    # The command name may hold spaces: fields start after its closing parenthesis.
    fields = text[text.rindex(")") + 2:].split()
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    threads = int(fields[17])
    return (utime + stime) / TICK, (cutime + cstime) / TICK, threads


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def fd_count(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def children(pid):
    """(pid, state) of every process whose parent is `pid`."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            out.append((int(entry), fields[0]))
    return out


def run_runner(cmd, cwd, log_name):
    """Runs a runner to its end, sampling it; returns its figures."""
    with open(os.path.join(cwd, log_name), "w") as log:
        start = time.monotonic()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
        peak = {"threads": 0, "fds": 0, "rss": 0, "zombies": 0, "engines": 0}
        seen = set()
        first = None
        samples = 0
        while True:
            # Wait for the exit without reaping, so that /proc still holds its final times.
            try:
                done = os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                done = None
            if done is not None:
                break
            try:
                _, _, threads = proc_stat(p.pid)
                kids = children(p.pid)
            except (OSError, ValueError):
                time.sleep(0.05)
                continue
            sample = (threads, fd_count(p.pid), rss_kib(p.pid))
            if samples == 2 and first is None:
                first = sample  # after start-up: the baseline the run should stay near
            samples += 1
            peak["threads"] = max(peak["threads"], threads)
            peak["fds"] = max(peak["fds"], sample[1])
            peak["rss"] = max(peak["rss"], sample[2])
            peak["zombies"] = max(peak["zombies"], sum(1 for _, s in kids if s == "Z"))
            peak["engines"] = max(peak["engines"], len(kids))
            seen.update(k for k, _ in kids)
            time.sleep(0.2)
        wall = time.monotonic() - start
        own, engines, _ = proc_stat(p.pid)
        code = p.wait()
    # The runner's engines outlive it only as orphans: give them a moment, then count them.
    time.sleep(0.5)
    left = sum(1 for k in seen if os.path.exists(f"/proc/{k}") and state(k) not in ("Z", None))
    return {"code": code, "wall": wall, "cpu": own, "engine_cpu": engines, "left_behind": left,
            **peak}


def state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
        return text[text.rindex(")") + 2:].split()[0]
    except OSError:
        return None


def pgn_figures(path):
    """Games, time losses and plies per game of a PGN file."""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return 0, 0, 0.0
    games = len(re.findall(r'^\[Result "', text, re.M))
    time_losses = len(re.findall(r'^\[Termination "time forfeit"\]', text, re.M | re.I))
    plies = 0
    for body in re.split(r"^\[Event ", text, flags=re.M)[1:]:
        moves = re.sub(r"\{[^}]*\}", " ", body.split("\n\n", 1)[-1])
        plies += len(
            [w for w in moves.split() if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", w)]
        )
    return games, time_losses, plies / games if games else 0.0


def latencies(path):
    """Milliseconds from each `bestmove` to the next `go` of another engine (its opponent)."""
    try:
        lines = [l.split() for l in open(path) if l.strip()]
    except OSError:
        return []
    events = sorted((int(ns), int(pid), what) for pid, what, ns in lines)
    # Each engine's opponent: the engine whose `go` most often follows its `bestmove`.
    follows = {}
    waiting = {}
    for ns, pid, what in events:
        if what == "bestmove":
            waiting[pid] = ns
        else:
            for other, t in list(waiting.items()):
                if other != pid:
                    key = (other, pid)
                    follows[key] = follows.get(key, 0) + 1
    opponent = {}
    for (a, b), n in follows.items():
        if n > follows.get((a, opponent.get(a)), 0):
            opponent[a] = b
    out = []
    pending = {}
    for ns, pid, what in events:
        if what == "bestmove":
            pending[opponent.get(pid)] = ns
        elif pid in pending:
            out.append((ns - pending.pop(pid)) / 1e6)
    return out


def percentile(values, q):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def harness_cmd(a, engine, args, work, concurrency, games):
    cmd = [a.harness, "match"]
    for name in ("a", "b"):
        cmd += ["--engine", f"cmd={engine}", f"name={name}"]
        if args:
            cmd += [f'args={" ".join(args)}']
    cmd += ["--each", f"tc={a.tc}", "--rounds", str(games // 2), "--concurrency", str(concurrency)]
    cmd += ["--openings", f"file={a.book}", "format=epd", "order=sequential"]
    cmd += ["--pgnout", os.path.join(work, "games.pgn"), "--results", os.path.join(work, "r.json")]
    cmd += ["--max-consecutive-faults", "0", "--recover"]
    return cmd


def fastchess_cmd(a, engine, args, work, concurrency, games):
    cmd = [a.fastchess]
    for name in ("a", "b"):
        cmd += ["-engine", f"cmd={engine}", f"name={name}"]
        if args:
            cmd += [f'args={" ".join(args)}']
    cmd += ["-each", f"tc={a.tc}", "proto=uci", "-rounds", str(games // 2), "-games", "2", "-repeat"]
    cmd += ["-concurrency", str(concurrency), "-recover"]
    if concurrency > (os.cpu_count() or 1):
        cmd += ["-force-concurrency"]  # fastchess refuses more games than cores without it
    cmd += ["-openings", f"file={a.book}", "format=epd", "order=sequential"]
    cmd += ["-pgnout", f"file={os.path.join(work, 'games.pgn')}"]
    return cmd


def one_run(a, runner, engine, args, concurrency, games, stamp):
    work = tempfile.mkdtemp(prefix=f"runner-bench-{runner}-")
    try:
        if stamp:
            args = args + ["--stamp", os.path.join(work, "stamps.txt")]
        build = harness_cmd if runner == "harness" else fastchess_cmd
        r = run_runner(build(a, engine, args, work, concurrency, games), work, "out.txt")
        n, losses, plies = pgn_figures(os.path.join(work, "games.pgn"))
        r.update(games=n, time_losses=losses, plies=plies)
        r["latency"] = latencies(os.path.join(work, "stamps.txt")) if stamp else []
        if r["code"] != 0 or n == 0:
            tail = open(os.path.join(work, "out.txt"), errors="replace").read()[-2000:]
            print(f"  {runner} exited {r['code']} with {n} games; its last output:\n{tail}")
        return r
    finally:
        shutil.rmtree(work, ignore_errors=True)


def show(runner, c, r):
    n = max(r["games"], 1)
    lat = r["latency"]
    lat_text = (
        f" latency p50 {percentile(lat, 0.5):.3f} ms p99 {percentile(lat, 0.99):.3f} ms"
        f" ({len(lat)} moves)"
        if lat
        else ""
    )
    print(
        f"  {runner:9} c={c:<3} games {r['games']:4} in {r['wall']:6.1f} s "
        f"({60 * r['games'] / r['wall']:6.1f}/min), runner CPU {1000 * r['cpu'] / n:7.2f} ms/game "
        f"({1000 * r['cpu'] / max(r['plies'] * n, 1):.3f} ms/ply), engines {r['engine_cpu']:.1f} s, "
        f"plies/game {r['plies']:.0f}, time losses {r['time_losses']}, threads {r['threads']}, "
        f"fds {r['fds']}, RSS {r['rss'] / 1024:.1f} MiB, zombies {r['zombies']}{lat_text}",
        flush=True,
    )


def find_fastchess(a):
    for c in (a.fastchess, os.environ.get("FASTCHESS"), shutil.which("fastchess")):
        if c and os.access(c, os.X_OK):
            return c
    return None


def faulty_engine():
    return os.path.join(ROOT, "target", "release", "faulty-engine")


def compare(a):
    a.fastchess = find_fastchess(a)
    runners = ["harness"] + (["fastchess"] if a.fastchess else [])
    if not a.fastchess:
        print("fastchess not found (no --fastchess, $FASTCHESS or fastchess on PATH): "
              "measuring the harness alone, no ratio")
    engine, args = (faulty_engine(), ["--move-ms", "0"]) if a.probe else (a.engine, [])
    results = {r: [] for r in runners}
    for rep in range(a.reps):
        order = runners if rep % 2 == 0 else runners[::-1]
        for runner in order:
            r = one_run(a, runner, engine, args, a.concurrency, a.games, a.probe)
            results[runner].append(r)
            show(runner, a.concurrency, r)
    print(f"\nmedians over {a.reps} runs (tc {a.tc}, concurrency {a.concurrency}, {a.games} games):")
    med = {}
    for runner, rs in results.items():
        per_game = [r["cpu"] / max(r["games"], 1) * 1000 for r in rs]
        gpm = [60 * r["games"] / r["wall"] for r in rs]
        lat = [x for r in rs for x in r["latency"]]
        med[runner] = (statistics.median(per_game), statistics.median(gpm))
        extra = (f", latency p50 {percentile(lat, 0.5):.3f} ms p99 {percentile(lat, 0.99):.3f} ms"
                 if lat else "")
        print(f"  {runner:9} runner CPU {med[runner][0]:.2f} ms/game, {med[runner][1]:.1f} games/min, "
              f"time losses {sum(r['time_losses'] for r in rs)}{extra}")
    if "fastchess" in med:
        h, f = med["harness"], med["fastchess"]
        if f[0] > 0 and f[1] > 0:
            print(f"  ratio harness/fastchess: CPU per game {h[0] / f[0]:.2f}, games per minute "
                  f"{h[1] / f[1]:.2f}")
        else:
            print("  no ratio: fastchess played no games (its output is above)")


def scale(a):
    engine, args = (faulty_engine(), ["--move-ms", str(a.move_ms)])
    print(f"the harness alone, the fast faulty engine (--move-ms {a.move_ms}), tc {a.tc}, "
          f"{a.games} games per run")
    rows = []
    for c in a.concurrency_list:
        per_game, rs = [], []
        for _ in range(a.reps):
            r = one_run(a, "harness", engine, args, c, a.games, a.probe)
            show("harness", c, r)
            per_game.append(1000 * r["cpu"] / max(r["games"], 1))
            rs.append(r)
        rows.append((c, statistics.median(per_game), rs))
    base = rows[0][1]
    print("\nconcurrency, runner CPU ms/game (median), vs the first, peak threads, peak fds, "
          "peak RSS MiB, zombies, processes left")
    for c, cpu, rs in rows:
        print(f"  {c:3}  {cpu:7.2f}  x{cpu / base:.2f}  {max(r['threads'] for r in rs):4}  "
              f"{max(r['fds'] for r in rs):4}  {max(r['rss'] for r in rs) / 1024:7.1f}  "
              f"{max(r['zombies'] for r in rs)}  {max(r['left_behind'] for r in rs)}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["compare", "scale"])
    p.add_argument("--harness", default=os.path.join(ROOT, "target", "release", "harness"))
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "sable"))
    p.add_argument("--fastchess")
    p.add_argument("--book", default=os.path.join(ROOT, "suites", "openings.epd"))
    p.add_argument("--tc", default=None)
    p.add_argument("--games", type=int, default=None)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--concurrency", default=None)
    p.add_argument("--move-ms", type=int, default=0)
    p.add_argument("--probe", action="store_true",
                   help="play the faulty engine with time stamps and report the latency")
    a = p.parse_args()
    for path in (a.harness, a.book):
        if not os.path.exists(path):
            sys.exit(f"{path} not found (cargo build --release first)")
    if a.mode == "compare":
        a.tc = a.tc or "1+0.01"
        a.games = a.games or 40
        a.concurrency = int(a.concurrency or 2)
        compare(a)
    else:
        a.tc = a.tc or "10+0.1"
        a.games = a.games or 256
        a.concurrency_list = [int(c) for c in (a.concurrency or "2,8,32,64").split(",")]
        scale(a)


if __name__ == "__main__":
    main()
