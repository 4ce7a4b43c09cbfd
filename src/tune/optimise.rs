//! The training loop: Adam epochs over full or mini-batches, validation loss beside the training
//! loss, a checkpoint every N epochs and resumption from one.

use super::adam::Adam;
use super::kernel;
use super::model::{self, Dense};
use super::store::Store;
use super::tune_error::TuneError;
use crate::plumbing::progress::{Describe, Progress};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Options of a tuning run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Number of epochs (passes over the training set).
    pub epochs: usize,
    /// Adam learning rate.
    pub lr: f64,
    /// Positions per mini-batch; 0 = full batch (one step per epoch).
    pub batch: usize,
    /// `frozen[i]`: parameter i keeps its initial value.
    pub frozen: Vec<bool>,
    /// Where to write checkpoints (none: no checkpoints).
    pub checkpoint: Option<PathBuf>,
    /// Write a checkpoint every this many epochs.
    pub checkpoint_every: usize,
    /// L2 penalty per squared centipawn of each weight's distance from its starting value. It
    /// holds back weights that few positions speak for (the noisy corners of the tables); the
    /// reported losses exclude it. 0 = none.
    pub l2: f64,
}

/// What one epoch did.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct EpochStat {
    /// 1-based epoch number.
    pub epoch: usize,
    /// Training loss (mean over the epoch's batches, at the weights each batch saw).
    pub train: f64,
    /// Validation loss after the epoch (NaN without a validation set).
    pub valid: f64,
    /// Training positions per second over the epoch (all threads).
    pub pos_per_s: f64,
}

/// Everything needed to continue a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Epochs completed.
    pub epoch: usize,
    /// The K in use.
    pub k: f64,
    /// Current weights.
    pub weights: Vec<[f64; 2]>,
    /// Optimiser state.
    pub adam: Adam,
    /// The per-epoch history so far.
    pub history: Vec<EpochStat>,
    /// Training and validation set sizes, to refuse resuming on different data.
    pub sizes: (usize, usize),
    /// The weights at the epoch with the lowest validation loss so far (early stopping).
    #[serde(default)]
    pub best: Option<Best>,
    /// The starting weights, which the L2 penalty pulls towards (absent in old checkpoints:
    /// then the weights the run resumes from).
    #[serde(default)]
    pub anchor: Option<Vec<[f64; 2]>>,
}

/// The lowest-validation-loss point of a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Best {
    /// Its epoch.
    pub epoch: usize,
    /// Its validation loss.
    pub valid: f64,
    /// Its weights.
    pub weights: Vec<[f64; 2]>,
}

impl Checkpoint {
    /// Writes the checkpoint as JSON (through a temporary file, so a crash never leaves half a file).
    pub fn save(&self, path: &Path) -> Result<(), TuneError> {
        let json = serde_json::to_vec(self).map_err(|source| TuneError::Json {
            context: format!("{}: the checkpoint as JSON", path.display()),
            source,
        })?;
        crate::plumbing::atomic::write(path, json)?;
        Ok(())
    }

    /// Reads a checkpoint written by [`Checkpoint::save`].
    pub fn load(path: &Path) -> Result<Checkpoint, TuneError> {
        let text = std::fs::read(path).map_err(|source| TuneError::Io {
            context: format!("reading {}", path.display()),
            source,
        })?;
        serde_json::from_slice(&text).map_err(|source| TuneError::Json {
            context: format!("{}: not a tuner checkpoint", path.display()),
            source,
        })
    }
}

/// What the progress reporter shows after an epoch: the losses and the speed, also per thread
/// (the threads of the rayon pool the epochs run on, as `tune::run` reports them).
impl Describe for EpochStat {
    fn describe(&self) -> String {
        let threads = rayon::current_num_threads();
        format!(
            "loss {:.6}  valid {:.6}  {:.2} M pos/s ({:.2} M/thread)",
            self.train,
            self.valid,
            self.pos_per_s / 1e6,
            self.pos_per_s / 1e6 / threads as f64
        )
    }
}

