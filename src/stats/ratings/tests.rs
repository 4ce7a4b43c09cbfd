//! The rating fit against its model: exact expected counts give back the true parameters,
//! simulated tournaments (the project's one generator) give intervals that cover the truth at
//! their stated rate, and awkward input is said, not hidden.

use super::fit::{fit, Cell, Free};
use super::model::{probabilities, Wdl};
use super::*;
use sable::rng::Rng;

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("e{i}")).collect()
}

fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn draw_outcome(x: f64, elo: f64, nu: f64) -> Outcome {
    let [w, d, _] = probabilities(elo, nu);
    if x < w {
        Outcome::WhiteWins
    } else if x < w + d {
        Outcome::Draw
    } else {
        Outcome::BlackWins
    }
}

/// A round robin of colour-swapped pairs between engines of ratings `truth`, played from
/// Davidson's model with white advantage `adv` and draw parameter `nu`. With `shared`, one
/// random number decides both games of a pair, so they tend to go the same way for white, as
/// after an opening that favours one side: each game still follows the model exactly, but a
/// pair's two scores for one engine are anti-correlated.
fn tournament(
    rng: &mut Rng,
    truth: &[f64],
    pairs: usize,
    adv: f64,
    nu: f64,
    shared: bool,
) -> Vec<RatedGame> {
    let mut games = Vec::new();
    let mut key = 0;
    for a in 0..truth.len() {
        for b in a + 1..truth.len() {
            for _ in 0..pairs {
                let first = uniform(rng);
                for (w, bl) in [(a, b), (b, a)] {
                    let x = if shared || w == a {
                        first
                    } else {
                        uniform(rng)
                    };
                    let outcome = draw_outcome(x, truth[w] - truth[bl] + adv, nu);
                    games.push(RatedGame {
                        white: w,
                        black: bl,
                        outcome,
                        pair: Some(key),
                    });
                }
                key += 1;
            }
        }
    }
    games
}

fn rating_of(list: &RatingList, name: &str) -> EngineRating {
    list.engines
        .iter()
        .find(|e| e.name == name)
        .unwrap()
        .clone()
}

#[test]
fn expected_counts_give_back_the_true_parameters() {
    // The maximum likelihood of exactly expected counts is the truth: a check of the fit that
    // needs no second implementation.
    let truth = [0.0, 85.0, -40.0, 200.0];
    let (adv, nu) = (35.0, 0.8);
    let mut cells = Vec::new();
    for w in 0..4 {
        for b in 0..4 {
            if w != b {
                let [pw, pd, pl] = probabilities(truth[w] - truth[b] + adv, nu);
                let n = 1000.0;
                cells.push(Cell {
                    white: w,
                    black: b,
                    counts: Wdl {
                        w: n * pw,
                        d: n * pd,
                        l: n * pl,
                    },
                });
            }
        }
    }
    let f = fit(
        4,
        &cells,
        Free {
            model: Model::Davidson,
            advantage: true,
            draws: true,
        },
        None,
    )
    .unwrap();
    for (got, want) in f.ratings.iter().zip(truth) {
        assert!((got - want).abs() < 1e-6, "{:?}", f.ratings);
    }
    assert!((f.advantage.0 - adv).abs() < 1e-6);
    assert!((f.nu - nu).abs() < 1e-9);
}

/// Share of 95 % intervals that hold the true rating (mean anchored) over `trials`
/// tournaments, with the pair keys kept (sandwich) or dropped (inverse Fisher information).
fn coverage(seed: u64, trials: usize, shared: bool, keep_pairs: bool) -> f64 {
    let truth = [-150.0, -60.0, 0.0, 20.0, 80.0, 110.0];
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
    let mut rng = Rng::from_seed(seed);
    let (mut hit, mut all) = (0, 0);
    for _ in 0..trials {
        let mut games = tournament(&mut rng, &truth, 30, 30.0, 1.0, shared);
        if !keep_pairs {
            games.iter_mut().for_each(|g| g.pair = None);
        }
        let list = rate(&names(truth.len()), &games, Anchor::Mean, Model::Davidson);
        for (i, t) in truth.iter().enumerate() {
            let e = rating_of(&list, &format!("e{i}"));
            all += 1;
            hit += usize::from((e.rating - (t - mean)).abs() <= e.error.unwrap());
        }
    }
    hit as f64 / all as f64
}

