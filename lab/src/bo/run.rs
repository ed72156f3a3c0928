//! The BO loop on a finite domain: evaluate, update the exact posterior, ask the caller
//! whether to stop, acquire, repeat; with [`run_bo_refitting`], the model's hyperparameters
//! are refitted to the observations after each evaluation.
use super::interface::{Acquisition, StepView};
use crate::gp::marginal_likelihood::MIN_OBSERVATIONS;
use crate::gp::{MllFit, Posterior, Problem};
use rand_chacha::ChaCha8Rng;

/// The caller's answer after each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Acquire another point.
    Continue,
    /// Stop now (the current step's evaluations are the last).
    Stop,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The callback said [`Control::Stop`].
    Stopped,
    /// The evaluation cap was reached without a stop. Such runs must be reported separately:
    /// their cost is a truncation, not a draw of the cost up to stopping.
    Capped,
    /// Every domain point has been evaluated (the acquisition had nothing left to choose).
    Exhausted,
}

/// One run's inputs: the (hidden) objective on the domain, the `λ`-scaled costs, the initial
/// design, and the evaluation cap.
#[derive(Clone, Copy, Debug)]
pub struct Task<'a> {
    /// `f` at every domain point (noiseless observations are read from here).
    pub objective: &'a [f64],
    /// `λ·c(x)` at every domain point (finite, > 0).
    pub cost: &'a [f64],
    /// Initial points, evaluated first in this order (Theorem 1: exactly one).
    pub initial: &'a [usize],
    /// Maximum number of evaluations, initial points included.
    pub max_evals: usize,
}

/// What happened in one run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRecord {
    /// Evaluated indices, in order.
    pub x: Vec<usize>,
    /// Observed values `f(x_t)`.
    pub y: Vec<f64>,
    /// Scaled costs `λ·c(x_t)`.
    pub cost: Vec<f64>,
    /// Incumbent `y*_t = min_{s ≤ t} f(x_s)` after each evaluation.
    pub incumbent: Vec<f64>,
    /// Why the run ended.
    pub end: EndReason,
}

impl RunRecord {
    /// Number of evaluations `τ`.
    pub fn n_evals(&self) -> usize {
        self.x.len()
    }

    /// `Σ_{t ≤ τ} λ·c(x_t)`, summed in evaluation order.
    pub fn total_cost(&self) -> f64 {
        self.cost.iter().sum()
    }

    /// Final incumbent `y*_τ`.
    pub fn final_incumbent(&self) -> f64 {
        *self
            .incumbent
            .last()
            .expect("a run evaluates at least one point")
    }
}

/// Runs BO on `problem` until `on_step` says stop, the cap is hit, or the domain is exhausted.
///
/// Order of events (Theorem 1's loop when `task.initial` has one point):
/// 1. evaluate the initial points in order, updating the posterior after each;
/// 2. then, after every update from `t = initial.len()` on: build the [`StepView`] and call
///    `on_step` (stopping rules read it here; "checked after the update", MATH.md);
///    `Stop` ends the run; otherwise, if `t = max_evals`, the run ends as `Capped`;
///    otherwise the acquisition picks an unevaluated point, which is evaluated.
///
/// The acquisition and the callback share `rng` (in that order per step), so a run is a
/// deterministic function of the inputs and the generator's state.
///
/// Errors (before anything runs): lengths that differ from the domain size, non-finite
/// objective values, costs that are not finite and > 0, an empty, repeated or out-of-range
/// initial design, `max_evals < initial.len()`. During the run: an acquisition that returns an
/// evaluated or out-of-range point.
pub fn run_bo(
    problem: &Problem,
    task: &Task,
    acquisition: &dyn Acquisition,
    rng: &mut ChaCha8Rng,
    on_step: &mut dyn FnMut(&StepView, &mut ChaCha8Rng) -> Control,
) -> Result<RunRecord, String> {
    run_bo_with(problem, None, task, acquisition, rng, on_step)
}

/// [`run_bo`] with the model's length scale and output scale refitted by maximum marginal
/// likelihood ([`MllFit`]) after every evaluation from the [`MIN_OBSERVATIONS`]-th on, and the
/// posterior rebuilt from scratch under the fitted kernel ([`Posterior::rebuilt`]; when the
/// fit returns the current hyperparameters bit for bit, the usual one-row update, which is the
/// same arithmetic). `problem` is still the prior the objective was drawn from and the first
/// model; only the model's beliefs change. Every [`StepView`] shows the posterior under the
/// hyperparameters fitted to all observations so far.
///
/// Errors: those of [`run_bo`], a fit that finds no valid length scale, or a fitted model
/// whose prior cannot be built on the domain (`Problem::new`).
pub fn run_bo_refitting(
    problem: &Problem,
    fit: &MllFit,
    task: &Task,
    acquisition: &dyn Acquisition,
    rng: &mut ChaCha8Rng,
    on_step: &mut dyn FnMut(&StepView, &mut ChaCha8Rng) -> Control,
) -> Result<RunRecord, String> {
    run_bo_with(problem, Some(fit), task, acquisition, rng, on_step)
}

