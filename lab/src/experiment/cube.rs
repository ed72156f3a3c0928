//! One run of the experiment on the continuous cube `[0, 1]^d` (the stopping paper's 8-D
//! setting, §4.1 and App. B): the objective is a random-Fourier-feature path of the prior,
//! acquisitions and the rules' statistics are optimised by multi-start L-BFGS
//! (`continuous::search`), and the run goes to the cap with every rule observing, as on a
//! finite domain (`finite::run_one`).
use super::config::ExperimentConfig;
use super::run::{
    acquisition_stream, design_stream, finish_run, objective_stream, run_key, RuleObservers,
    RuleTimes, RunResult, Setting,
};
use crate::acquisitions::AcquisitionName;
use crate::bo::initial_design::scrambled_sobol;
use crate::bo::{PeriodicAnchor, StepView};
use crate::continuous::{
    global_minimum, run_bo_continuous, ContinuousTask, FourierPath, ScaledCost,
};
use crate::rules::RuleFactory;
use crate::study::config::CostName;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One run on the cube: BO with `acquisition` to the cap on sample `sample` of `setting`, all
/// rules observing.
///
/// Per sample (shared by every setting and acquisition): the objective (an RFF path with
/// `search.objective_features` features, centred: prior mean 0, as every reported quantity
/// is shift-invariant), its global minimum ([`global_minimum`]; also the anchor of
/// `periodic@argmin`), the independent periodic anchor, the scrambled-Sobol initial design
/// and the screened points. The reference `min f` of the regrets is the smaller of the global
/// search's value and the run's best observation, so a regret is never negative even where the
/// global search fell short.
pub fn run_one_on_cube(
    config: &ExperimentConfig,
    setting: &Setting,
    sample: usize,
    acquisition: AcquisitionName,
    rules: &[(&'static str, RuleFactory)],
    indices: (usize, usize),
) -> Result<(RunResult, RuleTimes), String> {
    let master = config.seed;
    let search = &config.search;
    let d = config.domain.dim;
    let kernel = config.kernel()?;
    let mut objective_rng = objective_stream(master, sample);
    let objective = FourierPath::draw(
        &kernel,
        0.0,
        d,
        search.objective_features,
        &mut objective_rng,
    )?;
    let independent_anchor: Vec<f64> = (0..d).map(|_| objective_rng.gen::<f64>()).collect();
    let optimum = global_minimum(&objective, search, &mut objective_rng);
    let mut design_rng = design_stream(master, sample);
    let initial = scrambled_sobol(config.initial_points, d, &mut design_rng);
    let screen = scrambled_sobol(search.raw_samples, d, &mut design_rng);
    let function = setting.cost.function(&config.periodic);
    let anchor = match &function {
        crate::bo::CostFunction::Periodic { anchor, .. } => match anchor {
            PeriodicAnchor::Independent => independent_anchor,
            PeriodicAnchor::ObjectiveArgmin => optimum.x.clone(),
            PeriodicAnchor::Fixed(x) => x.clone(),
        },
        _ => Vec::new(),
    };
    function
        .validate(d)
        .map_err(|e| format!("{}: {e}", CostName::key(setting.cost)))?;
    let cost = ScaledCost::new(function, anchor, setting.lambda, &screen, d);
    let task = ContinuousTask {
        objective: &objective,
        cost: &cost,
        initial: &initial,
        max_evals: config.max_evals,
        screen: &screen,
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
    let record = run_bo_continuous(
        kernel,
        0.0,
        search,
        &task,
        acquisition,
        &mut acquisition_rng,
        &mut on_step,
    )?;
    let f_min = record.y.iter().copied().fold(optimum.value, f64::min);
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
