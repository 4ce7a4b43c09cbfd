#!/usr/bin/env bash
# Tuner speed benchmark: epoch time and positions/s per thread on 1 and 2 threads, full parameter
# set, on N training positions made by replicating the traces of the real positions in DATA
# (a synthetic set: the same positions repeated, so the memory pattern is realistic but not the
# cache behaviour of N distinct positions).
#   scripts/tune-bench.sh [DATA=data/sample.csv] [N=1000000] [EPOCHS=10]
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-data/sample.csv}
N=${2:-1000000}
EPOCHS=${3:-10}
cargo build --release --quiet
for T in 1 2; do
    echo "=== $T thread(s)"
    /usr/bin/time -f "peak RSS %M KB" ./target/release/harness tune "$DATA" --replicate "$N" \
        --valid 0 --k 1.0 --epochs "$EPOCHS" --threads "$T" --out /tmp/sable-bench-tuned.json 2>&1 \
        | grep -E "traced|replicated|epochs |cpu time|memory|peak RSS"
done
