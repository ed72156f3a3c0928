//! BO on a finite domain when the cost is unknown (stopping paper §3.2 and App. C): the cost
//! `λ·c(x)` is observed with each evaluation, and a second GP models its logarithm, so that
//! `ln(λ·c(x)) ~ N(m(x), s(x)²)` under that GP's posterior. The acquisitions replace the cost
//! with a deterministic stand-in (MATH.md, "Unknown (log-normal) costs"), through
//! `pbgi_fast`'s log-normal forms:
//!
//! - PBGI with `E[c] = exp(m + s²/2)`: [`pbgi_fast::pbgi_lognormal`];
//! - LogEIPC-exp, `c ← E[c]`: [`pbgi_fast::log_eipc_exp`];
//! - LogEIPC-inv, `c ← E[1/c]⁻¹ = exp(m − s²/2)`: [`pbgi_fast::log_eipc_inv`].
//!
//! The rules see `E[c]` as the cost of every point ([`StepView::cost`]), so the PBGI/LogEIPC
//! rule is the LogEIPC-exp rule, equivalently PBGI with `E[c]` (the equivalence holds for
//! `E[c]` and fails for `E[1/c]⁻¹`, MATH.md). The run is charged the true costs.
use super::interface::StepView;
use super::run::{check_task, Control, EndReason, RunRecord, Task};
use crate::acquisitions::AcquisitionName;
use crate::gp::{Posterior, Problem};
use rand_chacha::ChaCha8Rng;

/// The stand-in cost of the LogEIPC acquisition under an unknown cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogEipcForm {
    /// `c ← E[c] = exp(m + s²/2)` (LogEIPC-exp, stopping paper eq. 14).
    Exp,
    /// `c ← E[1/c]⁻¹ = exp(m − s²/2)` (LogEIPC-inv, eq. 13).
    Inv,
}

/// The log-cost model of a run: the GP prior of `ln c(x)` on the domain (centred: its mean is
/// the prior mean of `ln c`), and `ln λ`, added to put `ln(λ·c)` on the objective's scale.
#[derive(Clone, Copy, Debug)]
pub struct LogCostModel<'a> {
    /// The prior of `ln c` (the same domain as the objective's).
    pub problem: &'a Problem,
    /// `ln λ`.
    pub log_lambda: f64,
    /// The LogEIPC acquisition's stand-in.
    pub logeipc: LogEipcForm,
}

/// [`run_bo`](super::run_bo) with the cost unknown: after each evaluation the log cost
/// `ln c(x_t) = ln(task.cost[x_t]) − ln λ` is observed by the log-cost GP; the step's view
/// carries `E[λc]` at every point as its cost; PBGI and LogEIPC choose through the log-normal
/// forms (module docs), LCB and TS as with a known cost (they ignore the cost). The record
/// holds the true costs. Errors: those of `run_bo`, a log-cost prior on another domain size,
/// a non-finite `ln λ`.
pub fn run_bo_unknown_cost(
    problem: &Problem,
    task: &Task,
    model: &LogCostModel,
    acquisition: AcquisitionName,
    rng: &mut ChaCha8Rng,
    on_step: &mut dyn FnMut(&StepView, &mut ChaCha8Rng) -> Control,
) -> Result<RunRecord, String> {
    check_task(problem, task)?;
    let n = problem.n_points();
    if model.problem.n_points() != n {
        return Err(format!(
            "the log-cost prior has {} points but the domain has {n}",
            model.problem.n_points()
        ));
    }
    if !model.log_lambda.is_finite() {
        return Err(format!("ln λ = {} is not finite", model.log_lambda));
    }
    let built = acquisition.build(problem.domain().dim());
    let mut posterior = Posterior::new(problem);
    let mut log_cost = Posterior::new(model.problem);
    let mut record = RunRecord {
        x: Vec::new(),
        y: Vec::new(),
        cost: Vec::new(),
        incumbent: Vec::new(),
        end: EndReason::Stopped,
    };
    let mut spent = 0.0;
    let mut evaluate = |j: usize,
                        posterior: &mut Posterior,
                        log_cost: &mut Posterior,
                        record: &mut RunRecord|
     -> Result<f64, String> {
        let y = task.objective[j];
        posterior.observe(j, y)?;
        log_cost.observe(j, task.cost[j].ln() - model.log_lambda)?;
        let best = record.incumbent.last().map_or(y, |&b| b.min(y));
        record.x.push(j);
        record.y.push(y);
        record.cost.push(task.cost[j]);
        record.incumbent.push(best);
        spent += task.cost[j];
        Ok(spent)
    };
    let mut total = 0.0;
    for &j in task.initial {
        total = evaluate(j, &mut posterior, &mut log_cost, &mut record)?;
    }
    loop {
        let m: Vec<f64> = log_cost
            .mean()
            .iter()
            .map(|v| v + model.log_lambda)
            .collect();
        let s = log_cost.sd();
        let expected_cost: Vec<f64> = m
            .iter()
            .zip(s)
            .map(|(m, s)| (m + 0.5 * s * s).exp())
            .collect();
        let y_best = record.final_incumbent();
        let view = StepView {
            t: record.x.len(),
            initial: task.initial.len(),
            mean: posterior.mean(),
            sd: posterior.sd(),
            evaluated: posterior.evaluated(),
            cost: &expected_cost,
            history_x: &record.x,
            history_y: &record.y,
            y_best,
            cumulative_cost: total,
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
        let next = match acquisition {
            AcquisitionName::Pbgi => best_unevaluated(view.evaluated, |i| {
                -pbgi_fast::pbgi_lognormal(view.mean[i], view.sd[i], m[i], s[i])
            }),
            AcquisitionName::LogEipc => best_unevaluated(view.evaluated, |i| {
                let (mu, sigma) = (view.mean[i], view.sd[i]);
                match model.logeipc {
                    LogEipcForm::Exp => pbgi_fast::log_eipc_exp(mu, sigma, y_best, m[i], s[i]),
                    LogEipcForm::Inv => pbgi_fast::log_eipc_inv(mu, sigma, y_best, m[i], s[i]),
                }
            }),
            AcquisitionName::Lcb | AcquisitionName::Ts => built.choose(&view, rng),
        };
        let Some(next) = next else {
            record.end = EndReason::Exhausted;
            break;
        };
        if next >= n || posterior.evaluated()[next] {
            return Err(format!(
                "acquisition {} chose point {next}, which is out of range or already evaluated",
                built.name()
            ));
        }
        total = evaluate(next, &mut posterior, &mut log_cost, &mut record)?;
    }
    Ok(record)
}

/// The unevaluated index with the largest `score` (lowest index on ties; NaN never chosen).
fn best_unevaluated(evaluated: &[bool], mut score: impl FnMut(usize) -> f64) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &done) in evaluated.iter().enumerate() {
        if done {
            continue;
        }
        let v = score(i);
        if v.is_nan() {
            continue;
        }
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}
