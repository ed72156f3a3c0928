//! Running the experiment: every (cost, λ) setting × sample × acquisition runs BO once to the
//! cap, and every stopping rule observes every step of that same trajectory (common random
//! numbers: rules do not change the trajectory, so the comparison between rules is paired).
use super::config::ExperimentConfig;
use super::cube::run_one_on_cube;
use crate::acquisitions::AcquisitionName;
use crate::bo::{initial_design, run_bo, scaled_costs, Control, StepView, StoppingRule, Task};
use crate::gp::Problem;
use crate::rules::RuleFactory;
use crate::study::config::CostName;
use crate::study::progress::Progress;
use crate::study::seeding::{label, stream};
use crate::study::shard::Shard;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// One cost setting: a cost function and its scale `λ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    /// The cost function.
    pub cost: CostName,
    /// Its scale.
    pub lambda: f64,
}

/// The outcome of one BO run (one setting, sample and acquisition) and of every rule on it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    /// Index into [`ExperimentResults::settings`].
    pub setting: usize,
    /// Sample (objective draw) index.
    pub sample: usize,
    /// Index into [`ExperimentResults::acquisitions`].
    pub acquisition: usize,
    /// Simple regret `y*_t − min f` after `t = 1, 2, …, cap` evaluations (entry `t − 1`).
    pub simple_regret: Vec<f64>,
    /// Cumulative scaled cost `Σ_{s ≤ t} λ c(x_s)` (entry `t − 1`).
    pub cumulative_cost: Vec<f64>,
    /// Stopping time of each rule (in the config's rule order); the cap if it never fired.
    pub stop: Vec<usize>,
    /// Whether each rule fired before the cap ran out (a rule firing exactly at the cap counts
    /// as fired).
    pub fired: Vec<bool>,
}

impl RunResult {
    /// Cost-adjusted simple regret after `t` evaluations (stopping paper, eq. 2).
    pub fn regret_at(&self, t: usize) -> f64 {
        self.simple_regret[t - 1] + self.cumulative_cost[t - 1]
    }

    /// The hindsight-optimal stopping time of this run: the `t` among the times at which rules
    /// may stop (`initial_points ≤ t ≤ cap`) with the smallest cost-adjusted regret (earliest
    /// on ties). A lower bound for every rule on this run.
    pub fn hindsight_stop(&self, initial_points: usize) -> usize {
        (initial_points..=self.simple_regret.len())
            .min_by(|&a, &b| self.regret_at(a).total_cmp(&self.regret_at(b)))
            .unwrap_or(initial_points)
    }
}

/// Runs of an experiment, in a fixed order (setting, sample, acquisition).
#[derive(Clone, Debug, PartialEq)]
pub struct ExperimentResults {
    /// The settings, costs outer and `λ` inner, in configuration order.
    pub settings: Vec<Setting>,
    /// The acquisitions, in configuration order.
    pub acquisitions: Vec<AcquisitionName>,
    /// The rules' table names, in registry order.
    pub rules: Vec<String>,
    /// The runs.
    pub runs: Vec<RunResult>,
}

/// The settings of a configuration: costs outer, `λ` inner.
pub fn settings(config: &ExperimentConfig) -> Vec<Setting> {
    config
        .costs
        .iter()
        .flat_map(|&cost| {
            config
                .lambdas
                .iter()
                .map(move |&lambda| Setting { cost, lambda })
        })
        .collect()
}

/// Stream labels: the objective, design and anchor depend on the sample only, so every
/// setting and acquisition sees the same functions and initial points.
const OBJECTIVE_STREAM: u64 = 1;
const DESIGN_STREAM: u64 = 2;
const ACQUISITION_STREAM: u64 = 3;
const RULE_STREAM: u64 = 4;

/// Key of a setting for seeding: its cost name and the bits of `λ`.
fn setting_key(setting: &Setting) -> u64 {
    label(setting.cost.key()) ^ setting.lambda.to_bits().rotate_left(17)
}

