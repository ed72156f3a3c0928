//! Multi-start optimisation over the cube `[0, 1]^d`: screen many points, refine the best with
//! projected L-BFGS ([`super::lbfgs`]) on analytic gradients, keep the best result.
//!
//! Used for the acquisitions and the rules' statistics ([`Landscape`]: PBGI, LogEIPC, LCB, with
//! `pbgi_fast`'s derivatives in `μ`, `σ` and the cost chained through the posterior's
//! gradients in `x` and the cost function's), for Thompson sampling's posterior paths
//! ([`thompson_point`]), and for the objective's global minimum ([`global_minimum`]).
//!
//! Every optimum here is an *approximation* of a global optimum over a continuum: the best of
//! local searches from the screened points (the stopping paper's code does the same with
//! BoTorch's `optimize_acqf`). Results are deterministic functions of their inputs: ties go to
//! the lowest screen index, then to the first start.
use super::fourier::FourierPath;
use super::lbfgs::{minimise, Lbfgs, LbfgsOptions};
use super::posterior::{BatchScratch, ContinuousPosterior, Scratch};
use crate::bo::initial_design::scrambled_sobol;
use crate::bo::interface::ContinuousSpace;
use crate::bo::CostFunction;
use crate::gp::Kernel;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// `[search]`: how the continuous optimisations are made, and the continuous model's pieces.
/// The stopping paper's code's values are given beside each default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Screened points per run (a fixed scrambled Sobol set; the code draws `1024·d` = 8192
    /// fresh raw samples per optimisation).
    pub raw_samples: usize,
    /// L-BFGS starts from the best screened points, plus the previous step's optimum of the
    /// same function. Default [`AUTHORS_RESTARTS_8D`] = 80, the code's `num_restarts = 10·d`
    /// in 8-D (`scripts/bayesianoptimizer.py`, commit `7bb1efc`: every acquisition and every
    /// rule's statistic is maximised by `optimize_acqf(…, num_restarts=10*self.dim,
    /// raw_samples=1024*self.dim, gen_candidates=gen_candidates_torch)`); `paper-8d-cheap`
    /// keeps the former [`CHEAP_RESTARTS`] = 3. The starts of one function run in lockstep
    /// and are evaluated as one batch (`O(t²)` per start and evaluation).
    pub restarts: usize,
    /// Iteration cap of each L-BFGS run (default 30). BoTorch's `gen_candidates_torch`
    /// (< 0.10, as the code's `setup.py` requires; read at v0.9.5) runs Adam (learning rate
    /// 0.025) on the sum over the starts until an exponential moving average of that sum
    /// stops improving (relative tolerance `10⁻⁵`, window 10) or 10,000 steps.
    pub max_iterations: usize,
    /// Thompson sampling: scrambled Sobol points screened per posterior path (BoTorch's
    /// `optimize_posterior_samples` default: 1024).
    pub ts_raw_samples: usize,
    /// Thompson sampling: L-BFGS starts per path (BoTorch's default: 20).
    pub ts_restarts: usize,
    /// Fourier features of a Thompson path's prior part (BoTorch's default: 1024).
    pub ts_features: usize,
    /// Fourier features of the objective (the code: BoTorch's default, 1024).
    pub objective_features: usize,
    /// Scrambled Sobol points screened for the objective's global minimum (the code:
    /// `1024·d`).
    pub optimum_raw_samples: usize,
    /// L-BFGS starts for the objective's global minimum (the code: `20·d`).
    pub optimum_restarts: usize,
    /// The model's fixed noise variance `ε` (stopping paper, App. B: `10⁻⁶`).
    pub noise: f64,
}

/// The authors' number of starts per optimisation in 8-D: `10·d` (module documentation of
/// [`SearchConfig::restarts`]).
pub const AUTHORS_RESTARTS_8D: usize = 80;

/// The cheaper budget of `paper-8d-cheap` (this lab's default before the authors' was
/// adopted): 3 screened starts plus the previous optimum.
pub const CHEAP_RESTARTS: usize = 3;

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            raw_samples: 8192,
            restarts: AUTHORS_RESTARTS_8D,
            max_iterations: 30,
            ts_raw_samples: 1024,
            ts_restarts: 20,
            ts_features: 1024,
            objective_features: 1024,
            optimum_raw_samples: 8192,
            optimum_restarts: 160,
            noise: 1e-6,
        }
    }
}