/// Runs (or continues) the optimisation; returns the final state.
pub fn run(
    train: &Store,
    valid: &Store,
    cfg: &Config,
    mut state: Checkpoint,
    progress: &mut dyn Progress<EpochStat>,
) -> Result<Checkpoint, TuneError> {
    check_fit(train, valid, cfg, &state)?;
    let n = state.weights.len();
    let mut w: Box<Dense> = model::to_dense(&state.weights)?;
    let anchor = state
        .anchor
        .get_or_insert_with(|| state.weights.clone())
        .clone();
    let mut grad = model::zero_dense();
    state.adam.lr = cfg.lr;
    if state.best.is_none() && !valid.is_empty() {
        // the starting point is a candidate too: tuning may not beat it
        let v = kernel::loss(valid, &w, state.k, 0..valid.len())?;
        state.best = Some(Best {
            epoch: state.epoch,
            valid: v,
            weights: state.weights.clone(),
        });
    }
    while state.epoch < cfg.epochs {
        let t0 = Instant::now();
        let sum = epoch(train, cfg, &mut state, (&mut w, &mut grad), &anchor)?;
        let secs = t0.elapsed().as_secs_f64();
        state.epoch += 1;
        let stat = EpochStat {
            epoch: state.epoch,
            train: sum / train.len().max(1) as f64,
            valid: if valid.is_empty() {
                f64::NAN
            } else {
                kernel::loss(valid, &w, state.k, 0..valid.len())?
            },
            pos_per_s: train.len() as f64 / secs.max(1e-9),
        };
        progress.step(stat.epoch as u64, &stat);
        state.weights.copy_from_slice(&w[..n]);
        keep(&mut state, stat, cfg)?;
    }
    Ok(state)
}

/// Refuses a frozen mask or a checkpoint that does not fit the weights and the data.
fn check_fit(
    train: &Store,
    valid: &Store,
    cfg: &Config,
    state: &Checkpoint,
) -> Result<(), TuneError> {
    let n = state.weights.len();
    if cfg.frozen.len() != n {
        return Err(TuneError::FrozenMask {
            entries: cfg.frozen.len(),
            weights: n,
        });
    }
    if state.sizes != (train.len(), valid.len()) {
        return Err(TuneError::CheckpointSizes {
            made: state.sizes,
            now: (train.len(), valid.len()),
        });
    }
    Ok(())
}

/// One pass over the training positions, an Adam step a batch, on the dense weights `w` with
/// `grad` as the gradient's room; returns the summed loss (the mean times the positions).
fn epoch(
    train: &Store,
    cfg: &Config,
    state: &mut Checkpoint,
    (w, grad): (&mut Dense, &mut Dense),
    anchor: &[[f64; 2]],
) -> Result<f64, TuneError> {
    let n = state.weights.len();
    let batch = if cfg.batch == 0 {
        train.len().max(1)
    } else {
        cfg.batch
    };
    let mut sum = 0.0;
    let mut start = 0;
    while start < train.len() {
        let end = (start + batch).min(train.len());
        let l = kernel::loss_and_grad(train, w, state.k, start..end, &mut grad[..n])?;
        sum += l * (end - start) as f64;
        if cfg.l2 > 0.0 {
            for ((g, x), a) in grad[..n].iter_mut().zip(&w[..n]).zip(anchor) {
                g[0] += 2.0 * cfg.l2 * (x[0] - a[0]);
                g[1] += 2.0 * cfg.l2 * (x[1] - a[1]);
            }
        }
        state.adam.step(&mut w[..n], &grad[..n], &cfg.frozen);
        start = end;
    }
    Ok(sum)
}

/// Keeps an epoch: the best weights so far, the history, the checkpoint when one is due.
fn keep(state: &mut Checkpoint, stat: EpochStat, cfg: &Config) -> Result<(), TuneError> {
    if stat.valid < state.best.as_ref().map_or(f64::INFINITY, |b| b.valid) {
        state.best = Some(Best {
            epoch: stat.epoch,
            valid: stat.valid,
            weights: state.weights.clone(),
        });
    }
    state.history.push(stat);
    if let Some(path) = &cfg.checkpoint {
        if state.epoch.is_multiple_of(cfg.checkpoint_every.max(1)) || state.epoch == cfg.epochs {
            state.save(path)?;
        }
    }
    Ok(())
}

/// A fresh state at `init` for the given data sizes.
pub fn fresh(init: Vec<[f64; 2]>, k: f64, lr: f64, sizes: (usize, usize)) -> Checkpoint {
    let n = init.len();
    let init_copy = init.clone();
    Checkpoint {
        epoch: 0,
        k,
        weights: init,
        adam: Adam::new(n, lr),
        history: Vec::new(),
        sizes,
        best: None,
        anchor: Some(init_copy),
    }
}

#[cfg(test)]
mod tests {
    use super::super::record::Coefs;
    use super::*;

