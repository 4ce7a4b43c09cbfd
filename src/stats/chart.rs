//! The picture at the end of an SPRT: the LLR path against its bounds, and the Elo estimate
//! with its 95 % band, both over games played.

use std::path::Path;

use super::interim::SprtPoint;
use super::sprt::{Model, Sprt};
use crate::report::plot::{write_svg, LineChart};

/// Most points drawn per line: longer histories are thinned evenly (the last point is kept).
pub const MAX_CHART_POINTS: usize = 1000;

/// The two charts (LLR on top, Elo below) for an SPRT history. The Elo chart leaves out the
/// first 2 % of the games, whose estimates are too noisy to show on the same scale.
pub fn sprt_charts(history: &[SprtPoint], sprt: &Sprt, title: &str) -> [LineChart; 2] {
    let points = thin(history, MAX_CHART_POINTS);
    let x = |p: &SprtPoint| p.games as f64;
    let bounds = sprt.bounds;
    let llr = LineChart::new(
        &format!(
            "{title}: LLR, SPRT [{:.2}, {:.2}] ({} model)",
            sprt.elo0, sprt.elo1, sprt.model
        ),
        "games",
        "LLR",
    )
    .series("LLR", points.iter().map(|p| (x(p), p.llr)).collect())
    .ref_line(bounds.upper, &format!("accept H1 ({:.2})", bounds.upper))
    .ref_line(bounds.lower, &format!("accept H0 ({:.2})", bounds.lower));
    // The first games' estimates are wild and would flatten the rest of the curve.
    let last_games = history.last().map_or(0, |p| p.games);
    let settled = || points.iter().filter(|p| p.games * 50 >= last_games);
    let mut elo = LineChart::new(&format!("{title}: Elo estimate"), "games", "Elo")
        .band(
            "95 % interval",
            settled()
                .map(|p| (x(p), p.elo - p.elo_error, p.elo + p.elo_error))
                .collect(),
        )
        .series("Elo", settled().map(|p| (x(p), p.elo)).collect())
        .ref_line(0.0, "0");
    // Logistic bounds are on the same scale as the plotted Elo; nElo bounds are not.
    if sprt.model == Model::Logistic {
        elo = elo
            .ref_line(sprt.elo0, &format!("elo0 = {:.2}", sprt.elo0))
            .ref_line(sprt.elo1, &format!("elo1 = {:.2}", sprt.elo1));
    }
    [llr, elo]
}

/// Writes the SPRT picture (see [`sprt_charts`]) as one SVG file.
pub fn sprt_chart(
    history: &[SprtPoint],
    sprt: &Sprt,
    title: &str,
    path: impl AsRef<Path>,
) -> Result<(), crate::report::plot::ChartError> {
    write_svg(&sprt_charts(history, sprt, title), path)
}

/// At most `max` points of `history`, evenly spaced, first and last included (a `max` below 2
/// cannot hold both ends: the history is kept whole).
fn thin(history: &[SprtPoint], max: usize) -> Vec<SprtPoint> {
    let n = history.len();
    if n <= max || max < 2 {
        return history.to_vec();
    }
    (0..max).map(|i| history[i * (n - 1) / (max - 1)]).collect()
}

#[cfg(test)]
mod tests {
    use super::super::counts::{GameResult, PairTracker};
    use super::super::interim::InterimReport;
    use super::*;

    /// A deterministic SPRT history where engine 1 scores a little better than even.
    pub(crate) fn history(pairs: u64, sprt: &Sprt) -> Vec<SprtPoint> {
        let mut t = PairTracker::new();
        let mut out = Vec::new();
        let results = [
            GameResult::Win,
            GameResult::Draw,
            GameResult::Draw,
            GameResult::Loss,
            GameResult::Win,
            GameResult::Draw,
            GameResult::Win,
        ];
        for id in 0..pairs {
            t.add(id, results[(id % 7) as usize]);
            t.add(id, results[((id * 3 + 1) % 7) as usize]);
            let report = InterimReport {
                engine: "a",
                opponent: "b",
                conditions: "",
                tracker: &t,
                paired: true,
                sprt: Some(sprt),
            };
            out.push(SprtPoint::from_report(&report));
        }
        out
    }

