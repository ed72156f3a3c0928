//! Theorem 1 on trial: simulate BO with the PBGI/LogEIPC stopping rule on prior samples and
//! compare the mean cost up to stopping with `C + U` (stopping paper, Thm 1 and App. A).
//!
//! # Centred coordinates
//! Everything the study reports (costs, `C`, `U = μ − E[min f]`, regrets, the margin and its
//! parts) is invariant under a shift of the prior mean, and so are the acquisitions and the
//! stopping rule (PBGI shifts with the mean, EI and LogEIPC do not change). The study therefore
//! simulates `f − μ`, a prior with mean 0, and reports in those coordinates; `μ` is only
//! echoed. A mean of `1e16` then gives exactly the results of a mean of 0, where simulating
//! `f` itself would drown the function's variation (unit scale) in the rounding of `1e16`.
//!
//! # Per sample `i` (one objective, shared by every configuration)
//! `f_i − μ ~ N(0, K + εI)` on the domain, the initial design (Theorem 1: one point, the first
//! of a scrambled Sobol sequence snapped to the domain, independent of `f`), and the periodic
//! cost's anchor are drawn from the stream `(seed, OBJECTIVE, i)`. Configuration `k` then runs
//! BO on `f_i` with its own stream `(seed, RUN, i, k)` (Thompson sampling's draws). Every sample
//! is a pure function of `(seed, i)`, so results do not depend on the number of threads, the
//! order in which samples run, or how the samples are split into shards.
//!
//! # What is measured per run
//! `cost = Σ_{t≤τ} λc(x_t)`, `C = Σ` over the initial design, `U_i = μ − min f_i` (exact minimum
//! on the finite domain), the incumbents `y*_1` (after the initial design) and `y*_τ`, the sum
//! of `EI_t(x_{t+1})` over the acquisitions made (the left side of eq. 19), and how often a
//! chosen point had `EI < c` (step 1, eq. 17; it should never happen in the theorem's setting).
//!
//! Per sample, exactly, `C + U_i − cost = (y*_τ − min f)` (simple regret: step 2's slack)
//! `+ Σ(EI_t(x_{t+1}) − c(x_{t+1}))` (step 1's slack, ≥ 0 in the theorem's setting)
//! `+ [(y*_1 − y*_τ) − ΣEI]` (the "martingale" residual, mean exactly 0 by eqs. 18–19: a check
//! of the exact posterior) `+ (μ − y*_1)` (the "start" residual, mean 0 because `x_1` is
//! independent of `f`: a check of the prior mean and of the sampling).
use crate::acquisitions::AcquisitionName;
use crate::bo::{
    initial_design, run_bo, scaled_costs, Acquisition, Control, CostFunction, EndReason, StepView,
    StoppingRule, Task,
};
use crate::gp::Problem;
use crate::rules::pbgi_logeipc::{PbgiStoppingRule, PracticalOptions, StopForm};
use crate::study::config::CostName;
use crate::study::progress::Progress;
use crate::study::seeding::stream;
use crate::study::shard::Shard;
use crate::study::stats::Estimate;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Mutex;

/// Stream label of a sample's objective, design and anchor.
const OBJECTIVE_STREAM: u64 = 1;
/// Stream label of one configuration's run on a sample.
const RUN_STREAM: u64 = 2;

/// Relative shortfall `1 - EI/c` below which a chosen point counts as violating step 1.
/// The fast crate's EI and PBGI are accurate to a few ULP; `1e-9` leaves a wide band for ties
/// (`g(x) = y*` exactly), where `EI = c` and rounding decides the side.
pub const STEP1_TOLERANCE: f64 = 1e-9;

/// One configuration: cost function, scale `λ`, acquisition.
#[derive(Clone, Debug, PartialEq)]
pub struct Configuration {
    /// The cost function's configuration name.
    pub cost_name: CostName,
    /// Unscaled cost function.
    pub cost: CostFunction,
    /// Cost scale `λ > 0`.
    pub lambda: f64,
    /// Acquisition.
    pub acquisition: AcquisitionName,
}