impl SearchConfig {
    /// Checks ranges; errors name the key.
    pub fn validate(&self) -> Result<(), String> {
        // Upper bounds (`crate::study::bounds`' rule: checked before any work): screened point
        // sets of `d` coordinates each (`d ≤ 256`: 2^18 points hold 512 MiB), and counts of
        // optimisations that would otherwise run for ever.
        const MOST_POINTS: usize = 1 << 18;
        const MOST_STARTS: usize = 10_000;
        const MOST_FEATURES: usize = 1 << 16;
        for (key, value, most) in [
            ("raw_samples", self.raw_samples, MOST_POINTS),
            ("restarts", self.restarts, MOST_STARTS),
            ("max_iterations", self.max_iterations, MOST_STARTS),
            ("ts_raw_samples", self.ts_raw_samples, MOST_POINTS),
            ("ts_restarts", self.ts_restarts, MOST_STARTS),
            ("optimum_raw_samples", self.optimum_raw_samples, MOST_POINTS),
            ("optimum_restarts", self.optimum_restarts, MOST_STARTS),
        ] {
            if value == 0 {
                return Err(format!("search.{key}: must be ≥ 1"));
            }
            if value > most {
                return Err(format!(
                    "search.{key}: {value} is above the bound of {most}"
                ));
            }
        }
        for (key, value) in [
            ("ts_features", self.ts_features),
            ("objective_features", self.objective_features),
        ] {
            if value == 0 || value % 2 == 1 {
                return Err(format!("search.{key}: must be even and ≥ 2, got {value}"));
            }
            if value > MOST_FEATURES {
                return Err(format!(
                    "search.{key}: {value} is above the bound of {MOST_FEATURES}"
                ));
            }
        }
        if !(self.noise.is_finite() && self.noise > 0.0) {
            return Err(format!(
                "search.noise: must be finite and > 0, got {}",
                self.noise
            ));
        }
        Ok(())
    }

    fn lbfgs(&self) -> LbfgsOptions {
        LbfgsOptions {
            max_iterations: self.max_iterations,
            ..LbfgsOptions::default()
        }
    }
}

/// A point and the value found there (in minimisation form).
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The point.
    pub x: Vec<f64>,
    /// The minimised function's value at `x`.
    pub value: f64,
}

/// Indices of the `k` smallest non-NaN `scores` (ties: lower index first), in that order.
pub fn smallest(scores: &[f64], k: usize) -> Vec<usize> {
    let mut order: Vec<(f64, usize)> = scores
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_nan())
        .map(|(i, &s)| (s, i))
        .collect();
    let cmp = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    if k < order.len() {
        order.select_nth_unstable_by(k, cmp);
        order.truncate(k);
    }
    order.sort_unstable_by(cmp);
    order.into_iter().map(|(_, i)| i).collect()
}

/// The best of projected L-BFGS runs on `[0, 1]^d` from each of `starts` (`None` if every
/// run had a non-finite value at its start).
pub fn best_of_local_searches(
    starts: &[Vec<f64>],
    f: &mut dyn FnMut(&[f64], &mut [f64]) -> f64,
    options: &LbfgsOptions,
) -> Option<Found> {
    let d = starts.first()?.len();
    let (lo, hi) = (vec![0.0; d], vec![1.0; d]);
    let mut best: Option<Found> = None;
    for start in starts {
        let m = minimise(f, start, &lo, &hi, options);
        if m.value.is_finite() && best.as_ref().map_or(true, |b| m.value < b.value) {
            best = Some(Found {
                x: m.x,
                value: m.value,
            });
        }
    }
    best
}

/// A function evaluated at many points at once, in two phases: the values, then the
/// gradients at those of the points that need them.
pub trait BatchFunction {
    /// `f` at the `m` points (`points`: `m·d` coordinates), written to `values`.
    fn values(&mut self, points: &[f64], values: &mut [f64]);
    /// `∇f` at the points `selected` (indices into the last [`BatchFunction::values`] call's
    /// points), written row after row in the order of `selected`.
    fn gradients(&mut self, points: &[f64], selected: &[usize], gradients: &mut [f64]);
}