    #[test]
    fn chart_has_both_panels_bounds_and_thinned_paths() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Logistic).unwrap();
        let h = history(1500, &sprt);
        let [llr, elo] = sprt_charts(&h, &sprt, "dev vs base");
        assert_eq!(llr.series[0].points.len(), MAX_CHART_POINTS);
        assert_eq!(llr.series[0].points.last(), Some(&(3000.0, h[1499].llr)));
        // Thinned to 1000 points of which the first 2 % of games are left out of the Elo chart.
        assert_eq!(elo.bands[0].points.len(), 980);
        assert_eq!(elo.series[0].points.len(), 980);
        assert_eq!(elo.ref_lines.len(), 3);
        // The band is the estimate plus and minus its error bar, point by point.
        let (last, band) = (&h[1499], elo.bands[0].points[979]);
        assert_eq!(
            band,
            (3000.0, last.elo - last.elo_error, last.elo + last.elo_error)
        );
        assert!(last.elo_error > 0.0);
        let path = std::env::temp_dir().join(format!("sable-sprt-{}.svg", std::process::id()));
        sprt_chart(&h, &sprt, "dev vs base", &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<polygon").count(), 1);
        for text in [
            "accept H1 (2.94)",
            "accept H0 (-2.94)",
            "elo1 = 5.00",
            ">games<",
        ] {
            assert!(svg.contains(text), "{text}");
        }
    }

    #[test]
    fn short_and_empty_histories_render() {
        let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap();
        let [llr, elo] = sprt_charts(&[], &sprt, "t");
        assert!(llr.series[0].points.is_empty() && elo.ref_lines.len() == 1);
        let h = history(3, &sprt);
        let [llr, _] = sprt_charts(&h, &sprt, "t");
        assert_eq!(llr.series[0].points.len(), 3);
    }

    #[test]
    fn thinning_keeps_both_ends_evenly_spaced() {
        let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, Model::Normalized).unwrap();
        let h = history(10, &sprt);
        let games = |points: Vec<SprtPoint>| points.iter().map(|p| p.games).collect::<Vec<_>>();
        // Pair i ends at game 2 (i + 1); picks i * 9 / (max - 1).
        assert_eq!(games(thin(&h, 2)), [2, 20]);
        assert_eq!(games(thin(&h, 4)), [2, 8, 14, 20]);
        assert_eq!(games(thin(&h, 10)), games(h.clone()));
        assert_eq!(games(thin(&h, 1)), games(h.clone()));
        assert_eq!(games(thin(&h, 0)), games(h));
    }

    /// A deterministic pseudo-random stream in [0, 1) (the project's one generator), so the test
    /// is repeatable.
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut rng = sable::rng::Rng::from_seed(seed);
        move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn simulated_sprt_of_a_stronger_engine_accepts_h1() {
        // W 30 %, L 28 %, D 42 %: about +7 Elo, +9 nElo, above elo1 = 5 nElo.
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        let mut rnd = uniform(12345);
        let mut t = PairTracker::new();
        let mut h = Vec::new();
        let mut decision = super::super::sprt::Decision::Continue;
        for id in 0..50_000u64 {
            for _ in 0..2 {
                let u = rnd();
                let r = match u {
                    u if u < 0.30 => GameResult::Win,
                    u if u < 0.58 => GameResult::Loss,
                    _ => GameResult::Draw,
                };
                t.add(id, r);
            }
            let report = InterimReport {
                engine: "dev",
                opponent: "base",
                conditions: "",
                tracker: &t,
                paired: true,
                sprt: Some(&sprt),
            };
            h.push(SprtPoint::from_report(&report));
            decision = sprt.bounds.decide(h.last().unwrap().llr);
            if decision != super::super::sprt::Decision::Continue {
                break;
            }
        }
        assert_eq!(decision, super::super::sprt::Decision::AcceptH1);
        let last = h.last().unwrap();
        assert!(last.elo - last.elo_error > 0.0, "{last:?}");
        let path = std::env::temp_dir().join(format!("sable-sim-{}.svg", std::process::id()));
        sprt_chart(&h, &sprt, "dev vs base", &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(svg.contains("normalized model"));
        // Keep an example picture when asked (docs/stats.md shows one).
        if let Ok(out) = std::env::var("SABLE_SPRT_EXAMPLE_SVG") {
            std::fs::write(out, svg).unwrap();
        }
    }
}
