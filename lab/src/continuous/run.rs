//! The BO loop on the continuous cube: evaluate, update the posterior, ask the caller whether to
//! stop, acquire by multi-start optimisation, repeat (the order of `bo::run_bo`).
use super::fourier::FourierPath;
use super::posterior::ContinuousPosterior;
use super::search::{thompson_point, Landscape, ScaledCost, SearchConfig, Target, WarmStarts};
use crate::acquisitions::lcb::{bo_iteration_index, Lcb};
use crate::acquisitions::AcquisitionName;
use crate::bo::{Control, EndReason, StepView};
use crate::gp::Kernel;
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;

/// One run's inputs.
#[derive(Clone, Copy, Debug)]
pub struct ContinuousTask<'a> {
    /// The objective (observed exactly).
    pub objective: &'a FourierPath,
    /// `λ·c`.
    pub cost: &'a ScaledCost,
    /// Initial points, row after row (`n·d` coordinates), evaluated first in this order.
    pub initial: &'a [f64],
    /// Maximum number of evaluations, initial points included.
    pub max_evals: usize,
    /// The points screened by every acquisition search (row after row).
    pub screen: &'a [f64],
}

/// What happened in one run.
#[derive(Clone, Debug, PartialEq)]
pub struct ContinuousRecord {
    /// Evaluated points, row after row.
    pub x: Vec<f64>,
    /// Observed values `f(x_t)`.
    pub y: Vec<f64>,
    /// Scaled costs `λ·c(x_t)`.
    pub cost: Vec<f64>,
    /// Incumbent `y*_t` after each evaluation.
    pub incumbent: Vec<f64>,
    /// Why the run ended (never [`EndReason::Exhausted`]: the cube has no last point).
    pub end: EndReason,
}

/// Runs BO on the cube until `on_step` says stop or the cap is hit, with the GP prior
/// (`kernel`, constant mean `prior_mean`) and the model noise of `config`.
///
/// After every update from `t = initial` on, the rules see a [`StepView`] whose
/// `continuous` space is this step's [`Landscape`] (each optimum found once and shared with
/// the acquisition). Acquisitions: PBGI and LCB (`β_i/5`, `δ = 0.1`) minimised, LogEIPC
/// maximised over the cube; TS minimises one posterior sample path
/// ([`thompson_point`]). `rng` belongs to the acquisition (Thompson sampling); the callback
/// gets it too, as in `bo::run_bo`.
///
/// Errors: an initial design that is empty or not made of `d`-D points of the cube,
/// `max_evals` below the design, or a failed posterior update.
pub fn run_bo_continuous(
    kernel: Kernel,
    prior_mean: f64,
    config: &SearchConfig,
    task: &ContinuousTask,
    acquisition: AcquisitionName,
    rng: &mut ChaCha8Rng,
    on_step: &mut dyn FnMut(&StepView, &mut ChaCha8Rng) -> Control,
) -> Result<ContinuousRecord, String> {
    let d = task.objective.dim();
    if task.initial.is_empty() || task.initial.len() % d != 0 {
        return Err(format!(
            "the initial design ({} coordinates) is not a non-empty set of {d}-D points",
            task.initial.len()
        ));
    }
    let n_initial = task.initial.len() / d;
    if task.max_evals < n_initial {
        return Err(format!(
            "max_evals = {} is smaller than the initial design ({n_initial} points)",
            task.max_evals
        ));
    }
    let mut posterior =
        ContinuousPosterior::new(kernel, prior_mean, config.noise, d, task.screen.to_vec())?;
    let mut record = ContinuousRecord {
        x: Vec::new(),
        y: Vec::new(),
        cost: Vec::new(),
        incumbent: Vec::new(),
        end: EndReason::Stopped,
    };
    let evaluate =
        |x: &[f64], posterior: &mut ContinuousPosterior, record: &mut ContinuousRecord| {
            let y = task.objective.value(x);
            posterior.observe(x, y)?;
            let best = record.incumbent.last().map_or(y, |&b| b.min(y));
            record.x.extend_from_slice(x);
            record.y.push(y);
            record.cost.push(task.cost.value(x));
            record.incumbent.push(best);
            Ok::<(), String>(())
        };
    for x in task.initial.chunks_exact(d) {
        evaluate(x, &mut posterior, &mut record)?;
    }
    let warm = RefCell::new(WarmStarts::default());
    let lcb = Lcb::paper(d);
    loop {
        let t = posterior.len();
        let mean: Vec<f64> = (0..t).map(|s| posterior.mean_at_observed(s)).collect();
        let sd: Vec<f64> = (0..t).map(|s| posterior.sd_at_observed(s)).collect();
        let evaluated = vec![true; t];
        let history_x: Vec<usize> = (0..t).collect();
        let y_best = *record.incumbent.last().expect("the design is not empty");
        let next = {
            let landscape = Landscape::new(&posterior, task.cost, y_best, config, &warm);
            let view = StepView {
                t,
                initial: n_initial,
                mean: &mean,
                sd: &sd,
                evaluated: &evaluated,
                cost: &record.cost,
                history_x: &history_x,
                history_y: &record.y,
                y_best,
                cumulative_cost: record.cost.iter().sum(),
                posterior: None,
                continuous: Some(&landscape),
            };
            if on_step(&view, rng) == Control::Stop {
                record.end = EndReason::Stopped;
                break;
            }
            if t >= task.max_evals {
                record.end = EndReason::Capped;
                break;
            }
            match acquisition {
                AcquisitionName::Pbgi => landscape.minimum(Target::Pbgi).x,
                AcquisitionName::LogEipc => landscape.minimum(Target::LogEipc).x,
                AcquisitionName::Lcb => {
                    let sqrt_beta = lcb.beta(bo_iteration_index(&view)).max(0.0).sqrt();
                    landscape.minimum(Target::Lcb { sqrt_beta }).x
                }
                AcquisitionName::Ts => thompson_point(&posterior, prior_mean, config, rng)?,
            }
        };
        evaluate(&next, &mut posterior, &mut record)?;
    }
    Ok(record)
}
