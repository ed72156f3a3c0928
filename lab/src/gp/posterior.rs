//! The exact noiseless GP posterior on the domain, updated one observation at a time.
//!
//! # Algorithm (bordering update of the Cholesky factor)
//! With observed points `X = (x_1..x_t)`, `K_XX = L·Lᵀ` (the prior's `K + εI` restricted to `X`)
//! and `V = L⁻¹·K_XD` (`t × n`), the posterior on the whole domain `D` is
//!
//! ```text
//! mean = μ + Vᵀ·a,   a = L⁻¹·(y - μ),     var = diag(K_DD) - Σ_s V[s,·]²
//! ```
//!
//! Adding `x_{t+1} = D[j]` borders `L` with the row `ℓ = V[·, j]` (already at hand: column `j`
//! of `V` *is* `L⁻¹·K_{X,x_{t+1}}`) and the diagonal `d = √(K_jj - ‖ℓ‖²)` = the posterior sd at
//! `j`; the new row of `V` is `(K_{j,D} - ℓᵀ·V)/d` and `a_{t+1} = (y_{t+1} - μ - ℓᵀa)/d`.
//! Each update costs `O(t·n)`; the factor is never recomputed. `d² ≥ ε` for an unevaluated
//! point because `K + εI ⪰ εI`, so the division is safe.
//!
//! Evaluated points get `mean = y` and `sd = 0` exactly (their true posterior), so the
//! expected improvement there is exactly 0.
//!
//! # Sampling
//! [`Posterior`] implements [`PosteriorSampler`] by pathwise conditioning (Matheron's rule):
//! a prior draw `f̃ ~ N(μ, K + εI)` (`Problem::sample_into`) is moved to
//! `f̃ + Vᵀ·L⁻¹·(y - f̃_X)`, which has exactly the posterior's joint law.
//!
//! The same update can be applied one observation at a time to paths kept from step to step
//! ([`PathBank`]): with `g` the path conditioned on the first `u` observations, the forward
//! substitution gives `r_{u+1} = (y_{u+1} - g(x_{u+1}))/d_{u+1}` (the terms `Σ_k L[u+1,k]·r_k`
//! cancel because `L[u+1,k] = V[k, x_{u+1}]`), and `g ← g + r_{u+1}·V[u+1,·]`: `O(n)` per path
//! and observation, and a path conditioned this way is an exact posterior draw at every step.
//!
//! # Refitted models
//! A posterior whose hyperparameters were refitted (`[prior] hyperparameters = "mll"`) is
//! rebuilt from scratch on a new model prior ([`Posterior::rebuilt`]) and carries a model
//! number one higher than the one it replaces. A bank's paths were drawn from an earlier
//! model's prior, so a bank whose model number differs is emptied and redrawn whole.
use super::prior::Problem;
use rand_chacha::ChaCha8Rng;
use std::borrow::Cow;

/// Prior paths kept across steps and conditioned on the observations as they arrive.
#[derive(Clone, Debug, Default)]
pub struct PathBank {
    /// Paths one after another (`n_points` values each), conditioned on the first
    /// `conditioned_on` observations.
    pub paths: Vec<f64>,
    /// Number of observations the paths are conditioned on.
    pub conditioned_on: usize,
    /// The model number of the posterior that drew the paths (see the module documentation).
    pub model: u64,
}

impl PathBank {
    /// An empty bank.
    pub fn new() -> PathBank {
        PathBank::default()
    }

    /// Number of paths, given the domain size.
    pub fn len(&self, n_points: usize) -> usize {
        self.paths.len() / n_points.max(1)
    }
}

/// Posterior of `f` on the domain given noiseless observations.
#[derive(Clone, Debug)]
pub struct Posterior<'p> {
    /// The model prior: the configured one (borrowed), or a refitted one (owned).
    problem: Cow<'p, Problem>,
    /// 0 for a posterior of the configured prior, one more for each refitted model.
    model: u64,
    observed: Vec<usize>,
    values: Vec<f64>,
    /// Rows of the lower-triangular factor of `K_XX` (row `s` has `s + 1` entries).
    factor_rows: Vec<Vec<f64>>,
    /// Rows of `V = L⁻¹·K_XD`, each of length `n`.
    v_rows: Vec<Vec<f64>>,
    /// `a = L⁻¹·(y - μ)`.
    weights: Vec<f64>,
    mean: Vec<f64>,
    var: Vec<f64>,
    sd: Vec<f64>,
    evaluated: Vec<bool>,
}