/// The rules of one run, each with its own random stream, and the step at which each fired.
pub(crate) struct RuleObservers {
    live: Vec<Box<dyn StoppingRule>>,
    rngs: Vec<ChaCha8Rng>,
    stop: Vec<Option<usize>>,
}

impl RuleObservers {
    /// Fresh rules for the run keyed `run_key`.
    pub(crate) fn new(
        master: u64,
        run_key: [u64; 3],
        rules: &[(&'static str, RuleFactory)],
    ) -> Self {
        Self {
            live: rules.iter().map(|(_, make)| make()).collect(),
            rngs: rules
                .iter()
                .map(|(key, _)| {
                    stream(
                        master,
                        &[RULE_STREAM, run_key[0], run_key[1], run_key[2], label(key)],
                    )
                })
                .collect(),
            stop: vec![None; rules.len()],
        }
    }

    /// Every rule that has not fired observes `view`; the run always continues (rules do not
    /// change the trajectory). Rules get their own generators: the loop's belongs to the
    /// acquisition, so the trajectory does not depend on which rules run.
    pub(crate) fn observe(&mut self, view: &StepView) -> Control {
        for ((rule, rng), stopped) in self.live.iter_mut().zip(&mut self.rngs).zip(&mut self.stop) {
            if stopped.is_none() && rule.observe(view, rng) {
                *stopped = Some(view.t);
            }
        }
        Control::Continue
    }
}

/// The key of one run's random streams.
pub(crate) fn run_key(setting: &Setting, sample: usize, acquisition: AcquisitionName) -> [u64; 3] {
    [
        setting_key(setting),
        sample as u64,
        label(acquisition.key()),
    ]
}

/// The acquisition's stream of the run keyed `key`.
pub(crate) fn acquisition_stream(master: u64, key: [u64; 3]) -> ChaCha8Rng {
    stream(master, &[ACQUISITION_STREAM, key[0], key[1], key[2]])
}

/// The objective's stream of sample `sample` (shared by every setting and acquisition).
pub(crate) fn objective_stream(master: u64, sample: usize) -> ChaCha8Rng {
    stream(master, &[OBJECTIVE_STREAM, sample as u64])
}

/// The initial design's stream of sample `sample`.
pub(crate) fn design_stream(master: u64, sample: usize) -> ChaCha8Rng {
    stream(master, &[DESIGN_STREAM, sample as u64])
}

/// The result of a run that went to the cap: regrets against `f_min`, cumulative costs, and
/// the rules' stopping times. Errors if the run ended before the cap.
#[allow(clippy::too_many_arguments)]
pub(crate) fn finish_run(
    config: &ExperimentConfig,
    setting: &Setting,
    sample: usize,
    acquisition: AcquisitionName,
    indices: (usize, usize),
    incumbent: &[f64],
    costs: &[f64],
    f_min: f64,
    rules: &RuleObservers,
) -> Result<RunResult, String> {
    if incumbent.len() != config.max_evals {
        return Err(format!(
            "run (cost {}, λ {}, sample {sample}, {}) ended after {} evaluations instead of the \
             cap {}",
            setting.cost.key(),
            setting.lambda,
            acquisition.label(),
            incumbent.len(),
            config.max_evals
        ));
    }
    let mut spent = 0.0;
    let cumulative_cost = costs
        .iter()
        .map(|c| {
            spent += c;
            spent
        })
        .collect();
    Ok(RunResult {
        setting: indices.0,
        sample,
        acquisition: indices.1,
        simple_regret: incumbent.iter().map(|y| y - f_min).collect(),
        cumulative_cost,
        fired: rules.stop.iter().map(Option::is_some).collect(),
        stop: rules
            .stop
            .iter()
            .map(|s| s.unwrap_or(config.max_evals))
            .collect(),
    })
}

/// One run on a finite domain: BO with `acquisition` to the cap on sample `sample` of
/// `setting`, all rules observing. `indices` are the setting's and acquisition's positions,
/// recorded in the result.
pub fn run_one(
    config: &ExperimentConfig,
    problem: &Problem,
    setting: &Setting,
    sample: usize,
    acquisition: AcquisitionName,
    rules: &[(&'static str, RuleFactory)],
    indices: (usize, usize),
) -> Result<RunResult, String> {
    let master = config.seed;
    let domain = problem.domain();
    let mut objective_rng = objective_stream(master, sample);
    let objective = problem.sample(&mut objective_rng);
    let independent_anchor: Vec<f64> = (0..domain.dim())
        .map(|_| objective_rng.gen::<f64>())
        .collect();
    let initial = initial_design(
        config.initial_points,
        domain,
        &mut design_stream(master, sample),
    );
    let cost = scaled_costs(
        domain,
        &setting.cost.function(&config.periodic),
        setting.lambda,
        &objective,
        &independent_anchor,
    );
    let task = Task {
        objective: &objective,
        cost: &cost,
        initial: &initial,
        max_evals: config.max_evals,
    };
    let key = run_key(setting, sample, acquisition);
    let mut acquisition_rng = acquisition_stream(master, key);
    let mut observers = RuleObservers::new(master, key, rules);
    let mut on_step = |view: &StepView, _shared: &mut ChaCha8Rng| observers.observe(view);
    let built = acquisition.build(domain.dim());
    let record = run_bo(
        problem,
        &task,
        built.as_ref(),
        &mut acquisition_rng,
        &mut on_step,
    )?;
    let f_min = objective.iter().copied().fold(f64::INFINITY, f64::min);
    finish_run(
        config,
        setting,
        sample,
        acquisition,
        indices,
        &record.incumbent,
        &record.cost,
        f_min,
        &observers,
    )
}

/// The number of runs a shard makes.
pub fn run_count(config: &ExperimentConfig, shard: Shard) -> usize {
    settings(config).len() * shard.samples(config.samples).len() * config.acquisitions.len()
}

/// Runs the shard's part of the experiment on `pool`, ticking `progress` once per finished
/// run. Results are in (setting, sample, acquisition) order and identical for any thread count
/// and any split into shards: each run's randomness comes from its own streams.
pub fn run_experiment(
    config: &ExperimentConfig,
    shard: Shard,
    pool: &rayon::ThreadPool,
    progress: &Progress,
) -> Result<ExperimentResults, String> {
    config.validate()?;
    let problem = match config.is_continuous() {
        true => None,
        false => Some(config.problem()?),
    };
    let rules = config.rule_factories()?;
    let settings = settings(config);
    let samples = shard.samples(config.samples);
    let n_acquisitions = config.acquisitions.len();
    let jobs: Vec<(usize, usize, usize)> = (0..settings.len())
        .flat_map(|s| {
            samples
                .iter()
                .flat_map(move |&sample| (0..n_acquisitions).map(move |a| (s, sample, a)))
        })
        .collect();
    let runs = pool.install(|| {
        jobs.par_iter()
            .map(|&(s, sample, a)| {
                let acquisition = config.acquisitions[a];
                let result = match &problem {
                    Some(problem) => run_one(
                        config,
                        problem,
                        &settings[s],
                        sample,
                        acquisition,
                        &rules,
                        (s, a),
                    ),
                    None => {
                        run_one_on_cube(config, &settings[s], sample, acquisition, &rules, (s, a))
                    }
                };
                progress.tick();
                result
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    Ok(ExperimentResults {
        settings,
        acquisitions: config.acquisitions.clone(),
        rules: rule_names(&rules),
        runs,
    })
}

/// The table names of the rules (`PBGI/LogEIPC`, `UCB-LCB`, …, `Fixed-50`).
pub fn rule_names(rules: &[(&'static str, RuleFactory)]) -> Vec<String> {
    rules.iter().map(|(_, make)| make().name()).collect()
}
