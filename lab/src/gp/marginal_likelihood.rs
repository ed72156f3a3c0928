//! Fitting the model's isotropic length scale and output scale to the observations by maximum
//! marginal likelihood (`[prior] hyperparameters = "mll"`).
//!
//! # The likelihood
//! With observations `y` at points `X` (`t` of them), the configured kernel shape `ρ`, constant
//! mean `μ` and jitter `ε`, the model is `y ~ N(μ·1, s²·R(ℓ) + ε·I)`, `R(ℓ)_ij = ρ(‖x_i − x_j‖/ℓ)`.
//! The jitter is treated as *relative* to the output scale (it is: its default is `1e-8·s²`,
//! `gp::prior`): with `δ = ε/s₀²` for the configured `s₀²`, the fitted model is
//! `N(μ·1, s²·(R(ℓ) + δI))` and its jitter `δ·s²`. Then the output scale profiles out in closed
//! form: with `A = R(ℓ) + δI` and `q = (y − μ)ᵀA⁻¹(y − μ)`,
//!
//! ```text
//! log p(y | ℓ, s²) = −q/(2s²) − (t/2)·ln s² − ½·ln|A| − (t/2)·ln 2π,
//! ŝ²(ℓ) = q/t   (the maximiser over s²: the derivative −(t/2)/s² + q/(2s⁴) vanishes there),
//! ```
//!
//! so the profiled likelihood `log p(y | ℓ, ŝ²(ℓ)) = −(t/2)(1 + ln 2π ŝ²) − ½·ln|A|` is a function
//! of `ℓ` alone. `ŝ²` is floored at [`MIN_RELATIVE_OUTPUTSCALE`]`·s₀²` (a kernel needs `s² > 0`;
//! `q = 0` only if every observation equals the mean), and the profiled value is then the
//! likelihood at the floor, i.e. the maximum over `s² ≥` the floor.
//!
//! # The search
//! Over `u = ln ℓ` within the configured bounds: the profiled likelihood at
//! [`GRID_POINTS`] equally spaced values of `u` (bounds included), then a golden-section search
//! of [`GOLDEN_ITERATIONS`] steps in the two grid cells around the best grid point, and the best
//! value seen wins (earliest on ties). Deterministic, bounded (`GRID_POINTS + GOLDEN_ITERATIONS
//! + 2` Cholesky factorisations of `t × t`), and never worse than the grid; a local search alone
//! could settle on a worse of several modes, which small `t` makes common. A length scale at
//! which `A` is not numerically positive definite scores `−∞`.
use super::kernel::{Kernel, KernelKind};

/// Length-scale values tried on the grid of `ln ℓ` before the golden-section refinement.
pub const GRID_POINTS: usize = 17;

/// Golden-section steps after the grid (each shrinks the bracket by `0.618`: two grid cells
/// become `≈ 10⁻⁸` of one in `ln ℓ`).
pub const GOLDEN_ITERATIONS: usize = 40;

/// Floor of the fitted output scale, relative to the configured one.
pub const MIN_RELATIVE_OUTPUTSCALE: f64 = 1e-12;

/// Fewest observations refitted: with one observation the likelihood does not depend on `ℓ`
/// (`A = 1 + δ`), so the configured hyperparameters are kept until the second.
pub const MIN_OBSERVATIONS: usize = 2;

/// What the fit keeps fixed (the configured kernel shape, mean and relative jitter) and where
/// it searches the length scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MllFit {
    /// The kernel shape `ρ`.
    pub kind: KernelKind,
    /// The configured output scale `s₀²` (the unit of the jitter and of the floor of `ŝ²`).
    pub outputscale: f64,
    /// The constant mean `μ` (not fitted).
    pub mean: f64,
    /// The configured jitter `ε` (absolute, at `s₀²`; it scales with the fitted `s²`).
    pub jitter: f64,
    /// `[ℓ_min, ℓ_max]`, `0 < ℓ_min ≤ ℓ_max`, finite.
    pub length_scale_bounds: [f64; 2],
}

