//! UCB-LCB (Makarova et al. 2022): stop once the confidence-bound regret bound
//! `min_{evaluated x} UCB_t(x) − min_x LCB_t(x)` falls below a threshold (stopping paper, §4
//! "Baselines"; the authors' code takes the first minimum over the evaluated points too).
use super::moving_average::{require_window, MovingAverage};
use super::{require_positive, require_probability, FromParams, RuleContext, RuleParams};
use crate::acquisitions::lcb::{bo_iteration_index, gp_ucb_beta};
use crate::bo::{StepView, StoppingRule};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Parameters of [`UcbLcb`]; defaults are the stopping paper's.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct UcbLcbParams {
    /// Stop when the gap is below this: `θ = 0.01` (stopping paper, §4, parameter list).
    pub threshold: f64,
    /// Confidence parameter of `β`: `δ = 0.1` (stopping paper, App. B, "Acquisition function
    /// and stopping rule parameters", after Srinivas et al. and Makarova et al.).
    pub delta: f64,
    /// `β` is divided by this: 5 (stopping paper, App. B, same paragraph).
    pub scale_down: f64,
    /// Compare the mean of the gap over the last this many steps (1: off; the paper's code
    /// uses 20 in 8-D).
    pub moving_average: usize,
}

impl Default for UcbLcbParams {
    fn default() -> Self {
        Self {
            threshold: 0.01,
            delta: 0.1,
            scale_down: 5.0,
            moving_average: 1,
        }
    }
}

impl RuleParams for UcbLcbParams {
    fn validate(&self) -> Result<(), String> {
        require_positive("ucb_lcb.threshold", self.threshold)?;
        require_probability("ucb_lcb.delta", self.delta)?;
        require_positive("ucb_lcb.scale_down", self.scale_down)?;
        require_window("ucb_lcb.moving_average", self.moving_average)
    }
}

/// Makarova et al.'s regret bound `min_{x evaluated} UCB(x) − min_{x ∈ D} LCB(x)`, with
/// `UCB/LCB = μ ± √β·σ`. The first minimum runs over the evaluated points only: the
/// recommendation is an evaluated point, and its UCB bounds what it is worth. In the noiseless
/// model an evaluated point has `σ = 0`, so the first minimum is the incumbent `y*`.
///
/// Domain: `mean`, `sd`, `evaluated` of equal length with at least one evaluated point;
/// `+∞` otherwise (nothing to recommend, so no bound).
pub fn confidence_gap(mean: &[f64], sd: &[f64], evaluated: &[bool], sqrt_beta: f64) -> f64 {
    let min_ucb_evaluated = mean
        .iter()
        .zip(sd)
        .zip(evaluated)
        .filter(|(_, &done)| done)
        .map(|((m, s), _)| m + sqrt_beta * s)
        .fold(f64::INFINITY, f64::min);
    let min_lcb = mean
        .iter()
        .zip(sd)
        .map(|(m, s)| m - sqrt_beta * s)
        .fold(f64::INFINITY, f64::min);
    min_ucb_evaluated - min_lcb
}

/// UCB-LCB rule: at step `t`, with `β = β_i/scale_down` and `i` the BO iteration index
/// ([`bo_iteration_index`]: BO iterations, not evaluations including the initial design),
/// stop iff the [`confidence_gap`] `< θ` (on the continuous cube the second minimum is found
/// by multi-start optimisation, `StepView::min_lcb`). With `moving_average = w > 1` the test
/// reads the mean gap over the last `w` steps, from the `w`-th step on.
pub struct UcbLcb {
    params: UcbLcbParams,
    dim: usize,
    average: MovingAverage,
}

impl FromParams<UcbLcbParams> for UcbLcb {
    fn from_params(params: &UcbLcbParams, context: &RuleContext) -> Self {
        Self {
            params: params.clone(),
            dim: context.dim,
            average: MovingAverage::new(params.moving_average),
        }
    }
}

impl StoppingRule for UcbLcb {
    fn name(&self) -> String {
        "UCB-LCB".to_string()
    }

    fn observe(&mut self, step: &StepView, _rng: &mut ChaCha8Rng) -> bool {
        let beta = gp_ucb_beta(bo_iteration_index(step), self.dim, self.params.delta)
            / self.params.scale_down;
        let sqrt_beta = beta.sqrt();
        let gap = step.min_ucb_evaluated(sqrt_beta) - step.min_lcb(sqrt_beta);
        self.average
            .push(gap)
            .is_some_and(|mean| mean < self.params.threshold)
    }
}