#[test]
fn intervals_cover_the_truth_at_their_stated_rate() {
    // 6 engines, 15 pairings of 30 pairs: 900 games a tournament, 200 tournaments, 1200
    // intervals; a true rate of 95 % gives 93.7..96.3 % with 99 % probability if the
    // intervals were independent (they are not quite: the mean anchor ties them).
    let fisher = coverage(42, 200, false, false);
    errln!("independent games: coverage {fisher:.4} (inverse Fisher)");
    assert!(
        (0.925..=0.975).contains(&fisher),
        "inverse Fisher: {fisher}"
    );
    let pairs = coverage(43, 200, false, true);
    errln!("independent games: coverage {pairs:.4} (pairs, sandwich)");
    assert!((0.925..=0.975).contains(&pairs), "sandwich: {pairs}");
}

#[test]
fn with_correlated_pairs_only_the_pair_errors_keep_their_rate() {
    // A pair's two games cancel much of what the opening gives white, so games taken as
    // independent overstate the error (intervals too wide, coverage near 100 %), while the
    // pairs' sandwich keeps 95 %.
    let fisher = coverage(44, 200, true, false);
    let pairs = coverage(44, 200, true, true);
    errln!("correlated pairs: coverage {fisher:.4} (inverse Fisher), {pairs:.4} (pairs)");
    assert!(fisher > 0.975, "inverse Fisher: {fisher}");
    assert!((0.92..=0.975).contains(&pairs), "sandwich: {pairs}");
}

#[test]
fn an_engine_that_won_every_game_is_capped_and_said() {
    for model in [Model::Logistic, Model::Davidson] {
        capped_under(model);
    }
}

fn capped_under(model: Model) {
    let mut rng = Rng::from_seed(5);
    let mut games = tournament(&mut rng, &[0.0, 50.0, 100.0], 10, 20.0, 1.0, false);
    // Engine 3 beats everyone, always.
    for opp in 0..3 {
        for (w, b, o) in [(3, opp, Outcome::WhiteWins), (opp, 3, Outcome::BlackWins)] {
            for _ in 0..5 {
                games.push(RatedGame {
                    white: w,
                    black: b,
                    outcome: o,
                    pair: None,
                });
            }
        }
    }
    let list = rate(&names(4), &games, Anchor::Mean, model);
    let top = &list.engines[0];
    assert_eq!(top.name, "e3");
    assert!(top.capped && top.rating.is_finite() && top.error.unwrap().is_finite());
    assert!(top.rating > rating_of(&list, "e2").rating + 200.0);
    assert!(list.groups[0].prior);
    assert!(
        list.notes
            .iter()
            .any(|n| n.contains("e3 won all its 30 games")),
        "{:?}",
        list.notes
    );
    // Without the unbeaten engine there is no prior and nothing is capped.
    let fair: Vec<RatedGame> = games
        .into_iter()
        .filter(|g| g.white != 3 && g.black != 3)
        .collect();
    let list = rate(&names(3), &fair, Anchor::Mean, model);
    assert!(!list.groups[0].prior && list.engines.iter().all(|e| !e.capped));
}

#[test]
fn engines_that_never_met_are_rated_in_separate_groups() {
    let mut rng = Rng::from_seed(6);
    let mut games = tournament(&mut rng, &[0.0, 100.0], 20, 30.0, 1.0, false);
    // Engines 2 and 3 play only each other.
    for g in tournament(&mut rng, &[0.0, -50.0], 20, 30.0, 1.0, false) {
        games.push(RatedGame {
            white: g.white + 2,
            black: g.black + 2,
            pair: g.pair.map(|k| k + 1000),
            ..g
        });
    }
    let list = rate(
        &names(4),
        &games,
        Anchor::Engine {
            index: 0,
            elo: 1500.0,
        },
        Model::Davidson,
    );
    assert_eq!(list.groups.len(), 2);
    assert!(
        list.notes.iter().any(|n| n.contains("2 groups")),
        "{:?}",
        list.notes
    );
    assert!(list
        .notes
        .iter()
        .any(|n| n.contains("group 2 does not hold the anchor e0")));
    let e0 = rating_of(&list, "e0");
    assert_eq!((e0.rating, e0.error), (1500.0, None));
    let (e2, e3) = (rating_of(&list, "e2"), rating_of(&list, "e3"));
    assert!((e2.rating + e3.rating).abs() < 1e-9, "group 2 has mean 0");
    assert_eq!(
        e2.error.map(|x| (x * 1e6).round()),
        e3.error.map(|x| (x * 1e6).round())
    );
    let (i0, i2) = (
        list.engines.iter().position(|e| e.name == "e0").unwrap(),
        list.engines.iter().position(|e| e.name == "e2").unwrap(),
    );
    assert_eq!(list.los[i0][i2], None, "no LOS across groups");
    assert!(list.los[i2].iter().filter_map(|x| *x).count() == 1);
}

