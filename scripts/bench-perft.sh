#!/usr/bin/env bash
# Perft speed: sable against Stockfish (`go perft N`, bulk counting too), single thread, on the
# start position (depth 6) and Kiwipete (depth 5); then `harness perft` on the built-in suite
# with 1 and 2 rayon threads. Medians of RUNS runs (default 5), taken side by side.
#
# Both wall-clock and user CPU time are reported: on a shared machine, wall time includes waiting
# for a core, so the CPU-time figures are the fairer single-thread comparison. Startup cost
# (Stockfish loading its network, our table set-up) is measured separately and subtracted.
#
# Usage: scripts/bench-perft.sh [RUNS]     (STOCKFISH=/path/to/stockfish to override)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
SF=${STOCKFISH:-/usr/games/stockfish}
cargo build --release --quiet --bins
SABLE=target/release/sable
HARNESS=target/release/harness
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Prints "WALL USER" seconds for one run of the command.
timed() {
    local TIMEFORMAT='%R %U'
    { time "$@" >/dev/null 2>&1; } 2>&1 | tail -1
}

sf_perft() { printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2" | "$SF"; }
sf_startup() { printf 'quit\n' | "$SF"; }

# measure NAME COMMAND...: RUNS runs, prints the medians "WALL USER".
measure() {
    local name=$1; shift
    local walls=() users=()
    for _ in $(seq "$RUNS"); do
        read -r w u < <(timed "$@")
        walls+=("$w"); users+=("$u")
    done
    echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${users[@]}" | median)"
}

have_sf=1
[[ -x "$SF" ]] || { echo "no stockfish at $SF: showing sable only"; have_sf=0; }

read -r sw0 su0 < <(measure "sable startup" "$SABLE" perft 1)
[[ $have_sf == 1 ]] && read -r fw0 fu0 < <(measure "stockfish startup" sf_startup)

report() { # name nodes wall user wall0 user0
    awk -v n="$1" -v nodes="$2" -v w="$3" -v u="$4" -v w0="$5" -v u0="$6" 'BEGIN {
        ww = w - w0; uu = u - u0; if (ww <= 0) ww = 1e-9; if (uu <= 0) uu = 1e-9;
        printf "%-28s %6.3f s wall %6.1f Mnps | %6.3f s cpu %6.1f Mnps\n", n, ww, nodes/ww/1e6, uu, nodes/uu/1e6 }'
}

echo "== single thread, medians of $RUNS runs (startup subtracted)"
declare -A cpu
for pos in start kiwi; do
    if [[ $pos == start ]]; then fen=$START; depth=6; nodes=119060324; else fen=$KIWI; depth=5; nodes=193690690; fi
    read -r w u < <(measure "sable $pos" "$SABLE" perft "$depth" "$fen")
    report "sable $pos perft $depth" "$nodes" "$w" "$u" "$sw0" "$su0"
    cpu[sable_$pos]=$(awk -v u="$u" -v u0="$su0" 'BEGIN{print u-u0}')
    if [[ $have_sf == 1 ]]; then
        read -r w u < <(measure "stockfish $pos" sf_perft "$fen" "$depth")
        report "stockfish $pos perft $depth" "$nodes" "$w" "$u" "$fw0" "$fu0"
        cpu[sf_$pos]=$(awk -v u="$u" -v u0="$fu0" 'BEGIN{print u-u0}')
        awk -v a="${cpu[sf_$pos]}" -v b="${cpu[sable_$pos]}" -v p="$pos" \
            'BEGIN { printf "  -> sable / stockfish speed (cpu time) on %s: %.2fx\n", p, a/b }'
    fi
done

echo "== harness perft (built-in suite), wall time, medians of $RUNS runs"
read -r w1 _ < <(measure "1 thread" env RAYON_NUM_THREADS=1 "$HARNESS" perft)
read -r w2 _ < <(measure "2 threads" env RAYON_NUM_THREADS=2 "$HARNESS" perft)
awk -v a="$w1" -v b="$w2" 'BEGIN { printf "1 thread %.3f s, 2 threads %.3f s: speed-up %.2fx\n", a, b, a/b }'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (a busy machine makes wall times noisy)"
