//! `harness tune --cache`: the binary dataset cache is built once, then memory-mapped; tuning
//! from it gives the weights tuning from the text gives; a truncated, damaged, foreign or stale
//! cache is refused with its reason and rebuilt, never used.

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tune-cache-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first `n` positions of the shipped sample, as a file of their own.
fn data(dir: &Path, n: usize) -> PathBuf {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/sample.csv")).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fen,"))
        .take(n)
        .collect();
    let p = dir.join("data.csv");
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

/// Tunes (20 epochs, one thread, so the sums are in a fixed order) and returns
/// (stderr + stdout, the weights file's text).
fn tune(data: &Path, cache: Option<&Path>, out: &Path, extra: &[&str]) -> (String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_harness"));
    c.arg("tune")
        .arg(data)
        .args([
            "--epochs",
            "20",
            "--threads",
            "1",
            "--k",
            "1.2",
            "--lr",
            "2",
            "--force", // each call rewrites `out` on purpose
            "--out",
        ])
        .arg(out)
        .args(extra);
    if let Some(p) = cache {
        c.arg("--cache").arg(p);
    }
    let o = c.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(o.status.success(), "{text}");
    (text, std::fs::read_to_string(out).unwrap())
}

#[test]
fn the_cache_is_built_once_and_gives_the_weights_of_the_text() {
    let dir = temp_dir("same");
    let d = data(&dir, 4000);
    let cache = dir.join("data.cache");
    let (_, from_text) = tune(&d, None, &dir.join("a.json"), &[]);
    let (log, built) = tune(&d, Some(&cache), &dir.join("b.json"), &[]);
    assert!(log.contains("no cache yet; building it"), "{log}");
    let (log, mapped) = tune(&d, Some(&cache), &dir.join("c.json"), &[]);
    assert!(log.contains("cache of 3600 + 400 positions"), "{log}");
    assert!(
        log.contains("memory-mapped") && !log.contains("building"),
        "{log}"
    );
    assert_eq!(
        built, from_text,
        "tuning from the fresh cache differs from the text"
    );
    assert_eq!(
        mapped, from_text,
        "tuning from the mapped cache differs from the text"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_truncated_damaged_foreign_or_stale_cache_is_refused_and_rebuilt() {
    let dir = temp_dir("refused");
    let d = data(&dir, 3000);
    let cache = dir.join("data.cache");
    let out = dir.join("w.json");
    let (_, want) = tune(&d, Some(&cache), &out, &[]);
    let good = std::fs::read(&cache).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() - 7].to_vec()),
        ("truncated", good[..40].to_vec()),
        ("checksum mismatch", {
            let mut b = good.clone();
            let at = b.len() - 100;
            b[at] ^= 0x10;
            b
        }),
        (
            "not a Sable tuning cache",
            std::fs::read(&d).unwrap(), // a text file where the cache should be
        ),
        ("format version 7", {
            let mut b = good.clone();
            b[8] = 7;
            b
        }),
    ];
    for (why, bytes) in cases {
        std::fs::write(&cache, &bytes).unwrap();
        let (log, got) = tune(&d, Some(&cache), &out, &[]);
        assert!(log.contains(&format!("refused ({why}")), "{why}: {log}");
        assert!(log.contains("rebuilding it"), "{why}: {log}");
        assert_eq!(got, want, "{why}: weights differ after the rebuild");
        assert_eq!(std::fs::read(&cache).unwrap(), good, "{why}: not rebuilt");
    }
    // other options make other records: the cache is stale, and the new one is used
    let (log, _) = tune(&d, Some(&cache), &out, &["--valid", "0.2"]);
    assert!(log.contains("refused (stale: made from `options"), "{log}");
    assert!(log.contains("2400 training + 600 validation"), "{log}");
    // the text changed (one position fewer): stale again, and the weights follow the new text
    let text = std::fs::read_to_string(&d).unwrap();
    let fewer: Vec<&str> = text.lines().skip(1).collect();
    std::fs::write(&d, fewer.join("\n") + "\n").unwrap();
    let (log, got) = tune(&d, Some(&cache), &out, &[]);
    assert!(
        log.contains("refused (stale: made from `source.0 size="),
        "{log}"
    );
    let (_, plain) = tune(&d, None, &dir.join("plain.json"), &[]);
    assert_eq!(got, plain);
    assert!(log.contains("2699 training + 300 validation"), "{log}");
    std::fs::remove_dir_all(&dir).ok();
}