#[test]
fn los_follows_the_ratings_and_sums_to_one() {
    let mut rng = Rng::from_seed(8);
    let games = tournament(&mut rng, &[0.0, 30.0, 200.0], 40, 30.0, 1.0, false);
    let list = rate(&names(3), &games, Anchor::Mean, Model::Davidson);
    assert_eq!(list.engines[0].name, "e2");
    for i in 0..3 {
        for j in 0..3 {
            if i != j {
                let (a, b) = (list.los[i][j].unwrap(), list.los[j][i].unwrap());
                assert!((a + b - 1.0).abs() < 1e-12);
                assert_eq!(a > 0.5, list.engines[i].rating > list.engines[j].rating);
            }
        }
    }
    assert!(list.los[0][2].unwrap() > 0.999);
    assert!(list.errors.contains("pairs"), "{}", list.errors);
}

#[test]
fn one_game_outside_a_pair_falls_back_to_independent_games_and_says_so() {
    let mut rng = Rng::from_seed(9);
    let mut games = tournament(&mut rng, &[0.0, 30.0, 60.0], 10, 30.0, 1.0, false);
    games.pop();
    let list = rate(&names(3), &games, Anchor::Mean, Model::Davidson);
    assert!(
        list.errors
            .contains("1 of 59 games are not in colour-swapped pairs"),
        "{}",
        list.errors
    );
}

#[test]
fn draw_free_games_and_self_play_and_similar_names() {
    let mut rng = Rng::from_seed(10);
    let mut games = tournament(&mut rng, &[0.0, 40.0, 80.0], 20, 0.0, 0.0, false);
    games.push(RatedGame {
        white: 1,
        black: 1,
        outcome: Outcome::Draw,
        pair: None,
    });
    let names = vec!["Sable 1".to_owned(), "sable1".to_owned(), "x".to_owned()];
    let list = rate(&names, &games, Anchor::Mean, Model::Davidson);
    assert_eq!(list.groups[0].draw_nu, 0.0);
    assert!(list
        .notes
        .iter()
        .any(|n| n.contains("1 game of an engine against itself")));
    assert!(
        list.notes
            .iter()
            .any(|n| n.contains("\"Sable 1\", \"sable1\" differ only in case or spaces")),
        "{:?}",
        list.notes
    );
    assert_eq!(list.engines.len(), 3, "kept apart");
}

#[test]
fn only_draws_and_one_colour_per_pairing_still_give_a_list() {
    for model in [Model::Logistic, Model::Davidson] {
        only_draws_and_one_colour_under(model);
    }
}

fn only_draws_and_one_colour_under(model: Model) {
    // Every game drawn: no finite draw parameter; the prior holds it, ratings stay equal.
    let games: Vec<RatedGame> = (0..10)
        .map(|k| RatedGame {
            white: k % 2,
            black: 1 - k % 2,
            outcome: Outcome::Draw,
            pair: None,
        })
        .collect();
    let list = rate(&names(2), &games, Anchor::Mean, model);
    assert!(list
        .engines
        .iter()
        .all(|e| e.rating.abs() < 1e-9 && e.error.unwrap().is_finite()));
    // Engine 0 always white: the white advantage is not determined and is left out.
    let games: Vec<RatedGame> = (0..10)
        .map(|k| RatedGame {
            white: 0,
            black: 1,
            outcome: [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackWins][k % 3],
            pair: None,
        })
        .collect();
    let list = rate(&names(2), &games, Anchor::Mean, model);
    assert_eq!(list.groups[0].white_advantage, [0.0, 0.0]);
    assert!(list.engines[0].rating.is_finite());
}

/// One game between engines whose ratings differ by `elo` (white's minus black's) on the
/// logistic scale: the expected score is the Elo formula's, draws count half. The draw rate
/// is 60 % of what the score allows (`2 min(E, 1 - E)`), so wins and losses keep the mean.
fn logistic_game(x: f64, elo: f64) -> Outcome {
    let e = crate::stats::elo::elo_to_score(elo);
    let d = 0.6 * 2.0 * e.min(1.0 - e);
    if x < e - d / 2.0 {
        Outcome::WhiteWins
    } else if x < e + d / 2.0 {
        Outcome::Draw
    } else {
        Outcome::BlackWins
    }
}

