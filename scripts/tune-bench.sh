#!/usr/bin/env bash
# Tuner speed benchmark: full-batch epochs with every weight on 1 and 2 threads, on N training
# positions made by replicating the traces of the real positions in DATA (a synthetic set: the
# same positions repeated, so the memory pattern is realistic but not the cache behaviour of N
# distinct positions). Prints, per binary and thread count, the median over RUNS runs of the
# positions per second per thread (wall clock), the positions per CPU-second, and the bytes per
# position the tool reports.
#
#   scripts/tune-bench.sh [DATA=data/sample.csv] [N=1000000] [EPOCHS=10] [RUNS=3]
#
# BASE=path/to/older/harness runs that binary too, alternating with this tree's in every run,
# so both see the same machine state (the machine is shared: compare the ratio, not the figures
# of different runs). THREADS="1 2" chooses the thread counts. NEW=path/to/harness measures that
# binary instead of building this tree's (a build made a moment ago, on a machine where a
# release build takes many minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-data/sample.csv}
N=${2:-1000000}
EPOCHS=${3:-10}
RUNS=${4:-3}
THREADS=${THREADS:-1 2}
NEW=${NEW:-}
if [ -z "$NEW" ]; then
    cargo build --release --quiet
    NEW=./target/release/harness
fi
BINS=("$NEW")
if [ -n "${BASE:-}" ]; then BINS=("$BASE" "$NEW"); fi
LOG=$(mktemp)
for R in $(seq "$RUNS"); do
    for T in $THREADS; do
        for B in "${BINS[@]}"; do
            out=$("$B" tune "$DATA" --replicate "$N" --valid 0 --k 1.0 --epochs "$EPOCHS" \
                --threads "$T" --out /tmp/sable-bench-tuned.json --force 2>&1)
            wall=$(sed -n 's/.*= \([0-9.]*\) M pos\/s\/thread.*/\1/p' <<<"$out")
            cpu=$(sed -n 's/.*(\([0-9.]*\) M pos per CPU-second.*/\1/p' <<<"$out")
            bytes=$(sed -n 's/^memory .*(\([0-9.]*\) bytes each).*/\1/p' <<<"$out")
            echo "run $R  $T thread(s)  $B: $wall M pos/s/thread, $cpu M pos/CPU-s, $bytes bytes/position"
            echo "$T $B $wall $cpu $bytes" >>"$LOG"
        done
    done
done
echo "=== medians over $RUNS runs ($N positions, $EPOCHS epochs)"
for T in $THREADS; do
    for B in "${BINS[@]}"; do
        med() { awk -v t="$T" -v b="$B" -v c="$1" '$1 == t && $2 == b { print $c }' "$LOG" |
            sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
        echo "$T thread(s)  $B: $(med 3) M pos/s/thread (wall), $(med 4) M pos/CPU-s, $(med 5) bytes/position"
    done
done
rm -f "$LOG"