impl<'p> Posterior<'p> {
    /// The prior (no observations).
    pub fn new(problem: &'p Problem) -> Posterior<'p> {
        Self::with_model(Cow::Borrowed(problem), 0)
    }

    /// The posterior of model prior `problem` (a refit of this posterior's model) given this
    /// posterior's observations, in their order, with a model number one higher. Errors as
    /// [`Posterior::observe`]; `problem` must be on the same domain.
    pub fn rebuilt(&self, problem: Problem) -> Result<Posterior<'p>, String> {
        if problem.domain() != self.problem.domain() {
            return Err("a rebuilt posterior must keep its domain".into());
        }
        let mut rebuilt = Self::with_model(Cow::Owned(problem), self.model + 1);
        for (&j, &y) in self.observed.iter().zip(&self.values) {
            rebuilt.observe(j, y)?;
        }
        Ok(rebuilt)
    }

    fn with_model(problem: Cow<'p, Problem>, model: u64) -> Posterior<'p> {
        let n = problem.n_points();
        let var: Vec<f64> = (0..n).map(|i| problem.covariance(i, i)).collect();
        let mean = problem.mean();
        Posterior {
            problem,
            model,
            observed: Vec::new(),
            values: Vec::new(),
            factor_rows: Vec::new(),
            v_rows: Vec::new(),
            weights: Vec::new(),
            mean: vec![mean; n],
            sd: var.iter().map(|v| v.sqrt()).collect(),
            var,
            evaluated: vec![false; n],
        }
    }

    /// Conditions on `f(D[j]) = y`.
    ///
    /// Errors: `j` out of range, `j` already observed (the factor would be singular), or `y`
    /// not finite.
    pub fn observe(&mut self, j: usize, y: f64) -> Result<(), String> {
        let n = self.problem.n_points();
        if j >= n {
            return Err(format!("point index {j} is outside the domain (0..{n})"));
        }
        if self.evaluated[j] {
            return Err(format!("point {j} has already been evaluated"));
        }
        if !y.is_finite() {
            return Err(format!("observed value at point {j} is not finite: {y}"));
        }
        let border: Vec<f64> = self.v_rows.iter().map(|row| row[j]).collect();
        let schur = self.problem.covariance(j, j) - border.iter().map(|l| l * l).sum::<f64>();
        if schur.is_nan() || schur <= 0.0 {
            return Err(format!(
                "posterior variance at point {j} is {schur:e} ≤ 0; increase the jitter"
            ));
        }
        let diag = schur.sqrt();
        let mut new_row = vec![0.0; n];
        self.problem.covariance_column_into(j, &mut new_row);
        for (row, &l) in self.v_rows.iter().zip(&border) {
            for (out, &v) in new_row.iter_mut().zip(row) {
                *out -= l * v;
            }
        }
        for out in new_row.iter_mut() {
            *out /= diag;
        }
        let projected: f64 = border.iter().zip(&self.weights).map(|(l, a)| l * a).sum();
        let weight = (y - self.problem.mean() - projected) / diag;
        // Evaluated points keep their exact posterior (mean y, variance 0) rather than
        // accumulating rounding noise.
        let columns = self.mean.iter_mut().zip(&mut self.var).zip(&mut self.sd);
        for (((m, var), sd), (&v, &done)) in columns.zip(new_row.iter().zip(&self.evaluated)) {
            if done {
                continue;
            }
            *m += v * weight;
            *var -= v * v;
            *sd = var.max(0.0).sqrt();
        }
        let mut factor_row = border;
        factor_row.push(diag);
        self.factor_rows.push(factor_row);
        self.v_rows.push(new_row);
        self.weights.push(weight);
        self.observed.push(j);
        self.values.push(y);
        self.evaluated[j] = true;
        self.mean[j] = y;
        self.var[j] = 0.0;
        self.sd[j] = 0.0;
        Ok(())
    }

    /// The model prior this posterior conditions (the configured prior, or a refitted one).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// 0 for the configured prior's posterior, one more per refitted model.
    pub fn model(&self) -> u64 {
        self.model
    }

    /// Posterior mean on the domain.
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// Posterior standard deviation on the domain (0 at evaluated points).
    pub fn sd(&self) -> &[f64] {
        &self.sd
    }

    /// Posterior variance on the domain (0 at evaluated points).
    pub fn variance(&self) -> &[f64] {
        &self.var
    }

    /// Evaluated flags.
    pub fn evaluated(&self) -> &[bool] {
        &self.evaluated
    }

    /// Observed indices, in order.
    pub fn observed(&self) -> &[usize] {
        &self.observed
    }

    /// Observed values, in order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Conditions `path` (a draw conditioned on the first `from` observations) on the
    /// observations `from..t` (see the module documentation).
    fn condition_path(&self, path: &mut [f64], from: usize) {
        for u in from..self.observed.len() {
            let (j, y) = (self.observed[u], self.values[u]);
            let diag = self.factor_rows[u][u];
            let r = (y - path[j]) / diag;
            for (p, &v) in path.iter_mut().zip(&self.v_rows[u]) {
                *p += v * r;
            }
            path[j] = y;
        }
        // Observed points carry their observed values exactly (their posterior is a point mass).
        for (&j, &y) in self.observed.iter().zip(&self.values) {
            path[j] = y;
        }
    }
}

/// Exact joint sampling from the current posterior over the whole finite domain
/// (Thompson sampling, PRB).
pub trait PosteriorSampler {
    /// Number of domain points.
    fn n_points(&self) -> usize;
    /// Draws `n_paths` fresh joint posterior sample paths, appended to `out` path by path
    /// (`out.len()` grows by `n_paths * n_points()`).
    fn sample_paths(&self, rng: &mut ChaCha8Rng, n_paths: usize, out: &mut Vec<f64>);
    /// Brings `bank` up to date: its paths (prior draws from earlier steps) are conditioned on
    /// the observations made since, and fresh draws conditioned on all of them are appended
    /// until it holds at least `n_paths` paths. Every path is then an exact posterior draw.
    fn update_bank(&self, rng: &mut ChaCha8Rng, bank: &mut PathBank, n_paths: usize);
}

impl PosteriorSampler for Posterior<'_> {
    fn n_points(&self) -> usize {
        self.problem.n_points()
    }