/// Games with `wins`, `draws`, `losses` for engine 0 against engine 1, half with each colour.
fn two_engine_games(wins: usize, draws: usize, losses: usize) -> Vec<RatedGame> {
    let mut out = Vec::new();
    let results = [(wins, 1.0), (draws, 0.5), (losses, 0.0)];
    for (count, score) in results {
        for k in 0..count {
            let (white, black) = if k % 2 == 0 { (0, 1) } else { (1, 0) };
            let white_score = if white == 0 { score } else { 1.0 - score };
            let outcome = if white_score == 1.0 {
                Outcome::WhiteWins
            } else if white_score == 0.0 {
                Outcome::BlackWins
            } else {
                Outcome::Draw
            };
            out.push(RatedGame {
                white,
                black,
                outcome,
                pair: None,
            });
        }
    }
    out
}

#[test]
fn two_engines_get_the_elo_of_harness_stats() {
    // The case: 170 wins, 140 draws, 90 losses, `harness stats --wdl 170,90,140`
    // (no zero count: stats regularises those).
    for (w, d, l) in [(170, 140, 90), (12, 300, 3), (40, 3, 25), (90, 140, 170)] {
        let stats = crate::stats::elo_report(&crate::stats::Trinomial::new(w, l, d));
        let list = rate(
            &names(2),
            &two_engine_games(w as usize, d as usize, l as usize),
            Anchor::Mean,
            Model::Logistic,
        );
        let diff = rating_of(&list, "e0").rating - rating_of(&list, "e1").rating;
        assert!(
            (diff - stats.elo.value).abs() < 1e-9,
            "{w}/{d}/{l}: ratings {diff}, stats {}",
            stats.elo.value
        );
        // The error bar of the difference is the one of the score's Elo to first order
        // (stats maps the score's interval through the formula, the list takes its slope).
        let anchored = rate(
            &names(2),
            &two_engine_games(w as usize, d as usize, l as usize),
            Anchor::Engine { index: 1, elo: 0.0 },
            Model::Logistic,
        );
        let error = rating_of(&anchored, "e0").error.unwrap();
        assert!(
            (error / stats.elo.error - 1.0).abs() < 0.03,
            "{w}/{d}/{l}: error {error}, stats {}",
            stats.elo.error
        );
    }
    // Davidson stretches the difference when there are draws: the 110.4 against 70.4.
    let davidson = rate(
        &names(2),
        &two_engine_games(170, 140, 90),
        Anchor::Mean,
        Model::Davidson,
    );
    let diff = rating_of(&davidson, "e0").rating - rating_of(&davidson, "e1").rating;
    assert!((diff - 110.4).abs() < 0.1, "{diff}");
}

/// Share of 95 % intervals (mean anchored) that hold the true logistic-scale rating over
/// `trials` round robins of 5 engines, 20 colour-swapped pairs a pairing (400 games).
fn logistic_coverage(seed: u64, trials: usize, keep_pairs: bool) -> f64 {
    let truth = [-120.0, -45.0, 0.0, 35.0, 130.0];
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
    let mut rng = Rng::from_seed(seed);
    let (mut hit, mut all) = (0, 0);
    for _ in 0..trials {
        let mut games = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                for _ in 0..20 {
                    let key = games.len() as u64;
                    for (w, bl) in [(a, b), (b, a)] {
                        let outcome = logistic_game(uniform(&mut rng), truth[w] - truth[bl]);
                        let pair = keep_pairs.then_some(key);
                        games.push(RatedGame {
                            white: w,
                            black: bl,
                            outcome,
                            pair,
                        });
                    }
                }
            }
        }
        let list = rate(&names(truth.len()), &games, Anchor::Mean, Model::Logistic);
        for (i, t) in truth.iter().enumerate() {
            let e = rating_of(&list, &format!("e{i}"));
            all += 1;
            hit += usize::from((e.rating - (t - mean)).abs() <= e.error.unwrap());
        }
    }
    hit as f64 / all as f64
}

#[test]
fn logistic_ratings_are_recovered_within_their_error_bars() {
    // 200 round robins, 1000 intervals each way: a true rate of 95 % gives 93.2..96.8 % with
    // 99 % probability if the intervals were independent. Under the binomial variance alone
    // (draws ignored) the intervals would be about 1 / sqrt(1 - 0.6) = 1.6 times too wide
    // at equal strength, and cover nearly always.
    let games = logistic_coverage(51, 200, false);
    let pairs = logistic_coverage(52, 200, true);
    errln!("logistic scale: coverage {games:.4} (games), {pairs:.4} (pairs)");
    assert!((0.925..=0.975).contains(&games), "games: {games}");
    assert!((0.925..=0.975).contains(&pairs), "pairs: {pairs}");
}