/// A complete study: the prior, the configurations, and the loop's settings.
#[derive(Clone, Debug)]
pub struct Study {
    /// The prior (domain, kernel, jitter) in centred coordinates: mean 0.
    pub problem: Problem,
    /// The theorem's prior mean `μ`, echoed in reports (see "Centred coordinates").
    pub prior_mean: f64,
    /// Configurations, in report order.
    pub configurations: Vec<Configuration>,
    /// Number of prior samples.
    pub samples: usize,
    /// Number of initial points (Theorem 1: 1).
    pub initial_points: usize,
    /// Evaluation cap (initial points included).
    pub max_evals: usize,
    /// Practical options of the stopping rule (Theorem 1: none).
    pub rule: PracticalOptions,
    /// Master seed.
    pub seed: u64,
}

impl Study {
    /// Whether configuration `k` is exactly Theorem 1's setting.
    pub fn within_theorem(&self, k: usize) -> bool {
        let c = &self.configurations[k];
        c.acquisition.within_theorem()
            && c.cost.within_theorem()
            && self.initial_points == 1
            && self.rule.is_theorem()
    }

    /// Checks the settings (sizes, `λ`, cost parameters, rule options); errors name the key.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.problem.n_points();
        if self.configurations.is_empty() {
            return Err("no configurations to run".into());
        }
        if self.samples == 0 {
            return Err("samples: must be ≥ 1".into());
        }
        if self.initial_points == 0 || self.initial_points > n {
            return Err(format!(
                "initial_points: must be between 1 and the domain size {n}, got {}",
                self.initial_points
            ));
        }
        if self.max_evals < self.initial_points {
            return Err(format!(
                "max_evals: {} is smaller than initial_points = {}",
                self.max_evals, self.initial_points
            ));
        }
        self.rule.validate().map_err(|e| format!("rule.{e}"))?;
        for c in &self.configurations {
            c.cost
                .validate(self.problem.domain().dim())
                .map_err(|e| format!("periodic: {e}"))?;
        }
        Ok(())
    }
}

/// One run's measurements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunSummary {
    /// `Σ_{t≤τ} λc(x_t)`.
    pub cost: f64,
    /// `C`: scaled cost of the initial design.
    pub initial_cost: f64,
    /// `τ` (evaluations, initial design included).
    pub n_evals: usize,
    /// Why the run ended.
    pub end: EndReason,
    /// `y*` after the initial design.
    pub initial_incumbent: f64,
    /// `y*_τ`.
    pub final_incumbent: f64,
    /// `Σ EI_t(x_{t+1})` over the acquisitions made.
    pub ei_sum: f64,
    /// Chosen points with `EI < c·(1 - STEP1_TOLERANCE)` (counted in the theorem setting).
    pub step1_shortfalls: usize,
}

/// All configurations' runs on one prior sample.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleResult {
    /// `min f_i` over the domain.
    pub min_f: f64,
    /// One summary per configuration, in study order.
    pub runs: Vec<RunSummary>,
}

/// Wraps an acquisition to record `EI(x)` and check `EI(x) ≥ c(x)` at each chosen point.
struct Recorded<'a> {
    inner: &'a dyn Acquisition,
    check_step1: bool,
    log: Mutex<(f64, usize)>,
}

impl Acquisition for Recorded<'_> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&self, step: &StepView, rng: &mut ChaCha8Rng) -> Option<usize> {
        let x = self.inner.choose(step, rng)?;
        let ei = pbgi_fast::ei(step.mean[x], step.sd[x], step.y_best);
        let short = ei < step.cost[x] * (1.0 - STEP1_TOLERANCE);
        // Step 1 of the proof (eq. 17): before stopping, the chosen point has EI ≥ c.
        debug_assert!(
            !(self.check_step1 && short),
            "step 1 violated at t = {}: EI = {ei:e} < c = {:e}",
            step.t,
            step.cost[x]
        );
        let mut log = self.log.lock().expect("log lock");
        log.0 += ei;
        if self.check_step1 && short {
            log.1 += 1;
        }
        Some(x)
    }
}

