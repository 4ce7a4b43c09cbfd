#!/usr/bin/env bash
# Sable on a real OpenBench instance, end to end, on 127.0.0.1 (issue 50; docs/openbench.md).
#
#   scripts/openbench/e2e.sh OPENBENCH_DIR [FASTCHESS_GIT]
#
# OPENBENCH_DIR is a copy of OpenBench's source, fetched by the developer (the project does not
# contain it); without one the script prints a skip line and exits 0, as CI has none.
# FASTCHESS_GIT (or $FASTCHESS_GIT) is a git repository of fastchess (bare or not): the client
# of test (a) downloads and builds fastchess from it, at its HEAD (or $FASTCHESS_REF).
# $SABLE_BOOK is the book (default /work/shared/data/books/8moves_v3.epd), $HARNESS the harness
# (default target/release/harness: `cargo build --release` first), $PORT the server's port.
# $OB_COMMIT names the OpenBench commit in the output when OPENBENCH_DIR is not a git checkout.
#
# Everything happens in a temporary folder: a copy of OpenBench, a venv with its requirements,
# a bare clone of this repository with two scratch commits, the stand-in for GitHub
# (github_standin.py), the server, and the client in its own PID namespace. The developer's
# OpenBench checkout and this repository's working tree are only read. Everything started is
# stopped on exit, by process id. Four tests, one line each at the end, exit 0 only if all hold:
#   (a) fixed games, fastchess built by the client: every game counted
#   (b) the same with the harness as the client's fastchess-ob: every game counted
#   (c) an SPRT of a planted weakening (the queen worth 1 cp) against HEAD: H0
#   (d) a commit whose `Bench:` line is wrong: stopped with the client's bench error
set -euo pipefail

OB=${1:-}
if [[ -z "$OB" || ! -f "$OB/manage.py" ]]; then
    echo "skipped: no OpenBench source given (scripts/openbench/e2e.sh OPENBENCH_DIR)"
    exit 0