    /// Exact joint posterior draws by pathwise conditioning (see the module documentation):
    /// a prior draw (`O(n log n)` on a regular grid, `O(n²)` otherwise) plus `O(t·n)`.
    fn sample_paths(&self, rng: &mut ChaCha8Rng, n_paths: usize, out: &mut Vec<f64>) {
        let n = self.problem.n_points();
        let start = out.len();
        self.problem.sample_into(rng, n_paths, out);
        for path in out[start..].chunks_exact_mut(n) {
            self.condition_path(path, 0);
        }
    }

    /// Conditions the bank's paths on the observations made since its last update (`O(n)`
    /// per path and observation), then appends fresh prior draws conditioned on everything
    /// until it holds `n_paths` paths. A bank drawn under another model (a refit since) is
    /// emptied first, so it is then redrawn whole.
    fn update_bank(&self, rng: &mut ChaCha8Rng, bank: &mut PathBank, n_paths: usize) {
        let n = self.problem.n_points();
        if bank.model != self.model {
            // Drawn from another model's prior: no longer draws of this posterior.
            bank.paths.clear();
            bank.conditioned_on = 0;
            bank.model = self.model;
        }
        let from = bank.conditioned_on.min(self.observed.len());
        for path in bank.paths.chunks_exact_mut(n) {
            self.condition_path(path, from);
        }
        let have = bank.len(n);
        if n_paths > have {
            let start = bank.paths.len();
            self.problem
                .sample_into(rng, n_paths - have, &mut bank.paths);
            for path in bank.paths[start..].chunks_exact_mut(n) {
                self.condition_path(path, 0);
            }
        }
        bank.conditioned_on = self.observed.len();
    }
}