/// Runs every configuration on prior sample `sample`.
pub fn run_sample(study: &Study, sample: usize) -> Result<SampleResult, String> {
    let problem = &study.problem;
    let domain = problem.domain();
    let n = problem.n_points();
    let mut rng = stream(study.seed, &[OBJECTIVE_STREAM, sample as u64]);
    let objective = problem.sample(&mut rng);
    let initial = initial_design(study.initial_points, domain, &mut rng);
    let argmin = (0..n)
        .min_by(|&a, &b| objective[a].total_cmp(&objective[b]))
        .expect("domain is not empty");
    let independent_anchor: Vec<f64> = (0..domain.dim()).map(|_| rng.gen::<f64>()).collect();
    let mut runs = Vec::with_capacity(study.configurations.len());
    for (k, config) in study.configurations.iter().enumerate() {
        let cost = scaled_costs(
            domain,
            &config.cost,
            config.lambda,
            &objective,
            &independent_anchor,
        );
        let acquisition = config.acquisition.build(domain.dim());
        let recorded = Recorded {
            inner: acquisition.as_ref(),
            check_step1: study.within_theorem(k),
            log: Mutex::new((0.0, 0)),
        };
        let form = match config.acquisition {
            AcquisitionName::Pbgi => StopForm::Pbgi,
            _ => StopForm::LogEipc,
        };
        let mut rule = PbgiStoppingRule::new(form, study.rule)?;
        let task = Task {
            objective: &objective,
            cost: &cost,
            initial: &initial,
            max_evals: study.max_evals,
        };
        let mut run_rng = stream(study.seed, &[RUN_STREAM, sample as u64, k as u64]);
        let record = run_bo(problem, &task, &recorded, &mut run_rng, &mut |step, r| {
            if rule.observe(step, r) {
                Control::Stop
            } else {
                Control::Continue
            }
        })?;
        let (ei_sum, step1_shortfalls) = *recorded.log.lock().expect("log lock");
        let k0 = initial.len();
        runs.push(RunSummary {
            cost: record.total_cost(),
            initial_cost: record.cost[..k0].iter().sum(),
            n_evals: record.n_evals(),
            end: record.end,
            initial_incumbent: record.incumbent[k0 - 1],
            final_incumbent: record.final_incumbent(),
            ei_sum,
            step1_shortfalls,
        });
    }
    Ok(SampleResult {
        min_f: objective[argmin],
        runs,
    })
}

/// What the data say about `E[cost] ≤ C + U` for one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The margin's 95% interval lies above 0: the bound held with confidence.
    Held,
    /// The interval contains 0: consistent with the bound, and tight at this precision.
    Tight,
    /// The interval lies below 0: the bound failed.
    Violated,
    /// Runs hit the cap and the margin is positive: truncated costs only make the bound look
    /// better, so no confident statement.
    Capped,
}

impl Verdict {
    /// Table text.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Held => "held",
            Verdict::Tight => "tight",
            Verdict::Violated => "VIOLATED",
            Verdict::Capped => "capped: inconclusive",
        }
    }
}

/// Aggregated results of one configuration.
#[derive(Clone, Debug)]
pub struct ConfigReport {
    /// The configuration.
    pub config: Configuration,
    /// Whether it is exactly Theorem 1's setting.
    pub within_theorem: bool,
    /// Number of samples.
    pub samples: usize,
    /// `E[cost up to stopping]`.
    pub cost: Estimate,
    /// `E[C]`.
    pub initial_cost: Estimate,
    /// `U = μ - E[min f]`.
    pub u: Estimate,
    /// `E[C] + U` (per-sample `C_i + U_i` averaged).
    pub bound: Estimate,
    /// `C + U - E[cost]` from the paired differences `C_i + U_i - cost_i`.
    pub margin: Estimate,
    /// `E[τ]`.
    pub stopping_time: Estimate,
    /// Cost-adjusted simple regret `E[y*_τ - min f + cost]` (stopping paper eq. 2).
    pub adjusted_regret: Estimate,
    /// `E[y*_τ - min f]`: step 2's slack.
    pub simple_regret: Estimate,
    /// `E[Σ(EI - c)]` over acquisitions: step 1's slack.
    pub step1_slack: Estimate,
    /// `E[(y*_1 - y*_τ) - ΣEI]`: zero in expectation (eqs. 18–19).
    pub martingale: Estimate,
    /// `E[μ - y*_1]`: zero in expectation for one initial point independent of `f`.
    pub start: Estimate,
    /// Runs that hit the cap.
    pub capped: usize,
    /// Chosen points with `EI < c` in theorem-setting runs (should be 0).
    pub step1_shortfalls: usize,
    /// Verdict on the bound.
    pub verdict: Verdict,
    /// `E[cost]/(E[C] + U)` with its delta-method standard error (the forest plot).
    pub cost_over_bound: Estimate,
    /// Per-sample costs (for the distribution plot).
    pub costs: Vec<f64>,
}