/// [`best_of_local_searches`] with the searches run in lockstep: at each round the pending
/// points of every unfinished search are evaluated by one call of `f.values`, and the
/// gradients by one call of `f.gradients` at the points where a search needs them
/// ([`Lbfgs::tell_value`]: not at trial points the value already rejects). Each search's
/// iterates depend only on its own values and gradients, so the result is that of
/// [`best_of_local_searches`] with the same values and gradients.
pub fn best_of_batched_local_searches(
    starts: &[Vec<f64>],
    f: &mut dyn BatchFunction,
    options: &LbfgsOptions,
) -> Option<Found> {
    let d = starts.first()?.len();
    let (lo, hi) = (vec![0.0; d], vec![1.0; d]);
    let mut searches: Vec<Lbfgs> = starts
        .iter()
        .map(|start| Lbfgs::new(start, &lo, &hi, options))
        .collect();
    let (mut points, mut values, mut gradients) = (Vec::new(), Vec::new(), Vec::new());
    let (mut waiting, mut selected) = (Vec::new(), Vec::new());
    loop {
        points.clear();
        waiting.clear();
        for (k, search) in searches.iter().enumerate() {
            if let Some(x) = search.pending() {
                points.extend_from_slice(x);
                waiting.push(k);
            }
        }
        if waiting.is_empty() {
            break;
        }
        values.resize(waiting.len(), 0.0);
        f.values(&points, &mut values);
        selected.clear();
        for (j, &k) in waiting.iter().enumerate() {
            if searches[k].tell_value(values[j]) {
                selected.push(j);
            }
        }
        if selected.is_empty() {
            continue;
        }
        gradients.resize(selected.len() * d, 0.0);
        f.gradients(&points, &selected, &mut gradients);
        for (row, &j) in selected.iter().enumerate() {
            searches[waiting[j]].tell_gradient(&gradients[row * d..(row + 1) * d]);
        }
    }
    let mut best: Option<Found> = None;
    for search in searches {
        let m = search.into_minimum();
        if m.value.is_finite() && best.as_ref().map_or(true, |b| m.value < b.value) {
            best = Some(Found {
                x: m.x,
                value: m.value,
            });
        }
    }
    best
}

/// The objective's global minimum on `[0, 1]^d`, approximated as in the stopping paper's code
/// (BoTorch's `optimize_posterior_samples`): `optimum_raw_samples` scrambled Sobol points
/// (scramble seed from `rng`), L-BFGS from the best `optimum_restarts` of them.
pub fn global_minimum(
    objective: &FourierPath,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
) -> Found {
    let d = objective.dim();
    let raw = scrambled_sobol(config.optimum_raw_samples, d, rng);
    let values: Vec<f64> = raw.chunks_exact(d).map(|x| objective.value(x)).collect();
    let starts: Vec<Vec<f64>> = smallest(&values, config.optimum_restarts)
        .into_iter()
        .map(|i| raw[i * d..(i + 1) * d].to_vec())
        .collect();
    let mut f = |x: &[f64], g: &mut [f64]| objective.value_and_gradient(x, g);
    let options = LbfgsOptions {
        max_iterations: 200,
        ..LbfgsOptions::default()
    };
    best_of_local_searches(&starts, &mut f, &options).expect("a Fourier path is finite")
}

/// The `λ`-scaled cost of one run: the function, its resolved anchor, and its values on the
/// posterior's screen.
#[derive(Clone, Debug)]
pub struct ScaledCost {
    function: CostFunction,
    anchor: Vec<f64>,
    lambda: f64,
    screen: Vec<f64>,
}

impl ScaledCost {
    /// `λ·c` with the anchor resolved; `screen_points` row after row in dimension `dim`.
    pub fn new(
        function: CostFunction,
        anchor: Vec<f64>,
        lambda: f64,
        screen_points: &[f64],
        dim: usize,
    ) -> ScaledCost {
        let screen = screen_points
            .chunks_exact(dim)
            .map(|x| lambda * function.eval(x, &anchor))
            .collect();
        ScaledCost {
            function,
            anchor,
            lambda,
            screen,
        }
    }

    /// `λ·c(x)`.
    pub fn value(&self, x: &[f64]) -> f64 {
        self.lambda * self.function.eval(x, &self.anchor)
    }

