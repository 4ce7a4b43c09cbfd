//! Appending, deduplicating writer of labelled positions (CSV `fen,result,score`), shared by
//! `datagen` and `extract`. Opening an existing file reads it back first, so a restarted run
//! continues where it stopped and never writes a position twice.

use crate::tune::dataset::{self, Record};
use anyhow::Context;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;

/// The deduplication key: board, side to move, castling and en passant (no move counters).
pub fn key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// Writer that appends new positions and drops repeats.
pub struct LabelWriter {
    out: BufWriter<File>,
    seen: HashSet<u64>,
    /// Positions in the file (including those there before opening).
    pub count: usize,
}

fn hash_key(fen: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key(fen).hash(&mut h);
    h.finish()
}

impl LabelWriter {
    /// Opens `path` for appending, loading the keys of the positions already there.
    pub fn open(path: &Path) -> anyhow::Result<LabelWriter> {
        let mut seen = HashSet::new();
        let mut count = 0;
        if path.exists() {
            // a half-written last line from a killed run is skipped, not fatal
            let old = dataset::read_file(path, true)?;
            for r in &old.records {
                seen.insert(hash_key(&r.fen));
            }
            count = old.records.len();
            let text = std::fs::read(path)?;
            if text.last().is_some_and(|&b| b != b'\n') {
                // terminate the partial line so the next record starts on its own line
                OpenOptions::new()
                    .append(true)
                    .open(path)?
                    .write_all(b"\n")?;
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(LabelWriter {
            out: BufWriter::new(file),
            seen,
            count,
        })
    }

    /// Writes `r` unless its position was written before; returns whether it was new.
    pub fn write(&mut self, r: &Record) -> std::io::Result<bool> {
        if !self.seen.insert(hash_key(&r.fen)) {
            return Ok(false);
        }
        writeln!(self.out, "{}", dataset::to_csv_line(r))?;
        self.count += 1;
        Ok(true)
    }

    /// Flushes buffered lines to the file.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_dedups_and_resumes() {
        let dir = crate::test_dir("labels");
        let p = dir.join("d.csv");
        let a = Record {
            fen: "8/8/8/8/8/8/4k3/4K3 w - - 0 1".into(),
            result: 0.5,
            score: Some(0),
        };
        let b = Record {
            fen: "8/8/8/8/8/8/4k3/4K3 b - - 3 9".into(),
            result: 0.5,
            score: None,
        };
        let mut w = LabelWriter::open(&p).unwrap();
        assert!(w.write(&a).unwrap());
        assert!(!w
            .write(&Record {
                fen: "8/8/8/8/8/8/4k3/4K3 w - - 7 40".into(),
                ..a.clone()
            })
            .unwrap());
        w.flush().unwrap();
        drop(w);
        // a killed run leaves half a line
        std::fs::write(
            &p,
            std::fs::read_to_string(&p).unwrap() + "8/8/8/8/8/8/4k3/4K",
        )
        .unwrap();
        let mut w = LabelWriter::open(&p).unwrap();
        assert_eq!(w.count, 1);
        assert!(!w.write(&a).unwrap());
        assert!(w.write(&b).unwrap());
        w.flush().unwrap();
        let back = dataset::read_file(&p, true).unwrap();
        assert_eq!((back.records, back.skipped), (vec![a, b], 1));
        std::fs::remove_dir_all(&dir).ok();
    }
}
