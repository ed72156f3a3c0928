//! Running the experiment: every (cost, λ) setting × sample × acquisition runs BO once to the
//! cap, and every stopping rule observes every step of that same trajectory (common random
//! numbers: rules do not change the trajectory, so the comparison between rules is paired).
use super::config::ExperimentConfig;
use super::cube::run_one_on_cube;
use super::finite::run_one;
use super::run::{RuleTimes, RunResult, Setting};
use crate::acquisitions::AcquisitionName;
use crate::rules::RuleFactory;
use crate::study::progress::Progress;
use crate::study::shard::Shard;
use rayon::prelude::*;

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
    run_experiment_timed(config, shard, pool, progress).map(|(results, _)| results)
}

/// [`run_experiment`], with the wall time each rule spent in its checks in every run (in the
/// order of the runs). The times are a measurement (they depend on the machine, its load and
/// the thread count) and are kept apart from the results.
pub fn run_experiment_timed(
    config: &ExperimentConfig,
    shard: Shard,
    pool: &rayon::ThreadPool,
    progress: &Progress,
) -> Result<(ExperimentResults, Vec<RuleTimes>), String> {
    config.validate()?;
    let problem = match config.is_continuous() {
        true => None,
        false => Some(config.problem()?),
    };
    let log_cost = match config.cost_model.is_unknown() {
        true => Some(config.log_cost_problem()?),
        false => None,
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
                        log_cost.as_ref(),
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
    let (runs, times) = runs.into_iter().unzip();
    Ok((
        ExperimentResults {
            settings,
            acquisitions: config.acquisitions.clone(),
            rules: rule_names(&rules),
            runs,
        },
        times,
    ))
}

/// The table names of the rules (`PBGI/LogEIPC`, `UCB-LCB`, …, `Fixed-50`).
pub fn rule_names(rules: &[(&'static str, RuleFactory)]) -> Vec<String> {
    rules.iter().map(|(_, make)| make().name()).collect()
}
