//! The view of one BO step that acquisitions and stopping rules see.
pub use crate::gp::posterior::{PathBank, PosteriorSampler};
use rand_chacha::ChaCha8Rng;

/// What stopping rules need from a continuous search space (`[0, 1]^d`), where nothing can be
/// scanned point by point: the optima of the rules' statistics (each an approximation found
/// by multi-start optimisation, `continuous::search`), and earlier posteriors at evaluated
/// points.
pub trait ContinuousSpace {
    /// `max_x LogEIPC_t(x)`.
    fn max_log_eipc(&self) -> f64;
    /// `min_x PBGI_t(x)`.
    fn min_pbgi(&self) -> f64;
    /// `min_x (μ_t(x) − √β·σ_t(x))`.
    fn min_lcb(&self, sqrt_beta: f64) -> f64;
    /// Posterior mean and sd at the `s`-th evaluated point given the first `first`
    /// observations.
    fn mean_sd_given_first(&self, first: usize, s: usize) -> (f64, f64);
}

/// Everything known after the `t`-th observation and the posterior update that follows it.
/// All costs are already scaled by `λ` (objective units).
///
/// On a finite domain the slices cover every domain point and `history_x` holds domain
/// indices. On the continuous cube (`continuous` is set) they cover the evaluated points only,
/// in evaluation order (`history_x[s] = s`, all `evaluated`), and whole-space questions go to
/// [`ContinuousSpace`]; the methods below answer them in both cases.
pub struct StepView<'a> {
    /// Number of evaluations made so far (`t ≥ 1`), initial design included.
    pub t: usize,
    /// Size `T₀` of the initial design; `t - T₀` BO iterations have been made.
    pub initial: usize,
    /// Posterior mean at every domain point (continuous: at every evaluated point).
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
    /// Joint posterior sampler over the finite domain (`None` on the continuous cube).
    pub posterior: Option<&'a dyn PosteriorSampler>,
    /// The continuous search space (`None` on a finite domain).
    pub continuous: Option<&'a dyn ContinuousSpace>,
}

impl StepView<'_> {
    /// `max LogEIPC_t(x)` over the candidates (stopping paper eq. 4; `pbgi_fast::log_eipc`):
    /// the unevaluated domain points (`−∞` if none is left), or the cube.
    pub fn max_log_eipc(&self) -> f64 {
        match self.continuous {
            Some(space) => space.max_log_eipc(),
            None => (0..self.evaluated.len())
                .filter(|&i| !self.evaluated[i])
                .map(|i| pbgi_fast::log_eipc(self.mean[i], self.sd[i], self.y_best, self.cost[i]))
                .fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// `min PBGI_t(x)` over the candidates (`None` if no domain point is left).
    pub fn min_pbgi(&self) -> Option<f64> {
        match self.continuous {
            Some(space) => Some(space.min_pbgi()),
            None => super::pbgi_scan::pbgi_argmin(self.mean, self.sd, self.cost, self.evaluated)
                .map(|(_, g)| g),
        }
    }

    /// `min_x (μ_t(x) − √β·σ_t(x))` over the whole domain or cube.
    pub fn min_lcb(&self, sqrt_beta: f64) -> f64 {
        match self.continuous {
            Some(space) => space.min_lcb(sqrt_beta),
            None => self
                .mean
                .iter()
                .zip(self.sd)
                .map(|(m, s)| m - sqrt_beta * s)
                .fold(f64::INFINITY, f64::min),
        }
    }

    /// `min_{x evaluated} (μ_t(x) + √β·σ_t(x))` (`+∞` before any evaluation). In the
    /// noiseless finite model this is the incumbent `y*`.
    pub fn min_ucb_evaluated(&self, sqrt_beta: f64) -> f64 {
        self.mean
            .iter()
            .zip(self.sd)
            .zip(self.evaluated)
            .filter(|(_, &done)| done)
            .map(|((m, s), _)| m + sqrt_beta * s)
            .fold(f64::INFINITY, f64::min)
    }
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