    /// Positions whose result is the expected score under a known material rule; tuning from zero
    /// must recover the rule's values.
    fn material_dataset(truth: &[f64], n: usize, k: f64) -> Store {
        let mut s = Store::new();
        let mut rng = sable::rng::Rng::from_seed(12345);
        for _ in 0..n {
            let mut terms = Vec::new();
            let mut eval = 0.0;
            for (i, &v) in truth.iter().enumerate() {
                let c = rng.below(3) as i16 - 1;
                if c != 0 {
                    terms.push((i as u16, c));
                    eval += c as f64 * v;
                }
            }
            // full middlegame, so eval = mg; eg weights are unconstrained by this data
            s.push(
                &Coefs {
                    phase: 24,
                    scale: 128,
                    fixed: 0,
                    eg_fixed: 0,
                    terms,
                },
                model::sigmoid(k, eval),
            )
            .unwrap();
        }
        s
    }

    #[test]
    fn recovers_material_values_and_resumes() {
        let truth = [100.0, 300.0, 320.0, 500.0, 900.0];
        let train = material_dataset(&truth, 4000, 1.0);
        let valid = material_dataset(&truth, 10, 1.0);
        let dir = crate::test_dir("tune-test");
        let ck = dir.join("ck.json");
        let mut cfg = Config {
            epochs: 300,
            lr: 10.0,
            batch: 0,
            frozen: vec![false; 5],
            checkpoint: Some(ck.clone()),
            checkpoint_every: 100,
            l2: 0.0,
        };
        let st = fresh(vec![[0.0; 2]; 5], 1.0, cfg.lr, (train.len(), valid.len()));
        let half = Config {
            epochs: 150,
            ..cfg.clone()
        };
        let a = run(&train, &valid, &half, st, &mut ()).unwrap();
        assert_eq!(Checkpoint::load(&ck).unwrap().epoch, 150);
        cfg.epochs = 2000;
        let b = run(
            &train,
            &valid,
            &cfg,
            Checkpoint::load(&ck).unwrap(),
            &mut (),
        )
        .unwrap();
        assert_eq!(b.history.len(), 2000);
        let best = b.best.as_ref().unwrap();
        let min = b
            .history
            .iter()
            .map(|h| h.valid)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(best.valid, min);
        assert_eq!(b.history[best.epoch - 1].valid, min);
        assert!(b.history[1999].train < a.history[149].train);
        for (i, &v) in truth.iter().enumerate() {
            assert!(
                (b.weights[i][0] - v).abs() < 2.0,
                "param {i}: {} vs {v}",
                b.weights[i][0]
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn refuses_a_checkpoint_from_other_data() {
        let train = material_dataset(&[100.0], 50, 1.0);
        let cfg = Config {
            epochs: 1,
            lr: 1.0,
            batch: 16,
            frozen: vec![false],
            checkpoint: None,
            checkpoint_every: 1,
            l2: 0.0,
        };
        let st = fresh(vec![[0.0; 2]], 1.0, 1.0, (49, 0));
        assert!(run(&train, &Store::new(), &cfg, st, &mut ()).is_err());
        let st = fresh(vec![[0.0; 2]], 1.0, 1.0, (50, 0));
        let r = run(&train, &Store::new(), &cfg, st, &mut ()).unwrap();
        assert_eq!(r.adam.t, 4); // 50 positions in batches of 16
        assert!(r.history[0].valid.is_nan());
    }

    #[test]
    fn l2_pulls_weights_towards_their_start() {
        let truth = [100.0, 300.0, 320.0, 500.0, 900.0];
        let train = material_dataset(&truth, 4000, 1.0);
        let start = vec![[50.0; 2]; 5];
        let tune = |l2: f64| {
            let cfg = Config {
                epochs: 600,
                lr: 10.0,
                batch: 0,
                frozen: vec![false; 5],
                checkpoint: None,
                checkpoint_every: 1,
                l2,
            };
            let st = fresh(start.clone(), 1.0, cfg.lr, (train.len(), 0));
            run(&train, &Store::new(), &cfg, st, &mut ())
                .unwrap()
                .weights
        };
        let free = tune(0.0);
        let held = tune(1e-7);
        let pinned = tune(1e-4);
        let dist = |w: &[[f64; 2]]| -> f64 { w.iter().map(|x| (x[0] - 50.0).powi(2)).sum() };
        assert!(free[4][0] > 800.0, "the queen moves freely: {free:?}");
        // A ridge penalty shrinks the solution towards the start, more so the larger it is.
        assert!(dist(&held) < dist(&free) * 0.99, "{held:?} vs {free:?}");
        assert!(dist(&pinned) < dist(&held) * 0.5, "{pinned:?} vs {held:?}");
    }
}
