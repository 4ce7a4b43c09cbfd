//! Adam with bias correction, on (mg, eg) weight pairs; frozen parameters never move.

use serde::{Deserialize, Serialize};

/// Adam's state: first and second moment estimates and the step count.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Adam {
    /// Learning rate (centipawns per step, roughly).
    pub lr: f64,
    /// Decay of the first moment.
    pub beta1: f64,
    /// Decay of the second moment.
    pub beta2: f64,
    /// Numerical floor in the denominator.
    pub eps: f64,
    /// Steps taken so far.
    pub t: u64,
    /// First moments.
    pub m: Vec<[f64; 2]>,
    /// Second moments.
    pub v: Vec<[f64; 2]>,
}

impl Adam {
    /// Fresh state for `n` parameters with the usual betas (0.9, 0.999).
    pub fn new(n: usize, lr: f64) -> Adam {
        Adam {
            lr,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            t: 0,
            m: vec![[0.0; 2]; n],
            v: vec![[0.0; 2]; n],
        }
    }

    /// One step: moves `w[i]` against `grad[i]` for every `i` with `!frozen[i]`.
    pub fn step(&mut self, w: &mut [[f64; 2]], grad: &[[f64; 2]], frozen: &[bool]) {
        self.t += 1;
        let c1 = 1.0 - self.beta1.powi(self.t as i32);
        let c2 = 1.0 - self.beta2.powi(self.t as i32);
        for i in 0..self.m.len() {
            if frozen[i] {
                continue;
            }
            for ph in 0..2 {
                let g = grad[i][ph];
                let m = &mut self.m[i][ph];
                let v = &mut self.v[i][ph];
                *m = self.beta1 * *m + (1.0 - self.beta1) * g;
                *v = self.beta2 * *v + (1.0 - self.beta2) * g * g;
                let mh = *m / c1;
                let vh = *v / c2;
                w[i][ph] -= self.lr * mh / (vh.sqrt() + self.eps);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimises_a_quadratic_and_respects_frozen() {
        // f(w) = sum (w - target)^2, gradient 2 (w - target)
        let target = [[3.0, -2.0], [10.0, 5.0]];
        let mut w = vec![[0.0; 2]; 2];
        let mut a = Adam::new(2, 0.1);
        let frozen = [false, true];
        for _ in 0..2000 {
            let g: Vec<[f64; 2]> = (0..2)
                .map(|i| {
                    [
                        2.0 * (w[i][0] - target[i][0]),
                        2.0 * (w[i][1] - target[i][1]),
                    ]
                })
                .collect();
            a.step(&mut w, &g, &frozen);
        }
        assert!(
            (w[0][0] - 3.0).abs() < 1e-3 && (w[0][1] + 2.0).abs() < 1e-3,
            "{w:?}"
        );
        assert_eq!(w[1], [0.0, 0.0]);
        // the first step of Adam moves by about lr whatever the gradient's size
        let mut w = vec![[0.0; 2]];
        let mut a = Adam::new(1, 0.5);
        a.step(&mut w, &[[1000.0, -1e-3]], &[false]);
        assert!(
            (w[0][0] + 0.5).abs() < 1e-6 && (w[0][1] - 0.5).abs() < 1e-3,
            "{w:?}"
        );
    }
}