    /// `λ·c(x)` and its gradient.
    pub fn value_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let c = self.function.eval_with_gradient(x, &self.anchor, grad);
        grad.iter_mut().for_each(|g| *g *= self.lambda);
        self.lambda * c
    }
}

/// The functions of `(μ, σ, λc)` the continuous search minimises.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// `−LogEIPC = ln(λc) − ln EI(μ, σ; y*)` (its minimum is `−max LogEIPC`).
    LogEipc,
    /// The PBGI index `g(μ, σ, λc)`.
    Pbgi,
    /// `LCB = μ − √β·σ` with the given `√β`.
    Lcb {
        /// `√β`.
        sqrt_beta: f64,
    },
}

impl Target {
    fn slot(self) -> usize {
        match self {
            Target::LogEipc => 0,
            Target::Pbgi => 1,
            Target::Lcb { .. } => 2,
        }
    }

    /// The value (no gradient).
    pub fn value(self, mu: f64, sd: f64, cost: f64, y_best: f64) -> f64 {
        match self {
            Target::LogEipc => -pbgi_fast::log_eipc(mu, sd, y_best, cost),
            Target::Pbgi => pbgi_fast::pbgi(mu, sd, cost),
            Target::Lcb { sqrt_beta } => mu - sqrt_beta * sd,
        }
    }

    /// The value and its partial derivatives in `(μ, σ, λc)` (`pbgi_fast`'s gradients).
    pub fn value_and_partials(self, mu: f64, sd: f64, cost: f64, y_best: f64) -> [f64; 4] {
        match self {
            Target::LogEipc => {
                let g = pbgi_fast::log_ei_grad(mu, sd, y_best);
                [cost.ln() - g.value, -g.d_mu, -g.d_sigma, 1.0 / cost]
            }
            Target::Pbgi => {
                let g = pbgi_fast::pbgi_grad(mu, sd, cost);
                [g.value, g.d_mu, g.d_sigma, g.d_cost]
            }
            Target::Lcb { sqrt_beta } => [mu - sqrt_beta * sd, 1.0, -sqrt_beta, 0.0],
        }
    }
}

/// A target's value and gradient in `x`, by the chain rule through the posterior and the cost.
pub fn target_with_gradient(
    target: Target,
    posterior: &ContinuousPosterior,
    cost: &ScaledCost,
    y_best: f64,
    x: &[f64],
    scratch: &mut TargetScratch,
    grad: &mut [f64],
) -> f64 {
    let TargetScratch {
        posterior: buffers,
        mean_gradient,
        sd_gradient,
        cost_gradient,
    } = scratch;
    let d = x.len();
    mean_gradient.resize(d, 0.0);
    sd_gradient.resize(d, 0.0);
    cost_gradient.resize(d, 0.0);
    let (mu, sd) = posterior.mean_sd_with_gradient(x, buffers, mean_gradient, sd_gradient);
    let c = cost.value_and_gradient(x, cost_gradient);
    let [value, d_mu, d_sd, d_c] = target.value_and_partials(mu, sd, c, y_best);
    for i in 0..d {
        grad[i] = d_mu * mean_gradient[i] + d_sd * sd_gradient[i] + d_c * cost_gradient[i];
    }
    value
}

/// A target on one step's posterior as a [`BatchFunction`]: [`target_with_gradient`]'s values
/// and gradients bit for bit (through [`ContinuousPosterior::mean_sd_batch`] and
/// [`ContinuousPosterior::gradients_batch`]).
pub struct TargetBatch<'a> {
    target: Target,
    posterior: &'a ContinuousPosterior,
    cost: &'a ScaledCost,
    y_best: f64,
    scratch: BatchScratch,
    means: Vec<f64>,
    sds: Vec<f64>,
    /// Per point: `∂/∂μ`, `∂/∂σ`, `∂/∂(λc)` of the target.
    partials: Vec<[f64; 3]>,
    /// Per point: `∇(λc)` (`d` each).
    cost_gradients: Vec<f64>,
    mean_gradients: Vec<f64>,
    sd_gradients: Vec<f64>,
}

