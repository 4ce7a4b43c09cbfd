//! The record of an SPSA run, one CSV row per iteration (`iteration,wins,losses,draws,` and
//! every parameter's value after the update): the run's output and its resume file.

use super::Param;
use super::SpsaError;
use std::io::Write;
use std::path::Path;

/// The header row: `iteration,wins,losses,draws,` and the parameters' names.
fn header(params: &[Param]) -> String {
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    format!("iteration,wins,losses,draws,{}", names.join(","))
}

/// Starts a run's file: the header only.
pub fn create(path: &Path, params: &[Param]) -> Result<(), SpsaError> {
    std::fs::write(path, format!("{}\n", header(params)))
        .map_err(SpsaError::io(format!("cannot write {}", path.display())))
}

/// Appends iteration `k`: its wins, losses and draws, and the values after its update.
pub fn append_row(path: &Path, k: u32, wld: [u64; 3], params: &[Param]) -> Result<(), SpsaError> {
    let values: Vec<String> = params.iter().map(|p| format!("{:.6}", p.value)).collect();
    let line = format!(
        "{k},{},{},{},{}\n",
        wld[0],
        wld[1],
        wld[2],
        values.join(",")
    );
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(SpsaError::io(format!("cannot open {}", path.display())))?;
    f.write_all(line.as_bytes())
        .and_then(|_| f.flush())
        .map_err(SpsaError::io(format!("writing {}", path.display())))
}

/// Reads a run's CSV: the values after its last complete row, and that row's iteration. A row
/// cut short by a kill is ignored (that iteration is played again).
pub fn resume(path: &Path, params: &mut [Param]) -> Result<u32, SpsaError> {
    let text = std::fs::read_to_string(path)
        .map_err(SpsaError::io(format!("cannot read {}", path.display())))?;
    let mut lines = text.lines();
    let want = header(params);
    if lines.next() != Some(want.as_str()) {
        return Err(SpsaError::OtherParameters {
            path: path.to_owned(),
            header: want,
        });
    }
    let rows = text.lines().count() - 1;
    let mut done = 0;
    for (i, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        let complete = i + 1 < rows || text.ends_with('\n');
        let parsed: Option<Vec<f64>> = fields
            .iter()
            .skip(4)
            .map(|f| f.parse::<f64>().ok())
            .collect();
        match (fields.first().and_then(|f| f.parse::<u32>().ok()), parsed) {
            (Some(k), Some(values)) if values.len() == params.len() && k == done + 1 => {
                for (p, v) in params.iter_mut().zip(values) {
                    p.value = v;
                }
                done = k;
            }
            _ if !complete => break,
            _ => {
                return Err(SpsaError::BadRow {
                    path: path.to_owned(),
                    line: i + 2,
                    text: line.to_string(),
                })
            }
        }
    }
    Ok(done)
}

/// The values of every complete row with `n` values, by iteration, for the paths' picture
/// (nothing when the file cannot be read).
pub fn read_paths(path: &Path, n: usize) -> Vec<(u32, Vec<f64>)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let k = f.first()?.parse().ok()?;
            let v: Option<Vec<f64>> = f.iter().skip(4).map(|x| x.parse().ok()).collect();
            v.filter(|v| v.len() == n).map(|v| (k, v))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spsa::parse_input;

    fn params() -> Vec<Param> {
        parse_input("A, int, 80, 30, 200, 8, 0.002\nB, float, 0.5, 0, 1, 0.05, 0.002\n").unwrap()
    }

    #[test]
    fn the_csv_resumes_from_its_last_complete_row() {
        let path = std::env::temp_dir().join(format!("sable-spsa-{}.csv", std::process::id()));
        let mut ps = params();
        create(&path, &ps).unwrap();
        ps[0].value = 81.5;
        append_row(&path, 1, [2, 1, 5], &ps).unwrap();
        ps[0].value = 82.25;
        append_row(&path, 2, [1, 1, 6], &ps).unwrap();
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("3,1,0,7,83.0"); // killed while writing row 3
        std::fs::write(&path, &text).unwrap();
        let mut fresh = params();
        assert_eq!(resume(&path, &mut fresh).unwrap(), 2);
        assert_eq!(fresh[0].value, 82.25);
        assert_eq!(read_paths(&path, 2).len(), 2);
        // Other parameters: refused.
        let mut other = parse_input("C, int, 1, 0, 2, 1, 0.002\n").unwrap();
        assert!(resume(&path, &mut other)
            .unwrap_err()
            .to_string()
            .contains("other parameters"));
        std::fs::remove_file(&path).ok();
    }
}
