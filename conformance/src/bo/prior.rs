//! The GP prior restricted to a finite domain, and exact joint sampling from it.
//!
//! # The jitter is part of the model
//! The kernel matrix of a smooth kernel on a fine grid is numerically singular, so the prior
//! used here is `f ~ N(μ·1, K + ε·I)` on the domain, with `ε = jitter` (default `1e-8·s²`,
//! i.e. an independent N(0, ε) component of standard deviation `1e-4·s`). Sampling *and* the
//! posterior use this same matrix, so the simulated objective is exactly a draw from the prior
//! the posterior conditions on: a random function with constant mean `μ` on a finite set, which
//! is all Theorem 1 asks for. The factor `L·Lᵀ = K + εI` is computed once per problem.
use super::domain::Domain;
use super::kernel::Kernel;
use nalgebra::DMatrix;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// Default jitter, relative to the output scale (see the module documentation).
pub const DEFAULT_RELATIVE_JITTER: f64 = 1e-8;

/// A BO problem's prior: domain, kernel, constant mean `μ`, jitter `ε`, and the Cholesky
/// factor of the full prior covariance on the domain.
#[derive(Clone, Debug)]
pub struct Problem {
    domain: Domain,
    kernel: Kernel,
    mean: f64,
    jitter: f64,
    covariance: DMatrix<f64>,
    factor: DMatrix<f64>,
}

impl Problem {
    /// Builds the prior covariance `K + εI` on `domain` and factors it (O(n³), once).
    ///
    /// Errors: invalid kernel parameters, non-finite `mean`, `jitter < 0` or non-finite, or a
    /// covariance that is not numerically positive definite (the message suggests a larger
    /// jitter).
    pub fn new(domain: Domain, kernel: Kernel, mean: f64, jitter: f64) -> Result<Problem, String> {
        kernel.validate()?;
        if !mean.is_finite() {
            return Err(format!("prior mean must be finite, got {mean}"));
        }
        if !(jitter.is_finite() && jitter >= 0.0) {
            return Err(format!("jitter must be finite and ≥ 0, got {jitter}"));
        }
        let n = domain.len();
        let covariance = DMatrix::from_fn(n, n, |i, j| {
            let k = kernel.eval(domain.point(i), domain.point(j));
            if i == j {
                k + jitter
            } else {
                k
            }
        });
        let factor = nalgebra::Cholesky::new(covariance.clone())
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
            covariance,
            factor,
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

    /// Prior covariance `(K + εI)[i, j]`.
    pub fn covariance(&self, i: usize, j: usize) -> f64 {
        self.covariance[(i, j)]
    }

    /// Column `j` of `K + εI` (equal to row `j`: the matrix is symmetric).
    pub fn covariance_column(&self, j: usize) -> &[f64] {
        let n = self.n_points();
        &self.covariance.as_slice()[j * n..(j + 1) * n]
    }

    /// The lower Cholesky factor `L` of `K + εI`.
    pub fn factor(&self) -> &DMatrix<f64> {
        &self.factor
    }

    /// One exact joint prior draw `μ + L·z`, `z ~ N(0, I)` (O(n²)).
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Vec<f64> {
        let n = self.n_points();
        let z: Vec<f64> = (0..n).map(|_| StandardNormal.sample(rng)).collect();
        let l = self.factor.as_slice();
        let mut f = vec![self.mean; n];
        // Column-major: column j of L is contiguous; only rows i ≥ j are non-zero.
        for (j, &zj) in z.iter().enumerate() {
            let column = &l[j * n..(j + 1) * n];
            for i in j..n {
                f[i] += column[i] * zj;
            }
        }
        f
    }

    /// `n_paths` exact joint prior draws as the columns of an `n × n_paths` matrix
    /// (one matrix product `μ + L·Z`).
    pub fn sample_many(&self, rng: &mut ChaCha8Rng, n_paths: usize) -> DMatrix<f64> {
        let n = self.n_points();
        let z = DMatrix::from_fn(n, n_paths, |_, _| StandardNormal.sample(rng));
        let mut f = &self.factor * z;
        f.add_scalar_mut(self.mean);
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn factor_reproduces_the_covariance() {
        let d = Domain::grid_1d(201).unwrap();
        let p = Problem::new(d, Kernel::default(), 0.0, 1e-8).unwrap();
        let l = p.factor();
        let back = l * l.transpose();
        let worst = (0..201)
            .flat_map(|i| (0..201).map(move |j| (i, j)))
            .map(|(i, j)| (back[(i, j)] - p.covariance(i, j)).abs())
            .fold(0.0, f64::max);
        assert!(worst < 1e-13, "max |LLᵀ - K| = {worst:e}");
    }

    #[test]
    fn one_path_sampling_agrees_with_the_matrix_product() {
        let d = Domain::grid_1d(50).unwrap();
        let p = Problem::new(d, Kernel::default(), 0.5, 1e-8).unwrap();
        let a = p.sample(&mut ChaCha8Rng::seed_from_u64(3));
        let b = p.sample_many(&mut ChaCha8Rng::seed_from_u64(3), 1);
        for i in 0..50 {
            assert!((a[i] - b[(i, 0)]).abs() < 1e-13);
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
