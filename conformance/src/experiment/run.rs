//! Running the experiment: every (cost, λ) setting × seed × acquisition runs BO once to the
//! cap, and every stopping rule observes every step of that same trajectory (common random
//! numbers: rules do not change the trajectory, so the comparison between rules is paired).
use super::config::ExperimentConfig;
use super::initial_design::initial_design;
use super::rules::RuleFactory;
use super::seeding::{label, stream};
use crate::bo::{
    run_bo, Acquisition, Control, CostFunction, Domain, Kernel, KernelKind, PeriodicAnchor,
    Problem, StepView, StoppingRule, Task,
};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// One cost setting: a cost function name and its scale `λ`.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub cost: String,
    pub lambda: f64,
}

/// The outcome of one BO run (one setting, seed and acquisition) and of every rule on it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    pub setting: usize,
    pub seed: usize,
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

/// All runs of an experiment, in a fixed order (setting, seed, acquisition).
#[derive(Clone, Debug, PartialEq)]
pub struct ExperimentResults {
    pub settings: Vec<Setting>,
    pub acquisitions: Vec<String>,
    pub rules: Vec<String>,
    pub runs: Vec<RunResult>,
}

/// The GP prior shared by all runs: Matérn-5/2 on the grid, mean 0, output scale 1, the
/// simulator's default jitter.
pub fn build_problem(config: &ExperimentConfig) -> Result<Problem, String> {
    let kernel = Kernel {
        kind: KernelKind::Matern52,
        length_scale: config.length_scale,
        outputscale: 1.0,
    };
    let domain = Domain::grid_1d(config.grid_points)?;
    Problem::new(
        domain,
        kernel,
        0.0,
        crate::bo::prior::DEFAULT_RELATIVE_JITTER,
    )
}

/// The cost function called `name` (the periodic one centred at the objective's minimiser, as
/// in the stopping paper, App. B).
pub fn cost_function(name: &str) -> Result<CostFunction, String> {
    match name {
        "uniform" => Ok(CostFunction::Uniform),
        "linear" => Ok(CostFunction::Linear),
        "periodic" => Ok(CostFunction::periodic(PeriodicAnchor::ObjectiveArgmin)),
        other => Err(format!("unknown cost `{other}`")),
    }
}

/// `λ·c(x)` on the grid for the given objective (which fixes the periodic cost's centre).
fn scaled_costs(
    problem: &Problem,
    cost: &CostFunction,
    lambda: f64,
    objective: &[f64],
) -> Vec<f64> {
    let argmin = (0..objective.len())
        .min_by(|&a, &b| objective[a].total_cmp(&objective[b]))
        .unwrap_or(0);
    let anchor = problem.domain().point(argmin).to_vec();
    (0..problem.n_points())
        .map(|i| lambda * cost.eval(problem.domain().point(i), &anchor))
        .collect()
}

/// Stream labels: the objective and design depend on the seed only, so every setting and
/// acquisition sees the same functions and initial points.
const OBJECTIVE_STREAM: u64 = 1;
const DESIGN_STREAM: u64 = 2;
const ACQUISITION_STREAM: u64 = 3;
const RULE_STREAM: u64 = 4;

/// Key of a setting for seeding: its cost name and the bits of `λ`.
fn setting_key(setting: &Setting) -> u64 {
    label(&setting.cost) ^ setting.lambda.to_bits().rotate_left(17)
}

