//! `scripts/openbench/e2e.sh` in CI, which has no OpenBench source: without one it prints its
//! skip line and exits 0, having started nothing. And its GitHub stand-in
//! (`scripts/openbench/github_standin.py`), which needs only python3, openssl and git: it
//! answers api.github.com from a bare repository through a CONNECT tunnel under its own
//! certificate authority, and refuses every other host. The run against a real instance is
//! recorded in docs/openbench.md.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

const SKIP: &str = "skipped: no OpenBench source given (scripts/openbench/e2e.sh OPENBENCH_DIR)";

fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/openbench/e2e.sh")
}

fn run_e2e(args: &[&str]) -> (i32, String, String) {
    let o = Command::new("bash")
        .arg(script())
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn without_an_openbench_source_it_prints_the_skip_line_and_exits_0() {
    let (code, out, err) = run_e2e(&[]);
    assert_eq!(code, 0, "stderr: {err}");
    assert_eq!(out, format!("{SKIP}\n"));
    assert!(err.is_empty(), "stderr: {err}");
}

#[test]
fn a_folder_that_is_not_openbench_is_skipped_too() {
    // Any folder without OpenBench's manage.py: here the tests' own.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let (code, out, _) = run_e2e(&[dir.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("{SKIP}\n"));
}

/// The client side of the stand-in test: urllib through the proxy, trusting only its CA.
const PROBE: &str = r"
import json, ssl, sys, urllib.request, urllib.error
port, ca, sha = sys.argv[1], sys.argv[2], sys.argv[3]
proxy = urllib.request.ProxyHandler({'https': f'http://127.0.0.1:{port}', 'http': f'http://127.0.0.1:{port}'})
tls = urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=ca))
open_ = urllib.request.build_opener(proxy, tls).open
def get(url):
    try:
        with open_(url, timeout=20) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, b''
    except (urllib.error.URLError, OSError) as e:
        return 'refused', str(e).encode()
code, body = get(f'https://api.github.com/repos/o/r/commits/{sha}')
print('commit', code, json.loads(body)['sha'] == sha, 'Bench: 4321' in json.loads(body)['commit']['message'])
code, body = get('https://api.github.com/repos/o/r/branches/main/')
print('branch', code, json.loads(body)['commit']['sha'] == sha)
code, body = get(f'https://api.github.com/repos/o/r/zipball/{sha}')
print('zipball', code, body[:2] == b'PK')
code, body = get('https://github.com/o/r/archive/main.zip/')
print('archive', code, body[:2] == b'PK')
print('unknown-repo', get('https://api.github.com/repos/x/y/commits/main')[0])
print('other-host', get('https://example.com/')[0])
print('plain-http', get('http://example.com/')[0])
";

#[test]
fn the_github_stand_in_answers_github_from_a_bare_repository_and_refuses_other_hosts() {
    let tools = ["python3", "openssl", "git"];
    if let Some(missing) = tools
        .iter()
        .find(|t| Command::new(t).arg("--version").output().is_err())
    {
        eprintln!("skipped: no {missing} for the GitHub stand-in");
        return;
    }
    let dir = std::env::temp_dir().join(format!("sable-standin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t.invalid"])
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "git {args:?}: {o:?}");
        String::from_utf8_lossy(&o.stdout).trim().to_owned()
    };
    git(&["init", "-q", "-b", "main", "work"]);
    std::fs::write(dir.join("work/README"), "hello\n").unwrap();
    let work = |args: &[&str]| git(&[&["-C", "work"], args].concat());
    work(&["add", "README"]);
    work(&["commit", "-q", "-m", "a commit\n\nBench: 4321"]);
    let sha = work(&["rev-parse", "HEAD"]);
    git(&["clone", "-q", "--bare", "work", "bare.git"]);

    let port = 20000 + (std::process::id() % 20000) as u16;
    let mut standin = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/openbench/github_standin.py"))
        .args(["--port", &port.to_string(), "--ca-dir"])
        .arg(dir.join("ca"))
        .arg("--repo")
        .arg(format!("o/r={}", dir.join("bare.git").display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut ready = String::new();
    BufReader::new(standin.stdout.take().unwrap())
        .read_line(&mut ready)
        .unwrap();
    let probe = Command::new("python3")
        .args(["-c", PROBE, &port.to_string()])
        .arg(dir.join("ca/ca.pem"))
        .arg(&sha)
        .env_remove("HTTPS_PROXY")
        .env_remove("https_proxy")
        .output()
        .unwrap();
    let _ = standin.kill();
    let _ = standin.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(ready.trim(), format!("ready {port}"));
    let out = String::from_utf8_lossy(&probe.stdout);
    let expected = "commit 200 True True\nbranch 200 True\nzipball 200 True\narchive 200 True\n\
                    unknown-repo 404\nother-host refused\nplain-http 403\n";
    assert_eq!(
        out,
        expected,
        "stderr: {}",
        String::from_utf8_lossy(&probe.stderr)
    );
}
