//! CPU affinity for `--affinity` (fastchess's `-use-affinity`): each game played at once gets
//! cores of its own for its two engines, and the runner's threads keep to the cores left over.
//!
//! Why per game and not per engine: the engines of a game take turns (no pondering), so one
//! engine's cores are idle while its opponent thinks; giving both the same cores halves what a
//! match needs and still keeps every game off every other game's cores. An engine with
//! `Threads=T` needs T cores, so a game needs the larger of its two engines' T.
//!
//! Linux only (sched_setaffinity); elsewhere `--affinity` is refused with a message.

use crate::uci::cpus;
use std::fmt;

/// Which cores each concurrent game's engines and the runner itself may run on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuPlan {
    /// Cores of the game played by worker `i`.
    pub games: Vec<Vec<usize>>,
    /// Cores left for the runner's own threads; empty when every core went to a game (the runner
    /// is then not pinned).
    pub runner: Vec<usize>,
}

/// Why the cores asked for cannot be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AffinityError {
    /// Fewer cores than games at once times cores per game.
    TooFewCores {
        /// Cores this process may use.
        available: usize,
        /// Games at once.
        concurrency: usize,
        /// Cores each game needs.
        per_game: usize,
    },
    /// Not on Linux, or the kernel refused to say which cores there are.
    Unsupported(String),
}

impl fmt::Display for AffinityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AffinityError::TooFewCores {
                available,
                concurrency,
                per_game,
            } => {
                let fits = available / per_game.max(&1);
                write!(
                    f,
                    "--affinity: {concurrency} games at once with {per_game} core(s) each need \
                     {} cores, but this process may use {available}; lower --concurrency to {fits} \
                     or drop --affinity",
                    concurrency * per_game
                )
            }
            AffinityError::Unsupported(why) => write!(f, "--affinity: {why}"),
        }
    }
}

impl std::error::Error for AffinityError {}

/// Splits `cpus` into `concurrency` disjoint sets of `per_game` cores, in order, and gives the
/// rest to the runner.
pub fn plan(cpus: &[usize], concurrency: usize, per_game: usize) -> Result<CpuPlan, AffinityError> {
    let per_game = per_game.max(1);
    let needed = concurrency * per_game;
    if needed > cpus.len() {
        return Err(AffinityError::TooFewCores {
            available: cpus.len(),
            concurrency,
            per_game,
        });
    }
    let games = cpus[..needed]
        .chunks(per_game)
        .map(<[usize]>::to_vec)
        .collect();
    Ok(CpuPlan {
        games,
        runner: cpus[needed..].to_vec(),
    })
}

/// The cores this process may run on, in increasing order.
pub fn available_cpus() -> Result<Vec<usize>, AffinityError> {
    cpus::available()
        .map_err(|e| AffinityError::Unsupported(format!("cannot read this process's cores: {e}")))
}

/// Pins the calling thread (and the threads it starts later) to `cpus`; nothing for an empty
/// set. Used by the runner for itself; engines are pinned between fork and exec
/// ([`crate::uci::Engine::start_pinned`]).
pub fn pin_this_thread(cpus: &[usize]) -> std::io::Result<()> {
    if cpus.is_empty() {
        return Ok(());
    }
    cpus::set_this_thread(cpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_get_disjoint_cores_in_order_and_the_runner_the_rest() {
        let cpus: Vec<usize> = (0..16).collect();
        let p = plan(&cpus, 3, 4).unwrap();
        assert_eq!(
            p.games,
            [vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![8, 9, 10, 11]]
        );
        assert_eq!(p.runner, [12, 13, 14, 15]);
        let all = plan(&[2, 5], 2, 1).unwrap();
        assert_eq!(all.games, [vec![2], vec![5]]);
        assert!(all.runner.is_empty());
    }

    #[test]
    fn too_few_cores_is_an_error_that_says_what_fits() {
        let err = plan(&[0, 1], 4, 1).unwrap_err();
        assert_eq!(
            err,
            AffinityError::TooFewCores {
                available: 2,
                concurrency: 4,
                per_game: 1
            }
        );
        let text = err.to_string();
        assert!(text.contains("need 4 cores"), "{text}");
        assert!(text.contains("lower --concurrency to 2"), "{text}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pinned_thread_runs_only_on_its_cores() {
        let cpus = available_cpus().unwrap();
        assert!(!cpus.is_empty());
        let last = *cpus.last().unwrap();
        let seen = std::thread::spawn(move || {
            pin_this_thread(&[last]).unwrap();
            available_cpus().unwrap()
        })
        .join()
        .unwrap();
        assert_eq!(seen, [last]);
    }
}
