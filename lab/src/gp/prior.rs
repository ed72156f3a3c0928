//! The GP prior restricted to a finite domain, and exact joint sampling from it.
//!
//! # The jitter is part of the model
//! The kernel matrix of a smooth kernel on a fine grid is numerically singular, so the prior
//! used here is `f ~ N(μ·1, K + ε·I)` on the domain, with `ε = jitter` (default `1e-8·s²`,
//! i.e. an independent N(0, ε) component of standard deviation `1e-4·s`). Sampling *and* the
//! posterior use this same matrix, so the simulated objective is exactly a draw from the prior
//! the posterior conditions on: a random function with constant mean `μ` on a finite set, which
//! is all Theorem 1 asks for.
//!
//! # Two representations of `K + εI`
//! - **Regular 1-D grid, stationary kernel:** `K + εI` is the Toeplitz matrix of
//!   `c(k) = k(k·h) + ε·[k = 0]`, stored as its `n` lags (`O(n)` memory, columns made on demand)
//!   and sampled exactly by circulant embedding (`circulant.rs`, `O(n log n)` per draw). This
//!   is what makes the paper's 10,001-point grid affordable: no `n × n` matrix exists.
//! - **Any other point set** (or a grid whose embedding is not non-negative): the dense matrix
//!   and its Cholesky factor `L·Lᵀ = K + εI`, computed once (`O(n³)`), sampled as `μ + L·z`
//!   exploiting that `L` is lower triangular.
use super::circulant::CirculantEmbedding;
use super::domain::Domain;
use super::kernel::Kernel;
use nalgebra::DMatrix;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// Default jitter, relative to the output scale (see the module documentation).
pub const DEFAULT_RELATIVE_JITTER: f64 = 1e-8;

/// Largest point set factored densely (`n²` doubles: 200 MB at this size).
pub const MAX_DENSE_POINTS: usize = 5000;

#[derive(Clone, Debug)]
enum Covariance {
    /// Regular grid: `lags[k] = k(k·h) + ε·[k = 0]`, sampled by circulant embedding.
    Toeplitz {
        lags: Vec<f64>,
        embedding: CirculantEmbedding,
    },
    /// Dense `K + εI` and its lower Cholesky factor.
    Dense {
        matrix: DMatrix<f64>,
        factor: DMatrix<f64>,
    },
}

/// A BO problem's prior: domain, kernel, constant mean `μ`, jitter `ε`, and a representation
/// of the prior covariance on the domain that supports exact joint sampling.
#[derive(Clone, Debug)]
pub struct Problem {
    domain: Domain,
    kernel: Kernel,
    mean: f64,
    jitter: f64,
    covariance: Covariance,
}

impl Problem {
    /// Builds the prior covariance `K + εI` on `domain` (Toeplitz for a regular grid when the
    /// circulant embedding is non-negative, else dense and factored once, `O(n³)`).
    ///
    /// Errors: invalid kernel parameters, non-finite `mean`, `jitter < 0` or non-finite, a
    /// dense covariance that is not numerically positive definite (the message suggests a
    /// larger jitter), or a domain too large to factor densely.
    pub fn new(domain: Domain, kernel: Kernel, mean: f64, jitter: f64) -> Result<Problem, String> {
        kernel.validate()?;
        if !mean.is_finite() {
            return Err(format!("prior mean must be finite, got {mean}"));
        }
        if !(jitter.is_finite() && jitter >= 0.0) {
            return Err(format!("jitter must be finite and ≥ 0, got {jitter}"));
        }
        let n = domain.len();
        if let Some(h) = domain.grid_spacing() {
            let lag =
                |k: usize| kernel.at_distance(k as f64 * h) + if k == 0 { jitter } else { 0.0 };
            if let Some(embedding) = CirculantEmbedding::new(n, lag) {
                let lags = (0..n).map(lag).collect();
                return Ok(Problem {
                    domain,
                    kernel,
                    mean,
                    jitter,
                    covariance: Covariance::Toeplitz { lags, embedding },
                });
            }
        }
        if n > MAX_DENSE_POINTS {
            return Err(format!(
                "the prior on {n} points needs a dense factorisation (no exact circulant \
                 embedding exists for this domain), which is limited to {MAX_DENSE_POINTS} points"
            ));
        }
        let matrix = DMatrix::from_fn(n, n, |i, j| {
            let k = kernel.eval(domain.point(i), domain.point(j));
            if i == j {
                k + jitter
            } else {
                k
            }
        });
        let factor = nalgebra::Cholesky::new(matrix.clone())
            .ok_or_else(|| {
                format!(
                    "the prior covariance on {n} points is not numerically positive definite \
                     with jitter {jitter:e}; increase the jitter"
                )
            })?
            .unpack();
        Ok(Problem {
            domain,
            kernel,
            mean,
            jitter,
            covariance: Covariance::Dense { matrix, factor },
        })
    }