/// Conditions `posterior` on `f(D[j]) = y` and refits the model to every observation (see
/// [`run_bo_refitting`]).
fn observe_refitting(
    fit: &MllFit,
    posterior: &mut Posterior,
    j: usize,
    y: f64,
) -> Result<(), String> {
    if posterior.observed().len() + 1 < MIN_OBSERVATIONS {
        return posterior.observe(j, y);
    }
    let model = posterior.problem();
    let domain = model.domain();
    let points: Vec<&[f64]> = posterior
        .observed()
        .iter()
        .chain([&j])
        .map(|&i| domain.point(i))
        .collect();
    let mut values = posterior.values().to_vec();
    values.push(y);
    let fitted = fit
        .fit(&points, &values)
        .map_err(|e| format!("prior.hyperparameters = \"mll\": {e}"))?;
    if fitted.kernel == *model.kernel() && fitted.jitter == model.jitter() {
        return posterior.observe(j, y);
    }
    let refitted = Problem::new(domain.clone(), fitted.kernel, model.mean(), fitted.jitter)
        .map_err(|e| {
            format!(
                "prior.hyperparameters = \"mll\": the fitted model (length scale {}, output \
                 scale {}) on this domain: {e}",
                fitted.kernel.length_scale, fitted.kernel.outputscale
            )
        })?;
    let mut rebuilt = posterior.rebuilt(refitted)?;
    rebuilt.observe(j, y)?;
    *posterior = rebuilt;
    Ok(())
}

fn run_bo_with(
    problem: &Problem,
    refit: Option<&MllFit>,
    task: &Task,
    acquisition: &dyn Acquisition,
    rng: &mut ChaCha8Rng,
    on_step: &mut dyn FnMut(&StepView, &mut ChaCha8Rng) -> Control,
) -> Result<RunRecord, String> {
    check_task(problem, task)?;
    let mut posterior = Posterior::new(problem);
    let mut record = RunRecord {
        x: Vec::new(),
        y: Vec::new(),
        cost: Vec::new(),
        incumbent: Vec::new(),
        end: EndReason::Stopped,
    };
    let mut cumulative_cost = 0.0;
    let mut evaluate = |j: usize, posterior: &mut Posterior, record: &mut RunRecord| {
        let y = task.objective[j];
        match refit {
            None => posterior.observe(j, y)?,
            Some(fit) => observe_refitting(fit, posterior, j, y)?,
        }
        let best = record.incumbent.last().map_or(y, |&b| b.min(y));
        record.x.push(j);
        record.y.push(y);
        record.cost.push(task.cost[j]);
        record.incumbent.push(best);
        cumulative_cost += task.cost[j];
        Ok::<f64, String>(cumulative_cost)
    };
    let mut spent = 0.0;
    for &j in task.initial {
        spent = evaluate(j, &mut posterior, &mut record)?;
    }
    loop {
        let view = StepView {
            t: record.x.len(),
            initial: task.initial.len(),
            mean: posterior.mean(),
            sd: posterior.sd(),
            evaluated: posterior.evaluated(),
            cost: task.cost,
            history_x: &record.x,
            history_y: &record.y,
            y_best: record.final_incumbent(),
            cumulative_cost: spent,
            posterior: Some(&posterior),
            continuous: None,
        };
        if on_step(&view, rng) == Control::Stop {
            record.end = EndReason::Stopped;
            break;
        }
        if view.t >= task.max_evals {
            record.end = EndReason::Capped;
            break;
        }
        let Some(next) = acquisition.choose(&view, rng) else {
            record.end = EndReason::Exhausted;
            break;
        };
        if next >= problem.n_points() || posterior.evaluated()[next] {
            return Err(format!(
                "acquisition {} chose point {next}, which is out of range or already evaluated",
                acquisition.name()
            ));
        }
        spent = evaluate(next, &mut posterior, &mut record)?;
    }
    Ok(record)
}

pub(crate) fn check_task(problem: &Problem, task: &Task) -> Result<(), String> {
    let n = problem.n_points();
    if task.objective.len() != n {
        return Err(format!(
            "objective has {} values but the domain has {n} points",
            task.objective.len()
        ));
    }
    if task.cost.len() != n {
        return Err(format!(
            "cost has {} values but the domain has {n} points",
            task.cost.len()
        ));
    }
    if let Some(i) = task.objective.iter().position(|v| !v.is_finite()) {
        return Err(format!("objective value at point {i} is not finite"));
    }
    if let Some(i) = task.cost.iter().position(|c| !(c.is_finite() && *c > 0.0)) {
        return Err(format!(
            "cost at point {i} is {}, but costs must be finite and > 0",
            task.cost[i]
        ));
    }
    if task.initial.is_empty() {
        return Err("the initial design is empty (Theorem 1 starts from one point)".into());
    }
    let mut seen = vec![false; n];
    for &j in task.initial {
        if j >= n {
            return Err(format!("initial point {j} is outside the domain (0..{n})"));
        }
        if std::mem::replace(&mut seen[j], true) {
            return Err(format!("initial point {j} is repeated"));
        }
    }
    if task.max_evals < task.initial.len() {
        return Err(format!(
            "max_evals = {} is smaller than the initial design ({} points)",
            task.max_evals,
            task.initial.len()
        ));
    }
    Ok(())
}
