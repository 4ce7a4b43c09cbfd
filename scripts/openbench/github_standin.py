#!/usr/bin/env python3
"""A local stand-in for GitHub, for scripts/openbench/e2e.sh: an HTTPS proxy with its own CA.

OpenBench's server asks api.github.com for each commit of a new test (sha and message, to read
its `Bench:` line) and hands clients the commit's zipball URL; its client downloads fastchess
as `https://github.com/<owner>/<repo>/archive/<ref>.zip`. Offline, neither host answers. This
program is an HTTP proxy (give it to the server and the client as HTTPS_PROXY): it accepts a
CONNECT only to api.github.com:443 or github.com:443, answers inside the tunnel with a
certificate signed by a certificate authority it makes for this run (give its `ca.pem` as
REQUESTS_CA_BUNDLE), and refuses every other host and every plain-HTTP proxy request with 403,
so nothing leaves the machine. Its answers come from local bare git repositories:

  GET api.github.com/repos/O/R/commits/REF    {"sha", "commit": {"message"}}  (git rev-parse, log)
  GET api.github.com/repos/O/R/branches/B     {"name", "commit": {"sha", "commit": {"message"}}}
  GET api.github.com/repos/O/R/compare/A...B  {"ahead_by", "behind_by"}       (git rev-list)
  GET api.github.com/repos/O/R/zipball/REF    the tree as a zip with one top folder (git archive)
  GET github.com/O/R/archive/REF.zip          the same, as GitHub's archive link

Usage: github_standin.py --port N --ca-dir DIR --repo O/R=BARE_GIT_DIR [--repo ...]
It prints `ready <port>` on stdout once it listens, and logs one line per request on stderr.
"""

import argparse
import json
import os
import re
import ssl
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOSTS = ("api.github.com", "github.com")
REF = r"[A-Za-z0-9._/-]+"


def fail(msg):
    print(f"github_standin: error: {msg}", file=sys.stderr)
    sys.exit(2)


def make_certificates(ca_dir):
    """A CA for this run and a certificate for HOSTS signed by it; returns (cert, key) paths."""
    os.makedirs(ca_dir, exist_ok=True)
    path = lambda name: os.path.join(ca_dir, name)
    ext = path("leaf.ext")
    with open(ext, "w") as f:
        # What Python's strict X.509 checks ask of a server certificate.
        f.write("subjectAltName=" + ",".join(f"DNS:{h}" for h in HOSTS) + "\n"
                "basicConstraints=critical,CA:FALSE\n"
                "keyUsage=critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\n"
                "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid,issuer\n")
    steps = [
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=Sable e2e stand-in CA", "-keyout", path("ca.key"), "-out", path("ca.pem"),
         "-addext", "basicConstraints=critical,CA:TRUE",
         "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
        ["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=api.github.com",
         "-keyout", path("leaf.key"), "-out", path("leaf.csr")],
        ["openssl", "x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"),
         "-CAkey", path("ca.key"), "-CAcreateserial", "-days", "2", "-extfile", ext,
         "-out", path("leaf.pem")],
    ]
    for cmd in steps:
        try:
            done = subprocess.run(cmd, capture_output=True, check=False)
        except FileNotFoundError:
            fail("openssl is not installed; it makes the stand-in's certificate authority")
        if done.returncode != 0:
            fail(f"`{' '.join(cmd[:3])} ...` failed: {done.stderr.decode(errors='replace')}")
    return path("leaf.pem"), path("leaf.key")


class Repos:
    """The bare repositories served, by `owner/name` (GitHub matches names case-insensitively)."""

    def __init__(self, specs):
        self.by_name = {}
        for spec in specs:
            name, sep, git_dir = spec.partition("=")
            if not sep or name.count("/") != 1 or not os.path.isdir(git_dir):
                fail(f"--repo {spec!r}: expected OWNER/NAME=PATH_TO_A_GIT_DIR")
            self.by_name[name.lower()] = os.path.abspath(git_dir)

    def git(self, repo, *args):
        done = subprocess.run(["git", "--git-dir", self.by_name[repo], *args],
                              capture_output=True, check=False)
        return done.stdout if done.returncode == 0 else None

    def commit(self, repo, ref):
        """(sha, message) of `ref`, or None when it names no commit."""
        if ref.startswith("-"):
            return None
        sha = self.git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
        if sha is None:
            return None
        sha = sha.decode().strip()
        return sha, self.git(repo, "log", "-1", "--format=%B", sha).decode()

    def zip(self, repo, sha):
        owner, name = repo.split("/")
        prefix = f"{owner}-{name}-{sha[:7]}/"
        return self.git(repo, "archive", "--format=zip", f"--prefix={prefix}", sha)