/// The hyperparameters the fit chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fitted {
    /// The kernel with the fitted `ℓ` and `ŝ²`.
    pub kernel: Kernel,
    /// The jitter of the fitted model, `δ·ŝ²`.
    pub jitter: f64,
    /// The log marginal likelihood at the fitted hyperparameters.
    pub log_likelihood: f64,
}

/// The profiled likelihood at one length scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// `ŝ²(ℓ)` (floored).
    pub outputscale: f64,
    /// `log p(y | ℓ, ŝ²(ℓ))`.
    pub log_likelihood: f64,
}

impl MllFit {
    /// The jitter relative to the output scale, `δ = ε/s₀²`.
    pub fn relative_jitter(&self) -> f64 {
        self.jitter / self.outputscale
    }

    /// The profiled likelihood at length scale `length_scale` (see the module documentation)
    /// of `values` observed at `points`; `None` where `R(ℓ) + δI` is not numerically positive
    /// definite.
    pub fn profile(&self, length_scale: f64, points: &[&[f64]], values: &[f64]) -> Option<Profile> {
        let shape = Kernel {
            kind: self.kind,
            length_scale,
            outputscale: 1.0,
        };
        let (quadratic, log_det) =
            quadratic_and_log_det(&shape, self.relative_jitter(), self.mean, points, values)?;
        let t = values.len() as f64;
        let outputscale = (quadratic / t).max(MIN_RELATIVE_OUTPUTSCALE * self.outputscale);
        let log_likelihood = -0.5 * quadratic / outputscale
            - 0.5 * t * outputscale.ln()
            - 0.5 * log_det
            - 0.5 * t * (2.0 * std::f64::consts::PI).ln();
        log_likelihood.is_finite().then_some(Profile {
            outputscale,
            log_likelihood,
        })
    }

    /// Fits `ℓ` and `s²` to `values` observed at `points` (the search of the module
    /// documentation). Errors: fewer than [`MIN_OBSERVATIONS`] observations, lengths that
    /// differ, or no length scale within the bounds with a positive definite `R(ℓ) + δI`.
    pub fn fit(&self, points: &[&[f64]], values: &[f64]) -> Result<Fitted, String> {
        if values.len() < MIN_OBSERVATIONS || points.len() != values.len() {
            return Err(format!(
                "a marginal-likelihood fit needs ≥ {MIN_OBSERVATIONS} observations, one per \
                 point; got {} values at {} points",
                values.len(),
                points.len()
            ));
        }
        let [low, high] = self.length_scale_bounds.map(f64::ln);
        let score = |u: f64| {
            let length_scale = u
                .exp()
                .clamp(self.length_scale_bounds[0], self.length_scale_bounds[1]);
            let profile = self.profile(length_scale, points, values);
            let value = profile.map_or(f64::NEG_INFINITY, |p| p.log_likelihood);
            (value, length_scale, profile)
        };
        let mut best: Option<(f64, f64, Profile)> = None;
        let mut consider = |(value, length_scale, profile): (f64, f64, Option<Profile>)| {
            if let Some(profile) = profile {
                if best.is_none_or(|(b, _, _)| value > b) {
                    best = Some((value, length_scale, profile));
                }
            }
            value
        };
        let cells = (GRID_POINTS - 1) as f64;
        let grid: Vec<f64> = (0..GRID_POINTS)
            .map(|i| low + (high - low) * i as f64 / cells)
            .collect();
        let values_on_grid: Vec<f64> = grid.iter().map(|&u| consider(score(u))).collect();
        let best_index = (0..GRID_POINTS).fold(0, |b, i| {
            if values_on_grid[i] > values_on_grid[b] {
                i
            } else {
                b
            }
        });
        if high > low && values_on_grid[best_index].is_finite() {
            // Golden section on the two cells around the best grid point (maximisation).
            let inverse_phi = (5.0_f64.sqrt() - 1.0) / 2.0;
            let mut a = grid[best_index.saturating_sub(1)];
            let mut b = grid[(best_index + 1).min(GRID_POINTS - 1)];
            let mut c = b - inverse_phi * (b - a);
            let mut d = a + inverse_phi * (b - a);
            let mut fc = consider(score(c));
            let mut fd = consider(score(d));
            for _ in 0..GOLDEN_ITERATIONS {
                if fc >= fd {
                    b = d;
                    d = c;
                    fd = fc;
                    c = b - inverse_phi * (b - a);
                    fc = consider(score(c));
                } else {
                    a = c;
                    c = d;
                    fc = fd;
                    d = a + inverse_phi * (b - a);
                    fd = consider(score(d));
                }
            }
        }
        let (log_likelihood, length_scale, profile) = best.ok_or_else(|| {
            format!(
                "no length scale in [{}, {}] gives a positive definite kernel matrix of the \
                 {} observations",
                self.length_scale_bounds[0],
                self.length_scale_bounds[1],
                values.len()
            )
        })?;
        Ok(Fitted {
            kernel: Kernel {
                kind: self.kind,
                length_scale,
                outputscale: profile.outputscale,
            },
            jitter: self.relative_jitter() * profile.outputscale,
            log_likelihood,
        })
    }
}