    /// The domain.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// The kernel.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// Constant prior mean `μ`.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The jitter `ε` added to the diagonal.
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// Number of domain points.
    pub fn n_points(&self) -> usize {
        self.domain.len()
    }

    /// Whether sampling uses the exact circulant embedding (`true`) or a dense factor.
    pub fn uses_circulant_embedding(&self) -> bool {
        matches!(self.covariance, Covariance::Toeplitz { .. })
    }

    /// Prior covariance `(K + εI)[i, j]`.
    pub fn covariance(&self, i: usize, j: usize) -> f64 {
        match &self.covariance {
            Covariance::Toeplitz { lags, .. } => lags[i.abs_diff(j)],
            Covariance::Dense { matrix, .. } => matrix[(i, j)],
        }
    }

    /// Writes column `j` of `K + εI` (equal to row `j`) into `out` (length `n`).
    pub fn covariance_column_into(&self, j: usize, out: &mut [f64]) {
        match &self.covariance {
            Covariance::Toeplitz { lags, .. } => {
                // out[i] = lags[|i - j|]: the lags read backwards up to j, then forwards.
                for (o, &l) in out[..=j].iter_mut().zip(lags[..=j].iter().rev()) {
                    *o = l;
                }
                let rest = out.len() - j;
                out[j..].copy_from_slice(&lags[..rest]);
            }
            Covariance::Dense { matrix, .. } => {
                let n = self.n_points();
                out.copy_from_slice(&matrix.as_slice()[j * n..(j + 1) * n]);
            }
        }
    }

    /// Appends `count` exact joint prior draws `μ + (K + εI)^{1/2}·z` to `out`, path after path
    /// (`n` values each). Circulant embedding: `O(n log n)` per draw; dense: `O(n²/2)` per
    /// draw, skipping the zero upper triangle of `L`.
    pub fn sample_into(&self, rng: &mut ChaCha8Rng, count: usize, out: &mut Vec<f64>) {
        let n = self.n_points();
        let start = out.len();
        match &self.covariance {
            Covariance::Toeplitz { embedding, .. } => embedding.sample_into(rng, count, out),
            Covariance::Dense { factor, .. } => {
                let l = factor.as_slice();
                let mut z = vec![0.0; n];
                for _ in 0..count {
                    for zi in z.iter_mut() {
                        *zi = StandardNormal.sample(rng);
                    }
                    let path_start = out.len();
                    out.resize(path_start + n, 0.0);
                    let path = &mut out[path_start..];
                    // Column-major: column j of L is contiguous; only rows i ≥ j are non-zero.
                    for (j, &zj) in z.iter().enumerate() {
                        let column = &l[j * n + j..(j + 1) * n];
                        for (p, &lij) in path[j..].iter_mut().zip(column) {
                            *p += lij * zj;
                        }
                    }
                }
            }
        }
        if self.mean != 0.0 {
            for v in &mut out[start..] {
                *v += self.mean;
            }
        }
    }