class Handler(BaseHTTPRequestHandler):
    """One connection: a CONNECT to open a tunnel, or (inside one) a GitHub request."""

    protocol_version = "HTTP/1.1"
    tunnel_host = None  # set on the handler that serves inside a tunnel

    def log_message(self, fmt, *args):
        print(f"github_standin: {self.tunnel_host or 'proxy'} {fmt % args}", file=sys.stderr)

    def refuse(self, why):
        self.send_error(403, why)
        self.close_connection = True

    def do_CONNECT(self):
        host, _, port = self.path.partition(":")
        if self.tunnel_host or host.lower() not in HOSTS or port != "443":
            return self.refuse(f"the stand-in answers only {' and '.join(HOSTS)} on 443")
        self.send_response(200, "Connection established")
        self.end_headers()
        self.wfile.flush()
        try:
            tls = self.server.tls.wrap_socket(self.connection, server_side=True)
        except (ssl.SSLError, OSError) as err:
            self.log_message("TLS handshake with the client failed: %s", err)
            self.close_connection = True
            return
        inner = type("Tunnel", (Handler,), {"tunnel_host": host.lower()})
        inner(tls, self.client_address, self.server)
        self.close_connection = True

    def do_GET(self):
        if not self.tunnel_host:
            return self.refuse("plain-HTTP proxying is refused; only CONNECT to GitHub")
        path = self.path.split("?")[0].rstrip("/")
        if self.tunnel_host == "api.github.com":
            return self.api(path)
        m = re.fullmatch(rf"/([^/]+/[^/]+)/archive/({REF})\.zip", path)
        if not m:
            return self.not_found(f"github.com serves only /O/R/archive/REF.zip, not {path}")
        self.send_zip(m.group(1).lower(), m.group(2))

    do_POST = do_PUT = do_DELETE = do_HEAD = lambda self: self.refuse("read-only stand-in")

    def api(self, path):
        m = re.fullmatch(rf"/repos/([^/]+/[^/]+)/(commits|branches|compare|zipball)/({REF})", path)
        if not m:
            return self.not_found(f"no such endpoint in the stand-in: {path}")
        repo, kind, arg = m.group(1).lower(), m.group(2), m.group(3)
        if repo not in self.server.repos.by_name:
            return self.not_found(f"repository {repo} is not served")
        repos = self.server.repos
        if kind == "zipball":
            return self.send_zip(repo, arg)
        if kind == "compare":
            a, _, b = arg.partition("...")
            ca, cb = repos.commit(repo, a), repos.commit(repo, b)
            if not ca or not cb:
                return self.not_found(f"cannot compare {arg}")
            count = lambda x, y: int(repos.git(repo, "rev-list", "--count", f"{x}..{y}") or 0)
            return self.send_json({"ahead_by": count(ca[0], cb[0]),
                                   "behind_by": count(cb[0], ca[0])})
        found = repos.commit(repo, ("refs/heads/" + arg) if kind == "branches" else arg)
        if not found:
            return self.not_found(f"{arg} is not a {kind[:-1]} of {repo}")
        commit = {"sha": found[0], "commit": {"message": found[1]}}
        self.send_json({"name": arg, "commit": commit} if kind == "branches" else commit)

    def send_zip(self, repo, ref):
        found = self.server.repos.commit(repo, ref) if repo in self.server.repos.by_name else None
        data = found and self.server.repos.zip(repo, found[0])
        if not data:
            return self.not_found(f"no commit {ref} in {repo}")
        self.send_body(200, "application/zip", data)

    def not_found(self, why):
        self.log_message("404: %s", why)
        self.send_body(404, "application/json", json.dumps({"message": "Not Found"}).encode())

    def send_json(self, obj):
        self.send_body(200, "application/json", json.dumps(obj).encode())

    def send_body(self, code, ctype, data):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--ca-dir", required=True)
    p.add_argument("--repo", action="append", default=[], required=True)
    args = p.parse_args()
    cert, key = make_certificates(args.ca_dir)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.repos = Repos(args.repo)
    server.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.tls.load_cert_chain(cert, key)
    print(f"ready {args.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
