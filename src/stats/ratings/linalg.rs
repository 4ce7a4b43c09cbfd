//! Dense symmetric positive definite systems by Cholesky: the Newton steps and the inverse
//! Fisher information of the rating fit. The matrices have one row per rated engine (plus the
//! white advantage and the draw parameter), so a dense factorisation is simple and fast enough.

/// A square matrix stored row by row.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    /// Rows and columns.
    pub n: usize,
    /// `n * n` entries, row-major.
    pub a: Vec<f64>,
}

impl Matrix {
    /// The `n x n` zero matrix.
    pub fn zeros(n: usize) -> Matrix {
        Matrix {
            n,
            a: vec![0.0; n * n],
        }
    }

    /// Entry `(i, j)`.
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.n + j]
    }

    /// Adds `v` to entry `(i, j)`.
    pub fn add(&mut self, i: usize, j: usize, v: f64) {
        self.a[i * self.n + j] += v;
    }

    /// The product `self * other`.
    pub fn mul(&self, other: &Matrix) -> Matrix {
        let n = self.n;
        let mut out = Matrix::zeros(n);
        for i in 0..n {
            for k in 0..n {
                let x = self.at(i, k);
                if x != 0.0 {
                    for j in 0..n {
                        out.a[i * n + j] += x * other.at(k, j);
                    }
                }
            }
        }
        out
    }
}

/// The Cholesky factor `L` (lower triangular, `A = L Lᵀ`) of a symmetric matrix, or `None`
/// when it is not positive definite to working precision (a singular information matrix: a
/// parameter the games do not determine).
pub fn cholesky(m: &Matrix) -> Option<Matrix> {
    let n = m.n;
    let scale = (0..n).map(|i| m.at(i, i).abs()).fold(0.0, f64::max);
    let mut l = Matrix::zeros(n);
    for j in 0..n {
        let mut d = m.at(j, j);
        for k in 0..j {
            d -= l.at(j, k) * l.at(j, k);
        }
        // Also catches NaN: a factor only from a pivot that is clearly positive.
        if d.is_nan() || d <= 1e-12 * scale {
            return None;
        }
        let d = d.sqrt();
        l.a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = m.at(i, j);
            for k in 0..j {
                s -= l.at(i, k) * l.at(j, k);
            }
            l.a[i * n + j] = s / d;
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b` for the factor `l` of [`cholesky`].
pub fn solve(l: &Matrix, b: &[f64]) -> Vec<f64> {
    let n = l.n;
    let mut y = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            y[i] -= l.at(i, k) * y[k];
        }
        y[i] /= l.at(i, i);
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            y[i] -= l.at(k, i) * y[k];
        }
        y[i] /= l.at(i, i);
    }
    y
}

/// The inverse of the matrix whose factor is `l`.
pub fn inverse(l: &Matrix) -> Matrix {
    let n = l.n;
    let mut inv = Matrix::zeros(n);
    let mut e = vec![0.0; n];
    for j in 0..n {
        e.iter_mut().for_each(|x| *x = 0.0);
        e[j] = 1.0;
        for (i, x) in solve(l, &e).into_iter().enumerate() {
            inv.a[i * n + j] = x;
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_a_positive_definite_matrix_times_it_is_the_identity() {
        let m = Matrix {
            n: 3,
            a: vec![4.0, 1.0, 0.5, 1.0, 3.0, -0.2, 0.5, -0.2, 2.0],
        };
        let inv = inverse(&cholesky(&m).unwrap());
        let id = m.mul(&inv);
        for i in 0..3 {
            for j in 0..3 {
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((id.at(i, j) - want).abs() < 1e-12, "{id:?}");
            }
        }
    }

    #[test]
    fn a_singular_matrix_has_no_factor() {
        let m = Matrix {
            n: 2,
            a: vec![1.0, 1.0, 1.0, 1.0],
        };
        assert!(cholesky(&m).is_none());
        assert!(cholesky(&Matrix::zeros(2)).is_none());
    }
}