    /// One exact joint prior draw (see [`Problem::sample_into`]).
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.n_points());
        self.sample_into(rng, 1, &mut out);
        out
    }
}

/// Whether the prior of `kernel` with jitter `jitter` on `domain` has an exact circulant
/// embedding (a regular grid whose embedding is non-negative), i.e. whether [`Problem::new`]
/// builds it without a dense factorisation. `O(n log n)`.
pub fn embeds_exactly(domain: &Domain, kernel: &Kernel, jitter: f64) -> bool {
    let Some(h) = domain.grid_spacing() else {
        return false;
    };
    let lag = |k: usize| kernel.at_distance(k as f64 * h) + if k == 0 { jitter } else { 0.0 };
    CirculantEmbedding::new(domain.len(), lag).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn dense_factor_reproduces_the_covariance() {
        let d = Domain::random_cube(2, 150, 4).unwrap();
        let p = Problem::new(d, Kernel::default(), 0.0, 1e-8).unwrap();
        let Covariance::Dense { factor, .. } = &p.covariance else {
            panic!("a random point set is factored densely")
        };
        let back = factor * factor.transpose();
        let worst = (0..150)
            .flat_map(|i| (0..150).map(move |j| (i, j)))
            .map(|(i, j)| (back[(i, j)] - p.covariance(i, j)).abs())
            .fold(0.0, f64::max);
        assert!(worst < 1e-13, "max |LLᵀ - K| = {worst:e}");
    }

    #[test]
    fn triangular_sampling_agrees_with_the_matrix_product() {
        // The dense path skips L's zero upper triangle; the same normals through the full
        // product L·z must give the same draw.
        let d = Domain::random_cube(3, 60, 9).unwrap();
        let p = Problem::new(d, Kernel::default(), 0.5, 1e-8).unwrap();
        let draw = p.sample(&mut ChaCha8Rng::seed_from_u64(3));
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let z = nalgebra::DVector::from_fn(60, |_, _| StandardNormal.sample(&mut rng));
        let Covariance::Dense { factor, .. } = &p.covariance else {
            panic!("dense")
        };
        let full = factor * z;
        for i in 0..60 {
            assert!((draw[i] - (0.5 + full[i])).abs() < 1e-13, "{i}");
        }
    }

    #[test]
    fn paper_grids_embed_exactly() {
        // Matérn-5/2, ℓ = 0.1, jitter 1e-8: the minimal embedding is non-negative on the
        // default grid and on the stopping paper's 10,001-point grid.
        for n in [201, 1001, 10_001] {
            let p =
                Problem::new(Domain::grid_1d(n).unwrap(), Kernel::default(), 0.0, 1e-8).unwrap();
            assert!(p.uses_circulant_embedding(), "n = {n}");
        }
    }

    #[test]
    fn toeplitz_columns_match_the_kernel() {
        let p = Problem::new(Domain::grid_1d(41).unwrap(), Kernel::default(), 0.0, 1e-8).unwrap();
        let mut column = vec![0.0; 41];
        for j in [0, 7, 40] {
            p.covariance_column_into(j, &mut column);
            for (i, &c) in column.iter().enumerate() {
                let want = Kernel::default().eval(&[i as f64 / 40.0], &[j as f64 / 40.0])
                    + if i == j { 1e-8 } else { 0.0 };
                assert!((c - want).abs() < 1e-15, "({i}, {j}): {c} vs {want}");
            }
        }
    }

    #[test]
    fn bad_parameters_are_named() {
        let d = Domain::grid_1d(5).unwrap();
        let e = Problem::new(d.clone(), Kernel::default(), f64::NAN, 1e-8).unwrap_err();
        assert!(e.contains("mean"), "{e}");
        let e = Problem::new(d, Kernel::default(), 0.0, -1.0).unwrap_err();
        assert!(e.contains("jitter"), "{e}");
    }
}
