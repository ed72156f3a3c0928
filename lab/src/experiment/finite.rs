//! One run of the experiment on a finite domain (a grid or a random point set): the objective
//! is a joint draw of the prior on the domain, acquisitions are minimised over its points, and
//! the run goes to the cap with every rule observing, as on the cube (`cube::run_one_on_cube`).
use super::config::ExperimentConfig;
use super::run::{
    acquisition_stream, design_stream, finish_run, objective_stream, run_key, RuleObservers,
    RuleTimes, RunResult, Setting,
};
use crate::acquisitions::AcquisitionName;
use crate::bo::{
    initial_design, run_bo, run_bo_refitting, run_bo_unknown_cost, scaled_costs, LogCostModel,
    StepView, Task,
};
use crate::gp::Problem;
use crate::rules::RuleFactory;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One run on a finite domain: BO with `acquisition` to the cap on sample `sample` of
/// `setting`, all rules observing. `indices` are the setting's and acquisition's positions,
/// recorded in the result. With `log_cost` (the prior of `ln c`, `[cost_model] kind =
/// "lognormal"`) the cost is unknown and learnt as the run goes (`bo::unknown_cost`); with
/// `[prior] hyperparameters = "mll"` the model is refitted after every observation
/// (`bo::run_bo_refitting`), while the objective is still a draw of the configured prior.
#[allow(clippy::too_many_arguments)]
pub fn run_one(
    config: &ExperimentConfig,
    problem: &Problem,
    log_cost: Option<&Problem>,
    setting: &Setting,
    sample: usize,
    acquisition: AcquisitionName,
    rules: &[(&'static str, RuleFactory)],
    indices: (usize, usize),
) -> Result<(RunResult, RuleTimes), String> {
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
    let mut observers = RuleObservers::new(
        master,
        key,
        rules,
        config
            .trace_statistic
            .then(|| config.traced_statistic().map(|(form, _)| form))
            .transpose()?,
    );
    let mut on_step = |view: &StepView, _shared: &mut ChaCha8Rng| observers.observe(view);
    let record = match log_cost {
        Some(log_cost) => {
            let model = LogCostModel {
                problem: log_cost,
                log_lambda: setting.lambda.ln(),
                logeipc: config.cost_model.logeipc_form()?,
            };
            run_bo_unknown_cost(
                problem,
                &task,
                &model,
                acquisition,
                &mut acquisition_rng,
                &mut on_step,
            )?
        }
        None => {
            let built = acquisition.build(domain.dim());
            match config.mll_fit()? {
                None => run_bo(
                    problem,
                    &task,
                    built.as_ref(),
                    &mut acquisition_rng,
                    &mut on_step,
                )?,
                Some(fit) => run_bo_refitting(
                    problem,
                    &fit,
                    &task,
                    built.as_ref(),
                    &mut acquisition_rng,
                    &mut on_step,
                )?,
            }
        }
    };
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
