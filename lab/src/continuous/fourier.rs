//! Random Fourier feature (RFF) sample paths of a stationary GP prior on `[0, 1]^d`
//! (Rahimi & Recht 2007): the objective of the 8-D setting and the prior part of Thompson
//! sampling's posterior paths, as in the stopping paper's code (BoTorch's
//! `draw_kernel_feature_paths`, 1024 features by default).
//!
//! With `m = F/2` frequencies `ω_j` drawn from the kernel's spectral density and weights
//! `a_j, b_j ~ N(0, 1)`,
//!
//! ```text
//! f(x) = μ + s·√(2/F)·Σ_j [a_j·sin(ω_j·x) + b_j·cos(ω_j·x)],
//! ```
//!
//! whose covariance, averaged over the frequencies, is exactly the kernel:
//! `E[f(x)f(x')] − μ² = s²·E_ω[cos(ω·(x − x'))] = k(x, x')` (Bochner). For Matérn-ν with length
//! scale `ℓ` the density is a multivariate Student-t with `2ν` degrees of freedom and scale
//! `1/ℓ`: `ω = z/(ℓ·√g)`, `z ~ N(0, I_d)`, `g ~ Gamma(shape ν, rate ν)`; for the squared
//! exponential, `ω = z/ℓ`.
//!
//! **An approximation of the GP prior:** a path with `F` features is a GP only given its
//! frequencies; its law approaches the prior's as `F → ∞` (covariance error `O(F^{-1/2})`).
//! The model the BO loop conditions on uses the exact kernel, so objective and model differ
//! by this much, as in the paper's code.
use crate::gp::{Kernel, KernelKind};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma, StandardNormal};

/// One RFF sample path.
#[derive(Clone, Debug, PartialEq)]
pub struct FourierPath {
    dim: usize,
    mean: f64,
    /// `m × d` frequencies, row after row.
    frequencies: Vec<f64>,
    /// Weights `s·√(2/F)·a_j` of the sines.
    sine_weights: Vec<f64>,
    /// Weights `s·√(2/F)·b_j` of the cosines.
    cosine_weights: Vec<f64>,
}

impl FourierPath {
    /// A path with `features` features (an even number ≥ 2) of the prior with `kernel` and
    /// constant mean `mean` on `[0, 1]^dim`, drawn from `rng`: for each frequency in turn its
    /// `d` normals, then (Matérn) its gamma variate; then all `a_j`, then all `b_j`.
    ///
    /// Errors: an odd or zero feature count, `dim = 0`.
    pub fn draw(
        kernel: &Kernel,
        mean: f64,
        dim: usize,
        features: usize,
        rng: &mut ChaCha8Rng,
    ) -> Result<FourierPath, String> {
        if features == 0 || features % 2 == 1 {
            return Err(format!(
                "the number of Fourier features must be even and ≥ 2, got {features}"
            ));
        }
        if dim == 0 {
            return Err("a Fourier path needs dim ≥ 1".into());
        }
        let m = features / 2;
        let nu = 2.5;
        let gamma = Gamma::new(nu, 1.0 / nu).expect("shape and scale are positive");
        let mut frequencies = Vec::with_capacity(m * dim);
        for _ in 0..m {
            let start = frequencies.len();
            for _ in 0..dim {
                frequencies.push(StandardNormal.sample(rng));
            }
            let scale = match kernel.kind {
                KernelKind::Matern52 => {
                    let g: f64 = gamma.sample(rng);
                    1.0 / (kernel.length_scale * g.sqrt())
                }
                KernelKind::SquaredExponential => 1.0 / kernel.length_scale,
            };
            frequencies[start..].iter_mut().for_each(|w| *w *= scale);
        }
        let amplitude = (kernel.outputscale * 2.0 / features as f64).sqrt();
        let mut weights = || -> Vec<f64> {
            (0..m)
                .map(|_| {
                    let z: f64 = StandardNormal.sample(&mut *rng);
                    amplitude * z
                })
                .collect()
        };
        let sine_weights = weights();
        let cosine_weights = weights();
        Ok(FourierPath {
            dim,
            mean,
            frequencies,
            sine_weights,
            cosine_weights,
        })
    }

    /// Dimension `d`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// `f(x)`. Accuracy: a sum of `F` terms of size `~s·√(2/F)`, so an absolute error of a
    /// few `ε·s·√F`.
    pub fn value(&self, x: &[f64]) -> f64 {
        let mut sum = 0.0;
        for (j, w) in self.frequencies.chunks_exact(self.dim).enumerate() {
            let phase: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
            let (sin, cos) = phase.sin_cos();
            sum += self.sine_weights[j] * sin + self.cosine_weights[j] * cos;
        }
        self.mean + sum
    }

    /// `f(x)` and `∇f(x)` (written to `grad`, length `d`).
    pub fn value_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        grad.fill(0.0);
        let mut sum = 0.0;
        for (j, w) in self.frequencies.chunks_exact(self.dim).enumerate() {
            let phase: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
            let (sin, cos) = phase.sin_cos();
            let (a, b) = (self.sine_weights[j], self.cosine_weights[j]);
            sum += a * sin + b * cos;
            let slope = a * cos - b * sin;
            for (g, wi) in grad.iter_mut().zip(w) {
                *g += slope * wi;
            }
        }
        self.mean + sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn gradient_matches_central_differences() {
        let kernel = Kernel::default();
        let path =
            FourierPath::draw(&kernel, 0.0, 3, 64, &mut ChaCha8Rng::seed_from_u64(4)).unwrap();
        let x = [0.3, 0.6, 0.1];
        let mut grad = [0.0; 3];
        let v = path.value_and_gradient(&x, &mut grad);
        assert_eq!(v, path.value(&x));
        for i in 0..3 {
            let h = 1e-7;
            let (mut up, mut down) = (x, x);
            up[i] += h;
            down[i] -= h;
            let fd = (path.value(&up) - path.value(&down)) / (2.0 * h);
            assert!((grad[i] - fd).abs() < 1e-5 * grad[i].abs().max(1.0), "{i}");
        }
    }

    #[test]
    fn covariance_over_draws_is_the_kernel() {
        // Bochner: E over paths of f(x)f(x') = k(x, x'). 20000 paths of 16 features each; the
        // product has variance ≤ 2, so the Monte Carlo standard error is below 0.01.
        let kernel = Kernel::default();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let pairs = [
            ([0.5; 8], [0.5; 8]),
            ([0.5; 8], [0.52; 8]),
            ([0.2; 8], [0.23; 8]),
            ([0.1; 8], [0.15; 8]),
        ];
        let n = 20_000;
        let mut sums = [0.0; 4];
        for _ in 0..n {
            let path = FourierPath::draw(&kernel, 0.0, 8, 16, &mut rng).unwrap();
            for (s, (a, b)) in sums.iter_mut().zip(&pairs) {
                *s += path.value(a) * path.value(b);
            }
        }
        for (s, (a, b)) in sums.iter().zip(&pairs) {
            let want = kernel.eval(a, b);
            let got = s / n as f64;
            assert!((got - want).abs() < 0.04, "E f(a)f(b) = {got}, k = {want}");
        }
    }

    #[test]
    fn odd_feature_counts_are_refused() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let e = FourierPath::draw(&Kernel::default(), 0.0, 8, 3, &mut rng).unwrap_err();
        assert!(e.contains("even"), "{e}");
    }
}