impl<'a> TargetBatch<'a> {
    /// `target` with this posterior, cost and incumbent.
    pub fn new(
        target: Target,
        posterior: &'a ContinuousPosterior,
        cost: &'a ScaledCost,
        y_best: f64,
    ) -> Self {
        Self {
            target,
            posterior,
            cost,
            y_best,
            scratch: BatchScratch::default(),
            means: Vec::new(),
            sds: Vec::new(),
            partials: Vec::new(),
            cost_gradients: Vec::new(),
            mean_gradients: Vec::new(),
            sd_gradients: Vec::new(),
        }
    }
}

impl BatchFunction for TargetBatch<'_> {
    fn values(&mut self, points: &[f64], values: &mut [f64]) {
        let d = self.posterior.dim();
        let m = points.len() / d;
        self.means.resize(m, 0.0);
        self.sds.resize(m, 0.0);
        self.partials.resize(m, [0.0; 3]);
        self.cost_gradients.resize(m * d, 0.0);
        self.posterior
            .mean_sd_batch(points, &mut self.scratch, &mut self.means, &mut self.sds);
        for j in 0..m {
            let x = &points[j * d..(j + 1) * d];
            let c = self
                .cost
                .value_and_gradient(x, &mut self.cost_gradients[j * d..(j + 1) * d]);
            let [value, d_mu, d_sd, d_c] =
                self.target
                    .value_and_partials(self.means[j], self.sds[j], c, self.y_best);
            self.partials[j] = [d_mu, d_sd, d_c];
            values[j] = value;
        }
    }

    fn gradients(&mut self, points: &[f64], selected: &[usize], gradients: &mut [f64]) {
        let d = self.posterior.dim();
        let n = selected.len();
        self.mean_gradients.resize(n * d, 0.0);
        self.sd_gradients.resize(n * d, 0.0);
        self.posterior.gradients_batch(
            points,
            &mut self.scratch,
            &self.sds,
            selected,
            &mut self.mean_gradients,
            &mut self.sd_gradients,
        );
        for (row, &j) in selected.iter().enumerate() {
            let [d_mu, d_sd, d_c] = self.partials[j];
            let cg = &self.cost_gradients[j * d..(j + 1) * d];
            let (mg, sg) = (
                &self.mean_gradients[row * d..(row + 1) * d],
                &self.sd_gradients[row * d..(row + 1) * d],
            );
            let grad = &mut gradients[row * d..(row + 1) * d];
            for i in 0..d {
                grad[i] = d_mu * mg[i] + d_sd * sg[i] + d_c * cg[i];
            }
        }
    }
}

/// Buffers for [`target_with_gradient`].
#[derive(Clone, Debug, Default)]
pub struct TargetScratch {
    posterior: Scratch,
    mean_gradient: Vec<f64>,
    sd_gradient: Vec<f64>,
    cost_gradient: Vec<f64>,
}

/// The previous step's optimum of each target, tried as one more start (the landscape moves
/// little from one step to the next).
#[derive(Clone, Debug, Default)]
pub struct WarmStarts {
    last: [Option<Vec<f64>>; 3],
}

/// One step's view of the continuous search space: the posterior, the cost and the incumbent,
/// and each target's optimum, found once on demand and shared by the rules and the
/// acquisition.
pub struct Landscape<'a> {
    posterior: &'a ContinuousPosterior,
    cost: &'a ScaledCost,
    y_best: f64,
    config: &'a SearchConfig,
    warm: &'a RefCell<WarmStarts>,
    found: RefCell<Vec<(Target, Found)>>,
}

impl<'a> Landscape<'a> {
    /// The landscape after the latest observation.
    pub fn new(
        posterior: &'a ContinuousPosterior,
        cost: &'a ScaledCost,
        y_best: f64,
        config: &'a SearchConfig,
        warm: &'a RefCell<WarmStarts>,
    ) -> Self {
        Self {
            posterior,
            cost,
            y_best,
            config,
            warm,
            found: RefCell::new(Vec::new()),
        }
    }