/// `log N(y; μ·1, K + εI)` with `K = kernel(X, X)`, by a Cholesky factorisation; `None` where
/// `K + εI` is not numerically positive definite.
pub fn log_marginal_likelihood(
    kernel: &Kernel,
    jitter: f64,
    mean: f64,
    points: &[&[f64]],
    values: &[f64],
) -> Option<f64> {
    let (quadratic, log_det) = quadratic_and_log_det(kernel, jitter, mean, points, values)?;
    let t = values.len() as f64;
    Some(-0.5 * quadratic - 0.5 * log_det - 0.5 * t * (2.0 * std::f64::consts::PI).ln())
}

/// `((y − μ)ᵀM⁻¹(y − μ), ln|M|)` for `M = kernel(X, X) + εI`, from its Cholesky factor `L`
/// (`q = ‖L⁻¹(y − μ)‖²`, `ln|M| = 2·Σ ln L_ii`); `None` if a pivot is not positive.
fn quadratic_and_log_det(
    kernel: &Kernel,
    jitter: f64,
    mean: f64,
    points: &[&[f64]],
    values: &[f64],
) -> Option<(f64, f64)> {
    let t = values.len();
    // Row-major lower triangle, row i of length i + 1 starting at i(i+1)/2.
    let mut factor = vec![0.0; t * (t + 1) / 2];
    let mut residual: Vec<f64> = values.iter().map(|y| y - mean).collect();
    let mut quadratic = 0.0;
    let mut log_det = 0.0;
    for i in 0..t {
        let start = i * (i + 1) / 2;
        for j in 0..=i {
            let mut entry = kernel.eval(points[i], points[j]);
            if i == j {
                entry += jitter;
            }
            let row_j = j * (j + 1) / 2;
            for k in 0..j {
                entry -= factor[start + k] * factor[row_j + k];
            }
            if i == j {
                if entry.is_nan() || entry <= 0.0 {
                    return None;
                }
                factor[start + i] = entry.sqrt();
            } else {
                factor[start + j] = entry / factor[row_j + j];
            }
        }
        // Forward substitution, one row at a time: residual[i] ← (L⁻¹(y − μ))_i.
        let projected: f64 = (0..i).map(|k| factor[start + k] * residual[k]).sum();
        residual[i] = (residual[i] - projected) / factor[start + i];
        quadratic += residual[i] * residual[i];
        log_det += 2.0 * factor[start + i].ln();
    }
    Some((quadratic, log_det))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gp::{Domain, Problem};
    use nalgebra::{DMatrix, DVector};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `log N(y; μ·1, K + εI)` the dense way: the determinant and the solve by LU (no
    /// Cholesky, no triangular structure).
    fn dense_log_likelihood(
        kernel: &Kernel,
        jitter: f64,
        mean: f64,
        points: &[Vec<f64>],
        values: &[f64],
    ) -> f64 {
        let t = values.len();
        let matrix = DMatrix::from_fn(t, t, |i, j| {
            kernel.eval(&points[i], &points[j]) + if i == j { jitter } else { 0.0 }
        });
        let residual = DVector::from_iterator(t, values.iter().map(|y| y - mean));
        let lu = matrix.lu();
        let solved = lu.solve(&residual).unwrap();
        -0.5 * residual.dot(&solved)
            - 0.5 * lu.determinant().ln()
            - 0.5 * t as f64 * (2.0 * std::f64::consts::PI).ln()
    }

    fn random_case(seed: u64, t: usize, dim: usize) -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let points = (0..t)
            .map(|_| (0..dim).map(|_| rng.gen::<f64>()).collect())
            .collect();
        let values = (0..t).map(|_| rng.gen_range(-2.0..2.0)).collect();
        (points, values)
    }

    fn fit_of(kind: KernelKind) -> MllFit {
        MllFit {
            kind,
            outputscale: 1.3,
            mean: 0.2,
            jitter: 1.3e-3,
            length_scale_bounds: [0.01, 0.5],
        }
    }

    #[test]
    fn the_log_marginal_likelihood_matches_a_dense_computation() {
        let (points, values) = random_case(7, 9, 2);
        let refs: Vec<&[f64]> = points.iter().map(Vec::as_slice).collect();
        for kind in [KernelKind::Matern52, KernelKind::SquaredExponential] {
            let kernel = Kernel {
                kind,
                length_scale: 0.3,
                outputscale: 1.7,
            };
            let got = log_marginal_likelihood(&kernel, 1e-3, 0.2, &refs, &values).unwrap();
            let want = dense_log_likelihood(&kernel, 1e-3, 0.2, &points, &values);
            assert!(
                (got - want).abs() < 1e-10 * want.abs(),
                "{kind:?}: {got} vs {want}"
            );
        }
    }

    #[test]
    fn the_profiled_output_scale_is_the_argmax() {
        let (points, values) = random_case(11, 8, 3);
        let refs: Vec<&[f64]> = points.iter().map(Vec::as_slice).collect();
        for kind in [KernelKind::Matern52, KernelKind::SquaredExponential] {
            let fit = fit_of(kind);
            for length_scale in [0.05, 0.2, 0.45] {
                let profile = fit.profile(length_scale, &refs, &values).unwrap();
                // The model at (ℓ, s²): jitter δ·s², as the fit defines it.
                let at = |s2: f64| {
                    let kernel = Kernel {
                        kind,
                        length_scale,
                        outputscale: s2,
                    };
                    dense_log_likelihood(&kernel, fit.relative_jitter() * s2, 0.2, &points, &values)
                };
                let s2 = profile.outputscale;
                let best = at(s2);
                assert!(
                    (profile.log_likelihood - best).abs() < 1e-9 * best.abs(),
                    "{kind:?} ℓ = {length_scale}: {} vs {best}",
                    profile.log_likelihood
                );
                // A maximum: lower on both sides, and a vanishing central difference.
                let h = 1e-4 * s2;
                let (up, down) = (at(s2 + h), at(s2 - h));
                assert!(up < best && down < best, "{kind:?} ℓ = {length_scale}");
                let slope = (up - down) / (2.0 * h);
                let scale = (at(2.0 * s2) - best).abs() / s2;
                assert!(slope.abs() < 1e-5 * scale, "{kind:?}: slope {slope:e}");
            }
        }
    }

    #[test]
    fn the_fit_is_the_best_length_scale_of_a_fine_scan() {
        for (seed, t) in [(3, 5), (4, 12), (5, 25)] {
            let (points, values) = random_case(seed, t, 1);
            let refs: Vec<&[f64]> = points.iter().map(Vec::as_slice).collect();
            let fit = fit_of(KernelKind::Matern52);
            let fitted = fit.fit(&refs, &values).unwrap();
            let [low, high] = fit.length_scale_bounds.map(f64::ln);
            let scan = (0..=2000)
                .map(|i| (low + (high - low) * i as f64 / 2000.0).exp())
                .filter_map(|l| fit.profile(l, &refs, &values))
                .map(|p| p.log_likelihood)
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                fitted.log_likelihood >= scan - 1e-6 * scan.abs(),
                "t = {t}: fit {} < scan {scan}",
                fitted.log_likelihood
            );
            let ell = fitted.kernel.length_scale;
            assert!((0.01..=0.5).contains(&ell), "{ell}");
            let again = fit.profile(ell, &refs, &values).unwrap();
            assert_eq!(again.log_likelihood, fitted.log_likelihood);
            assert_eq!(again.outputscale, fitted.kernel.outputscale);
            assert_eq!(fitted.jitter, fit.relative_jitter() * again.outputscale);
        }
    }

    #[test]
    fn the_fit_recovers_the_length_scale_of_the_prior_it_observes() {
        // Prior draws on a 1001-point grid with a known ℓ and s², observed at 101 evenly
        // spaced points (fixed seed). On a fixed domain only the Matérn-5/2 "microergodic"
        // ratio s²/ℓ⁵ is estimated consistently (Zhang 2004, infill asymptotics); ℓ is
        // still well determined when it is small beside the domain, s² alone much less (a
        // path over 1/ℓ correlation lengths holds few independent looks at the variance).
        // Bounds from the first run of this seed, whose worst cases were 16% (ℓ), a factor
        // 1.35 (s²/ℓ⁵) and 2.6 (s²): ℓ within 25%, s²/ℓ⁵ within a factor 1.5, s² within 3.
        for (truth, outputscale) in [(0.05, 1.0), (0.1, 2.0), (0.2, 0.5)] {
            let kernel = Kernel {
                kind: KernelKind::Matern52,
                length_scale: truth,
                outputscale,
            };
            let problem = Problem::new(
                Domain::grid_1d(1001).unwrap(),
                kernel,
                0.0,
                1e-8 * outputscale,
            )
            .unwrap();
            let fit = MllFit {
                kind: KernelKind::Matern52,
                outputscale,
                mean: 0.0,
                jitter: 1e-8 * outputscale,
                length_scale_bounds: [0.01, 0.5],
            };
            let mut rng = ChaCha8Rng::seed_from_u64(2026);
            for draw in 0..3 {
                let path = problem.sample(&mut rng);
                let indices: Vec<usize> = (0..=100).map(|i| 10 * i).collect();
                let points: Vec<&[f64]> =
                    indices.iter().map(|&i| problem.domain().point(i)).collect();
                let values: Vec<f64> = indices.iter().map(|&i| path[i]).collect();
                let fitted = fit.fit(&points, &values).unwrap();
                let (ell, s2) = (fitted.kernel.length_scale, fitted.kernel.outputscale);
                let microergodic = (s2 / ell.powi(5)) / (outputscale / truth.powi(5));
                let context = format!("ℓ = {truth}, s² = {outputscale}, draw {draw}");
                assert!((ell / truth - 1.0).abs() < 0.25, "{context}: ℓ {ell}");
                assert!(
                    microergodic.ln().abs() < 1.5_f64.ln(),
                    "{context}: {microergodic}"
                );
                assert!(
                    (s2 / outputscale).ln().abs() < 3.0_f64.ln(),
                    "{context}: s² {s2}"
                );
            }
        }
    }

    #[test]
    fn fits_need_two_observations_and_a_valid_length_scale() {
        let fit = fit_of(KernelKind::Matern52);
        let e = fit.fit(&[&[0.5]], &[1.0]).unwrap_err();
        assert!(e.contains("≥ 2 observations"), "{e}");
        // The same point twice without jitter: singular at every length scale.
        let singular = MllFit { jitter: 0.0, ..fit };
        let e = singular.fit(&[&[0.5], &[0.5]], &[1.0, 1.0]).unwrap_err();
        assert!(e.contains("positive definite"), "{e}");
        // Every observation at the mean: ŝ² is the floor, and the fit still succeeds.
        let flat = fit.fit(&[&[0.1], &[0.9]], &[0.2, 0.2]).unwrap();
        assert_eq!(flat.kernel.outputscale, MIN_RELATIVE_OUTPUTSCALE * 1.3);
    }
}