/// Aggregates per-sample results (all samples, in sample order) into one report per
/// configuration.
pub fn aggregate(study: &Study, results: &[SampleResult]) -> Vec<ConfigReport> {
    // Centred coordinates: the simulated prior mean is 0, so `U_i = −min f_i`.
    let mu = study.problem.mean();
    let u_values: Vec<f64> = results.iter().map(|r| mu - r.min_f).collect();
    let u = Estimate::of(&u_values);
    study
        .configurations
        .iter()
        .enumerate()
        .map(|(k, config)| {
            let runs: Vec<&RunSummary> = results.iter().map(|r| &r.runs[k]).collect();
            let column = |f: &dyn Fn(usize, &RunSummary) -> f64| -> Vec<f64> {
                runs.iter().enumerate().map(|(i, r)| f(i, r)).collect()
            };
            let costs = column(&|_, r| r.cost);
            let bounds = column(&|i, r| r.initial_cost + u_values[i]);
            let min_f = |i: usize| results[i].min_f;
            let margin = Estimate::of(&column(&|i, r| r.initial_cost + u_values[i] - r.cost));
            let capped = runs.iter().filter(|r| r.end == EndReason::Capped).count();
            let verdict = if margin.upper_95() < 0.0 {
                Verdict::Violated
            } else if capped > 0 {
                Verdict::Capped
            } else if margin.lower_95() > 0.0 {
                Verdict::Held
            } else {
                Verdict::Tight
            };
            ConfigReport {
                config: config.clone(),
                within_theorem: study.within_theorem(k),
                samples: runs.len(),
                cost: Estimate::of(&costs),
                initial_cost: Estimate::of(&column(&|_, r| r.initial_cost)),
                u,
                bound: Estimate::of(&bounds),
                cost_over_bound: Estimate::ratio_of_means(&costs, &bounds),
                margin,
                stopping_time: Estimate::of(&column(&|_, r| r.n_evals as f64)),
                adjusted_regret: Estimate::of(&column(&|i, r| {
                    r.final_incumbent - min_f(i) + r.cost
                })),
                simple_regret: Estimate::of(&column(&|i, r| r.final_incumbent - min_f(i))),
                step1_slack: Estimate::of(&column(&|_, r| r.ei_sum - (r.cost - r.initial_cost))),
                martingale: Estimate::of(&column(&|_, r| {
                    (r.initial_incumbent - r.final_incumbent) - r.ei_sum
                })),
                start: Estimate::of(&column(&|_, r| mu - r.initial_incumbent)),
                capped,
                step1_shortfalls: runs.iter().map(|r| r.step1_shortfalls).sum(),
                verdict,
                costs,
            }
        })
        .collect()
}

/// Runs the samples of `shard` on `pool`, ticking `progress` once per sample. Returns
/// `(sample index, result)` in sample order; each result depends on `(seed, index)` only.
pub fn run_samples(
    study: &Study,
    shard: Shard,
    pool: &rayon::ThreadPool,
    progress: &Progress,
) -> Result<Vec<(usize, SampleResult)>, String> {
    let samples = shard.samples(study.samples);
    pool.install(|| {
        samples
            .par_iter()
            .map(|&i| {
                let result = run_sample(study, i).map(|r| (i, r));
                progress.tick();
                result
            })
            .collect()
    })
}
