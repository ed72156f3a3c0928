//! UCB-LCB (Makarova et al. 2022): stop once the confidence-bound regret bound
//! `min_x UCB_t(x) − min_x LCB_t(x)` falls below a threshold (stopping paper, §4 "Baselines").
use super::{require_positive, require_probability, FromParams, RuleContext, RuleParams};
use crate::bo::{StepView, StoppingRule};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

/// Parameters of [`UcbLcb`]; defaults are the stopping paper's.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct UcbLcbParams {
    /// Stop when the gap is below this: `θ = 0.01` (stopping paper, §4, parameter list).
    pub threshold: f64,
    /// Confidence parameter of `β_t`: `δ = 0.1` (stopping paper, App. B, "Acquisition function
    /// and stopping rule parameters", after Srinivas et al. and Makarova et al.).
    pub delta: f64,
    /// `β_t` is divided by this: 5 (stopping paper, App. B, same paragraph).
    pub scale_down: f64,
}

impl Default for UcbLcbParams {
    fn default() -> Self {
        Self {
            threshold: 0.01,
            delta: 0.1,
            scale_down: 5.0,
        }
    }
}

impl RuleParams for UcbLcbParams {
    fn validate(&self) -> Result<(), String> {
        require_positive("ucb_lcb.threshold", self.threshold)?;
        require_probability("ucb_lcb.delta", self.delta)?;
        require_positive("ucb_lcb.scale_down", self.scale_down)
    }
}

/// The GP-UCB confidence parameter `β_t = 2·ln(d·t²·π²/(6δ))` (Srinivas et al. 2009; stopping
/// paper, App. B), before any scale-down. `t` is the number of evaluations so far.
///
/// # Domain
/// `t ≥ 1`, `d ≥ 1`, `0 < δ < 1`, so the argument of `ln` exceeds `π²/6 > 1` and `β_t > 0`.
pub fn gp_ucb_beta(t: usize, dim: usize, delta: f64) -> f64 {
    let t = t as f64;
    2.0 * (dim as f64 * t * t * std::f64::consts::PI.powi(2) / (6.0 * delta)).ln()
}

/// `min_x UCB(x) − min_x LCB(x)` over the whole domain, with `UCB/LCB = μ ± √β·σ`.
/// Evaluated points (σ = 0) take part with `UCB = LCB = f(x)`.
pub fn confidence_gap(mean: &[f64], sd: &[f64], sqrt_beta: f64) -> f64 {
    let min_ucb = mean
        .iter()
        .zip(sd)
        .map(|(m, s)| m + sqrt_beta * s)
        .fold(f64::INFINITY, f64::min);
    let min_lcb = mean
        .iter()
        .zip(sd)
        .map(|(m, s)| m - sqrt_beta * s)
        .fold(f64::INFINITY, f64::min);
    min_ucb - min_lcb
}

/// UCB-LCB rule: at step `t`, with `β = gp_ucb_beta(t, d, δ)/scale_down`, stop iff
/// `min_x (μ_t + √β σ_t) − min_x (μ_t − √β σ_t) < θ` (stopping paper §4 and App. B;
/// Makarova et al. 2022). Stateless.
pub struct UcbLcb {
    params: UcbLcbParams,
    dim: usize,
}

impl FromParams<UcbLcbParams> for UcbLcb {
    fn from_params(params: &UcbLcbParams, context: &RuleContext) -> Self {
        Self {
            params: params.clone(),
            dim: context.dim,
        }
    }
}

impl StoppingRule for UcbLcb {
    fn name(&self) -> String {
        "UCB-LCB".to_string()
    }

    fn observe(&mut self, step: &StepView, _rng: &mut ChaCha8Rng) -> bool {
        let beta = gp_ucb_beta(step.t, self.dim, self.params.delta) / self.params.scale_down;
        confidence_gap(step.mean, step.sd, beta.sqrt()) < self.params.threshold
    }
}