/// One run: BO with `acquisition` to the cap on seed `seed` of `setting`, all rules observing.
#[allow(clippy::too_many_arguments)]
pub fn run_one(
    config: &ExperimentConfig,
    problem: &Problem,
    setting: &Setting,
    seed: usize,
    acquisition: &dyn Acquisition,
    rules: &[(&'static str, RuleFactory)],
    indices: (usize, usize),
) -> Result<RunResult, String> {
    let master = config.master_seed;
    let objective = problem.sample(&mut stream(master, &[OBJECTIVE_STREAM, seed as u64]));
    let initial = initial_design(
        config.initial_points,
        config.grid_points,
        &mut stream(master, &[DESIGN_STREAM, seed as u64]),
    );
    let cost = scaled_costs(
        problem,
        &cost_function(&setting.cost)?,
        setting.lambda,
        &objective,
    );
    let task = Task {
        objective: &objective,
        cost: &cost,
        initial: &initial,
        max_evals: config.cap,
    };
    let run_key = [
        setting_key(setting),
        seed as u64,
        label(&acquisition.name()),
    ];
    let mut acquisition_rng = stream(
        master,
        &[ACQUISITION_STREAM, run_key[0], run_key[1], run_key[2]],
    );
    let mut live: Vec<Box<dyn StoppingRule>> = rules.iter().map(|(_, make)| make()).collect();
    let mut rule_rngs: Vec<ChaCha8Rng> = rules
        .iter()
        .map(|(key, _)| {
            stream(
                master,
                &[RULE_STREAM, run_key[0], run_key[1], run_key[2], label(key)],
            )
        })
        .collect();
    let mut stop: Vec<Option<usize>> = vec![None; rules.len()];
    // Rules get their own generators: the shared one belongs to the acquisition, so the
    // trajectory does not depend on which rules run.
    let mut on_step = |view: &StepView, _shared: &mut ChaCha8Rng| {
        for ((rule, rng), stopped) in live.iter_mut().zip(&mut rule_rngs).zip(&mut stop) {
            if stopped.is_none() && rule.observe(view, rng) {
                *stopped = Some(view.t);
            }
        }
        Control::Continue
    };
    let record = run_bo(
        problem,
        &task,
        acquisition,
        &mut acquisition_rng,
        &mut on_step,
    )?;
    if record.n_evals() != config.cap {
        return Err(format!(
            "run (cost {}, λ {}, seed {seed}, {}) ended after {} evaluations instead of the cap {}",
            setting.cost,
            setting.lambda,
            acquisition.name(),
            record.n_evals(),
            config.cap
        ));
    }
    let f_min = objective.iter().copied().fold(f64::INFINITY, f64::min);
    let mut spent = 0.0;
    let cumulative_cost = record
        .cost
        .iter()
        .map(|c| {
            spent += c;
            spent
        })
        .collect();
    Ok(RunResult {
        setting: indices.0,
        seed,
        acquisition: indices.1,
        simple_regret: record.incumbent.iter().map(|y| y - f_min).collect(),
        cumulative_cost,
        fired: stop.iter().map(Option::is_some).collect(),
        stop: stop.iter().map(|s| s.unwrap_or(config.cap)).collect(),
    })
}

/// Runs the whole experiment on `threads` worker threads (0 = rayon's default), calling
/// `progress` once per finished run. Results are in (setting, seed, acquisition) order and
/// identical for any thread count: each run's randomness comes from its own streams.
pub fn run_experiment(
    config: &ExperimentConfig,
    acquisitions: &[Box<dyn Acquisition>],
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<ExperimentResults, String> {
    config.validate()?;
    let problem = build_problem(config)?;
    let rules = config.rule_factories()?;
    let settings: Vec<Setting> = config
        .costs
        .iter()
        .flat_map(|cost| {
            config.lambdas.iter().map(move |&lambda| Setting {
                cost: cost.clone(),
                lambda,
            })
        })
        .collect();
    let jobs: Vec<(usize, usize, usize)> = (0..settings.len())
        .flat_map(|s| {
            (0..config.seeds)
                .flat_map(move |seed| (0..acquisitions.len()).map(move |a| (s, seed, a)))
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
    let runs = pool.install(|| {
        jobs.par_iter()
            .map(|&(s, seed, a)| {
                let result = run_one(
                    config,
                    &problem,
                    &settings[s],
                    seed,
                    acquisitions[a].as_ref(),
                    &rules,
                    (s, a),
                );
                progress();
                result
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    let rule_names = rules.iter().map(|(_, make)| make().name()).collect();
    Ok(ExperimentResults {
        settings,
        acquisitions: acquisitions.iter().map(|a| a.name()).collect(),
        rules: rule_names,
        runs,
    })
}