fi
OB=$(cd "$OB" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
FASTCHESS_GIT=${2:-${FASTCHESS_GIT:-}}
SABLE_BOOK=${SABLE_BOOK:-/work/shared/data/books/8moves_v3.epd}
HARNESS=${HARNESS:-$ROOT/target/release/harness}
PORT=${PORT:-18723}
PROXY_PORT=${PROXY_PORT:-$((PORT + 1))}
SERVER=http://127.0.0.1:$PORT
USER_NAME=sable
USER_PASS=sable-e2e
REPO_NAME=sable-e2e/Sable   # the GitHub name the stand-in serves this repository under
REPO_URL=https://github.com/$REPO_NAME
PHASE_TIMEOUT=${PHASE_TIMEOUT:-1200}

die() { echo "e2e: FAIL: $*" >&2; exit 1; }  # on stderr: also seen from inside $(...)
step() { echo "e2e: $(date -u +%H:%M:%S) $*"; }

[[ -n "$FASTCHESS_GIT" ]] || die "no fastchess repository given (second argument or \$FASTCHESS_GIT)"
FASTCHESS_GIT=$(git -C "$FASTCHESS_GIT" rev-parse --absolute-git-dir 2>/dev/null) \
    || die "$FASTCHESS_GIT is not a git repository of fastchess"
FASTCHESS_REF=$(git --git-dir "$FASTCHESS_GIT" rev-parse --verify "${FASTCHESS_REF:-HEAD}^{commit}") \
    || die "no commit ${FASTCHESS_REF:-HEAD} in $FASTCHESS_GIT"
[[ -f "$SABLE_BOOK" ]] || die "no book at $SABLE_BOOK (set \$SABLE_BOOK to an .epd)"
[[ -x "$HARNESS" ]] || die "no harness at $HARNESS: run \`cargo build --release\` (or set \$HARNESS)"
command -v unshare >/dev/null || die "unshare (util-linux) is needed to give the client its own PID namespace"
unshare --pid --fork --mount-proc true 2>/dev/null \
    || die "\`unshare --pid --fork --mount-proc\` is refused here (it needs root or user namespaces); the client kills by process name and must not run outside one"

WORK=$(mktemp -d /tmp/sable-ob-e2e.XXXXXX)
PIDS=()
CLIENT_PID=
stop_client() {
    # unshare ignores SIGTERM while it waits for its child, so it gets SIGKILL; --kill-child
    # then kills the client, the namespace's first process, and with it every process in the
    # namespace (its builds, match runners and engines).
    [[ -n "$CLIENT_PID" ]] || return 0
    kill -KILL "$CLIENT_PID" 2>/dev/null || true
    wait "$CLIENT_PID" 2>/dev/null || true
    CLIENT_PID=
}
stop_all() {
    # Only what this script started, by process id.
    stop_client
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
step "working in $WORK"

# --- OpenBench, a copy: the developer's checkout is never written to ---------------------------
cp -r "$OB" "$WORK/OpenBench"
# A checkout names its commit; an exported copy (git archive) needs $OB_COMMIT to be named.
if [[ -e "$OB/.git" ]]; then OB_COMMIT=$(git -C "$OB" rev-parse HEAD); fi
OB_COMMIT=${OB_COMMIT:-unknown}
step "OpenBench $OB_COMMIT"
cd "$WORK/OpenBench"

step "venv with OpenBench's requirements and its client's"
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q -r requirements.txt -r Client/requirements.txt
PY="$WORK/venv/bin/python"

# --- This repository, a bare clone, with the commits the tests need -------------------------
step "bare clone of $ROOT, and the scratch commits"
git clone -q --bare "$ROOT" "$WORK/sable.git"
HEAD_SHA=$(git -C "$ROOT" rev-parse HEAD)
HEAD_BENCH=$(git -C "$ROOT" log -1 --format=%B HEAD | sed -n 's/^Bench: *\([0-9]*\) *$/\1/p' | tail -1)
[[ -n "$HEAD_BENCH" ]] || die "HEAD's commit message has no \`Bench: N\` line"
git clone -q "$WORK/sable.git" "$WORK/scratch"
G=(git -C "$WORK/scratch" -c user.name=sable-e2e -c user.email=e2e@sable.invalid)
"${G[@]}" checkout -q -b e2e-head "$HEAD_SHA"
"${G[@]}" push -q origin e2e-head
# (c) The queen worth 1 cp instead of ~880: the engine gives it away. Its own bench goes in
# its commit message, so only the result can fail the test, never the bench check.
"${G[@]}" checkout -q -b e2e-weak "$HEAD_SHA"
QUEEN='S::new( 886,  871),'
grep -qF "$QUEEN" "$WORK/scratch/engine/src/eval/defaults.rs" \
    || die "the queen's weight $QUEEN is not in engine/src/eval/defaults.rs; update the planted weakening"
sed -i "s/$QUEEN/S::new(   1,    1),/" "$WORK/scratch/engine/src/eval/defaults.rs"
(cd "$WORK/scratch/engine" && CARGO_NET_OFFLINE=true nice make -s EXE=sable-weak >"$WORK/weak-build.log" 2>&1) \
    || die "building the weakened engine failed (log: $WORK/weak-build.log)"
WEAK_BENCH=$("$WORK/scratch/engine/sable-weak" bench 2>&1 | tail -1 | awk '{print $1}')
rm -f "$WORK/scratch/engine/sable-weak"
"${G[@]}" commit -q -am "e2e: the queen worth 1 cp (a planted weakening)

Bench: $WEAK_BENCH"
"${G[@]}" push -q origin e2e-weak
# (d) HEAD's tree under a message whose bench is off by one.
"${G[@]}" checkout -q -b e2e-wrong-bench "$HEAD_SHA"
"${G[@]}" commit -q --allow-empty -m "e2e: a wrong Bench line

Bench: $((HEAD_BENCH + 1))"
"${G[@]}" push -q origin e2e-wrong-bench
step "HEAD ${HEAD_SHA:0:8} (Bench $HEAD_BENCH), e2e-weak (Bench $WEAK_BENCH), e2e-wrong-bench (Bench $((HEAD_BENCH + 1)))"

# --- The stand-in for GitHub --------------------------------------------------------------------
step "GitHub stand-in on 127.0.0.1:$PROXY_PORT (api.github.com and github.com only)"
"$PY" "$HERE/github_standin.py" --port "$PROXY_PORT" --ca-dir "$WORK/ca" \
    --repo "$REPO_NAME=$WORK/sable.git" --repo "Disservin/fastchess=$FASTCHESS_GIT" \
    >"$WORK/standin.out" 2>"$WORK/standin.log" &
PIDS+=($!)
for _ in $(seq 1 30); do grep -q ready "$WORK/standin.out" 2>/dev/null && break; sleep 1; done
grep -q ready "$WORK/standin.out" || die "the stand-in did not start (log: $WORK/standin.log)"
# Both the server and the client reach GitHub only through it; 127.0.0.1 is reached directly.
export HTTPS_PROXY=http://127.0.0.1:$PROXY_PORT HTTP_PROXY=http://127.0.0.1:$PROXY_PORT
export NO_PROXY=127.0.0.1,localhost REQUESTS_CA_BUNDLE=$WORK/ca/ca.pem

# --- The server ------------------------------------------------------------------------------------
step "registering Sable (scripts/openbench/Sable.json); fastchess from the stand-in; the book"
"$PY" "$HERE/configure_instance.py" --sable-json "$ROOT/scripts/openbench/Sable.json" \
    --source "$REPO_URL" \
    --fastchess-url https://github.com/Disservin/fastchess --fastchess-ref "$FASTCHESS_REF"
# Where the client keeps a downloaded book: it downloads nothing, and checks the copy's sha256
# against the server's Books/8moves_v3.epd.json (OpenBench's own, unchanged).
mkdir -p Client/Books && cp "$SABLE_BOOK" Client/Books/8moves_v3.epd

step "migrate, and a user whose profile is enabled"
# (OpenBench's PGN watcher thread complains on stderr until the tables exist: logged aside.)
"$PY" manage.py migrate -v 0 >"$WORK/migrate.log" 2>&1 || die "migrate failed (log: $WORK/migrate.log)"
"$PY" manage.py shell >>"$WORK/migrate.log" 2>&1 <<EOF
from django.contrib.auth.models import User
from OpenBench.models import Profile
user = User.objects.filter(username='$USER_NAME').first() or User.objects.create_user('$USER_NAME', password='$USER_PASS')
profile = Profile.objects.filter(user=user).first() or Profile(user=user)
profile.enabled = True
profile.approver = True
profile.save()
EOF

step "server on $SERVER"
"$PY" manage.py runserver "127.0.0.1:$PORT" --noreload >"$WORK/server.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 60); do curl -fsS "$SERVER/index/" >/dev/null 2>&1 && break; sleep 1; done
curl -fsS "$SERVER/index/" >/dev/null || die "the server did not answer (log: $WORK/server.log)"

create() {
    "$PY" "$HERE/create_test.py" --server "$SERVER" --user "$USER_NAME" --password "$USER_PASS" \
        --repo "$REPO_URL" --tc N=5000 "$@" || die "creating a test failed (server log: $WORK/server.log)"
}

# The real client, in its own PID namespace (it kills its match runner and engines with
# `pkill -f NAME`), started from its folder in the copy, with -T 2 (two games at a time).
start_client() {
    step "client (log: $WORK/$1.log)"
    (cd "$WORK/OpenBench/Client" && exec unshare --pid --fork --mount-proc --kill-child \
        env CARGO_NET_OFFLINE=true "$PY" client.py -U "$USER_NAME" -P "$USER_PASS" -S "$SERVER" \
        -T 2 -N 1 --no-client-downloads) >"$WORK/$1.log" 2>&1 &
    CLIENT_PID=$!
    PIDS+=("$CLIENT_PID")
}
wait_for() {
    # In the background, so that a signal to this script is handled at once, not after it.
    "$PY" "$HERE/check_tests.py" --server "$SERVER" --timeout "$PHASE_TIMEOUT" "$@" >/dev/null &
    wait $! || true
}

# --- Phase 1: no fastchess-ob in the client's folder, so it builds fastchess itself -------------
[[ -z "$(ls Client/Engines 2>/dev/null)" ]] || die "the client's Engines/ is not empty"
A=$(create --dev e2e-head --base e2e-head --games 8 --priority 3)
step "test (a) $A: 8 games, fastchess built by the client from $FASTCHESS_REF"
start_client client-fastchess
wait_for --expect "a:$A:games:8"
stop_client
grep -q "Finished building" "$WORK/client-fastchess.log" \
    || die "the client did not build fastchess (log: $WORK/client-fastchess.log)"

# --- Phase 2: the harness as the client's fastchess-ob --------------------------------------------
# A copy, not a link: the client chmods it, and the repository's target/ stays untouched.
cp "$HARNESS" Client/fastchess-ob
B=$(create --dev e2e-head --base e2e-head --games 8 --priority 3)
C=$(create --dev e2e-weak --base e2e-head --sprt "[0.00, 5.00]" --workload-size 4 --priority 2)
D=$(create --dev e2e-wrong-bench --base e2e-head --games 8 --priority 1)
step "tests (b) $B: 8 games; (c) $C: SPRT weak vs head; (d) $D: wrong bench; fastchess-ob says: $(Client/fastchess-ob --version 2>&1 | head -1)"
start_client client-harness
wait_for --expect "b:$B:games:8" --expect "c:$C:h0" --expect "d:$D:bench"
stop_client
grep -q "Found fastchess-ob" "$WORK/client-harness.log" \
    || die "the client did not take the harness as fastchess-ob (log: $WORK/client-harness.log)"

# --- The verdicts ------------------------------------------------------------------------------------
step "results (OpenBench $OB_COMMIT, Sable ${HEAD_SHA:0:8}):"
set +e
"$PY" "$HERE/check_tests.py" --server "$SERVER" --timeout 0 --expect "a:$A:games:8" \
    --expect "b:$B:games:8" --expect "c:$C:h0" --expect "d:$D:bench"
status=$?
set -e
if [[ $status -eq 0 ]]; then
    echo "e2e: PASS: all four tests ended as expected"
    [[ -n "${KEEP:-}" ]] || { cd /; stop_all; PIDS=(); rm -rf "$WORK"; }
else
    echo "e2e: FAIL: see the logs in $WORK (server.log, standin.log, client-*.log)"
fi
exit $status
