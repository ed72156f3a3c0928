//! The view of one BO step that acquisitions and stopping rules see.
pub use crate::gp::posterior::PathBank;
use rand_chacha::ChaCha8Rng;

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

/// Everything known after the `t`-th observation and the posterior update that follows it.
/// All costs are already scaled by `λ` (objective units).
pub struct StepView<'a> {
    /// Number of evaluations made so far (`t ≥ 1`), initial design included.
    pub t: usize,
    /// Size `T₀` of the initial design; `t - T₀` BO iterations have been made.
    pub initial: usize,
    /// Posterior mean at every domain point.
    pub mean: &'a [f64],
    /// Posterior standard deviation at every domain point (0 at evaluated points).
    pub sd: &'a [f64],
    /// Whether each domain point has been evaluated.
    pub evaluated: &'a [bool],
    /// `λ·c(x)` at every domain point.
    pub cost: &'a [f64],
    /// Indices of the evaluated points, in evaluation order.
    pub history_x: &'a [usize],
    /// Observed values `f(x_1), ..., f(x_t)` (noiseless).
    pub history_y: &'a [f64],
    /// Incumbent `y*_t = min_{s ≤ t} f(x_s)`.
    pub y_best: f64,
    /// Cumulative scaled cost `Σ_{s ≤ t} λ·c(x_s)`.
    pub cumulative_cost: f64,
    /// Joint posterior sampler for the current posterior.
    pub posterior: &'a dyn PosteriorSampler,
}

/// Chooses the next point to evaluate among the unevaluated ones.
pub trait Acquisition: Send + Sync {
    /// Short name used in tables (`"PBGI"`, `"LogEIPC"`, `"LCB"`, `"TS"`).
    fn name(&self) -> String;
    /// Index of the next point (must be unevaluated). `None` if every point is evaluated.
    fn choose(&self, step: &StepView, rng: &mut ChaCha8Rng) -> Option<usize>;
}

/// A stopping rule: observes each step, answers "stop now" or "go on".
/// Rules are stateful (debounce, medians of initial values, ...); a fresh rule is made per run.
pub trait StoppingRule: Send {
    /// Short name used in tables (`"PBGI/LogEIPC"`, `"UCB-LCB"`, `"PRB"`, ...).
    fn name(&self) -> String;
    /// Called once after every posterior update, in order; returns `true` to stop now.
    fn observe(&mut self, step: &StepView, rng: &mut ChaCha8Rng) -> bool;
}
