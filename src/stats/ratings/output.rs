//! The rating list as a table for the terminal and as CSV.

use super::{GroupFit, Model, RatingList};
use crate::stats::error::StatsError;
use std::fmt::Write as _;

/// Longest name shown in full in the LOS matrix's columns.
const COLUMN: usize = 9;

/// Largest list whose LOS matrix is printed in the table (it is always in CSV and JSON).
const MATRIX_MAX: usize = 12;

fn percent(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

/// The list, the groups' white advantage and draw rate, the notes and the LOS matrix.
pub fn table(list: &RatingList) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Ratings of {} from {} ({})",
        crate::report::plural(list.engines.len(), "engine"),
        crate::report::plural(list.games, "game"),
        list.model.words()
    );
    let _ = writeln!(out, "Error bars: {}", list.errors);
    let width = list
        .engines
        .iter()
        .map(|e| e.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    for (gi, g) in list.groups.iter().enumerate() {
        group_table(&mut out, list, gi, g, width);
    }
    for note in &list.notes {
        let _ = writeln!(out, "Note: {note}");
    }
    if (2..=MATRIX_MAX).contains(&list.engines.len()) {
        los_matrix(&mut out, list, width);
    }
    out
}

/// One group's rows (with its heading when there are several groups) and its anchor line.
fn group_table(out: &mut String, list: &RatingList, gi: usize, g: &GroupFit, width: usize) {
    if list.groups.len() > 1 {
        let _ = writeln!(
            out,
            "\nGroup {} ({})",
            gi + 1,
            crate::report::plural(g.engines, "engine")
        );
    }
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>7}  {:>7}",
        "rank", "name", "elo", "+/-", "games", "score", "draws"
    );
    for (rank, e) in list.engines.iter().filter(|e| e.group == gi).enumerate() {
        let error = e.error.map_or("-".to_owned(), |x| format!("{x:.1}"));
        let mark = if e.capped { " (infinite: capped)" } else { "" };
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>8.1}  {:>7}  {:>6}  {:>7}  {:>7}{mark}",
            rank + 1,
            e.name,
            e.rating,
            error,
            e.games,
            percent(e.points / e.games.max(1) as f64),
            percent(e.draws as f64 / e.games.max(1) as f64),
        );
    }
    if list.model == Model::Davidson {
        let _ = writeln!(
            out,
            "Anchor: {}; white advantage {:.1} +/- {:.1} Elo; draws between equal engines {} \
             (nu {:.3})",
            g.anchor,
            g.white_advantage[0],
            g.white_advantage[1],
            percent(g.draw_nu / (2.0 + g.draw_nu)),
            g.draw_nu
        );
    } else {
        let _ = writeln!(out, "Anchor: {}", g.anchor);
    }
}

/// The likelihood of superiority of every engine (row) over every other (column).
fn los_matrix(out: &mut String, list: &RatingList, width: usize) {
    let n = list.engines.len();
    let _ = writeln!(out, "\nLikelihood of superiority (row better than column):");
    let short = |s: &str| s.chars().take(COLUMN).collect::<String>();
    let _ = write!(out, "{:<width$}", "");
    for e in &list.engines {
        let _ = write!(out, "  {:>COLUMN$}", short(&e.name));
    }
    out.push('\n');
    for (i, e) in list.engines.iter().enumerate() {
        let _ = write!(out, "{:<width$}", e.name);
        for j in 0..n {
            let cell = list.los[i][j].map_or("-".to_owned(), percent);
            let _ = write!(out, "  {cell:>COLUMN$}");
        }
        out.push('\n');
    }
}

/// One row per engine: rank, name, rating, error, games, points, draws, group (from 0, as in the
/// JSON), capped, then
/// its LOS against every engine in list order (empty where not defined).
pub fn csv(list: &RatingList) -> Result<String, StatsError> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = [
        "rank", "name", "elo", "error", "games", "points", "draws", "group", "capped",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    header.extend(list.engines.iter().map(|e| format!("los {}", e.name)));
    w.write_record(&header)?;
    for (i, e) in list.engines.iter().enumerate() {
        let mut row = vec![
            (i + 1).to_string(),
            e.name.clone(),
            format!("{:.2}", e.rating),
            e.error.map_or(String::new(), |x| format!("{x:.2}")),
            e.games.to_string(),
            e.points.to_string(),
            e.draws.to_string(),
            // Its index in the JSON's `groups`, as the JSON's `group` gives it.
            e.group.to_string(),
            e.capped.to_string(),
        ];
        row.extend(
            list.los[i]
                .iter()
                .map(|l| l.map_or(String::new(), |x| format!("{x:.4}"))),
        );
        w.write_record(&row)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    // Every field is a `String` or a number: the bytes are UTF-8.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