    /// The minimum of `target` over the cube (cached per step): the screen's best
    /// `restarts` points and the previous step's optimum, each refined by L-BFGS.
    pub fn minimum(&self, target: Target) -> Found {
        if let Some((_, found)) = self.found.borrow().iter().find(|(t, _)| *t == target) {
            return found.clone();
        }
        let p = self.posterior;
        let d = p.dim();
        let scores: Vec<f64> = p
            .screen_mean()
            .iter()
            .zip(p.screen_sd())
            .zip(&self.cost.screen)
            .map(|((&mu, &sd), &c)| target.value(mu, sd, c, self.y_best))
            .collect();
        let points = p.screen_points();
        let mut starts: Vec<Vec<f64>> = smallest(&scores, self.config.restarts)
            .into_iter()
            .map(|i| points[i * d..(i + 1) * d].to_vec())
            .collect();
        if let Some(previous) = &self.warm.borrow().last[target.slot()] {
            starts.push(previous.clone());
        }
        let mut f = TargetBatch::new(target, p, self.cost, self.y_best);
        let found = best_of_batched_local_searches(&starts, &mut f, &self.config.lbfgs())
            .unwrap_or_else(|| {
                // Every start was non-finite (cannot happen for valid posteriors and costs):
                // report the screen's first point with an infinite value, never chosen by a
                // rule as a stop signal.
                Found {
                    x: points[..d].to_vec(),
                    value: f64::INFINITY,
                }
            });
        self.warm.borrow_mut().last[target.slot()] = Some(found.x.clone());
        self.found.borrow_mut().push((target, found.clone()));
        found
    }
}

impl ContinuousSpace for Landscape<'_> {
    fn max_log_eipc(&self) -> f64 {
        -self.minimum(Target::LogEipc).value
    }

    fn min_pbgi(&self) -> f64 {
        self.minimum(Target::Pbgi).value
    }

    fn min_lcb(&self, sqrt_beta: f64) -> f64 {
        self.minimum(Target::Lcb { sqrt_beta }).value
    }

    fn mean_sd_given_first(&self, first: usize, s: usize) -> (f64, f64) {
        self.posterior
            .mean_sd_given_first(first, self.posterior.point(s))
    }
}

/// Thompson sampling's next point: the minimiser of one posterior sample path, drawn from
/// `rng` by pathwise (Matheron) conditioning of an RFF prior path, as BoTorch's
/// `draw_matheron_paths`: `f̃(x) + k(x, X)ᵀK⁻¹(y − f̃(X) − e)`, `e ~ N(0, εI)`; minimised from
/// `ts_raw_samples` fresh scrambled Sobol points and `ts_restarts` L-BFGS starts.
pub fn thompson_point(
    posterior: &ContinuousPosterior,
    prior_mean: f64,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<f64>, String> {
    let (d, t) = (posterior.dim(), posterior.len());
    let kernel: Kernel = *posterior.kernel();
    let prior = FourierPath::draw(&kernel, prior_mean, d, config.ts_features, rng)?;
    let noise_sd = posterior.noise().sqrt();
    let mut weights: Vec<f64> = (0..t)
        .map(|s| {
            let e: f64 = StandardNormal.sample(&mut *rng);
            posterior.values()[s] - prior.value(posterior.point(s)) - noise_sd * e
        })
        .collect();
    posterior.solve_in_place(&mut weights);
    let points = posterior.points();
    let path = |x: &[f64], grad: Option<(&mut [f64], &mut [f64])>| -> f64 {
        match grad {
            None => {
                prior.value(x)
                    + (0..t)
                        .map(|s| weights[s] * kernel.eval(&points[s * d..(s + 1) * d], x))
                        .sum::<f64>()
            }
            Some((grad, buffer)) => {
                let mut value = prior.value_and_gradient(x, grad);
                for s in 0..t {
                    value += weights[s]
                        * kernel.eval_with_gradient(x, &points[s * d..(s + 1) * d], buffer);
                    for (g, b) in grad.iter_mut().zip(buffer.iter()) {
                        *g += weights[s] * b;
                    }
                }
                value
            }
        }
    };
    let raw = scrambled_sobol(config.ts_raw_samples, d, rng);
    let values: Vec<f64> = raw.chunks_exact(d).map(|x| path(x, None)).collect();
    let starts: Vec<Vec<f64>> = smallest(&values, config.ts_restarts)
        .into_iter()
        .map(|i| raw[i * d..(i + 1) * d].to_vec())
        .collect();
    let mut buffer = vec![0.0; d];
    let mut f = |x: &[f64], g: &mut [f64]| path(x, Some((g, &mut buffer)));
    let found = best_of_local_searches(&starts, &mut f, &config.lbfgs())
        .ok_or_else(|| "Thompson sampling: the posterior path is not finite".to_string())?;
    Ok(found.x)
}
