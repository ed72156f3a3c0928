//! SRGap-med (Ishibashi et al. 2023): stop when an upper bound on the gap between consecutive
//! expected minimum simple regrets falls below `χ ×` the median of its first `I` values
//! (stopping paper, §2.2 item 3, §4 "Baselines" and App. B).
use super::ucb_lcb::gp_ucb_beta;
use super::{require_positive, require_probability, FromParams, RuleContext, RuleParams};
use crate::bo::{StepView, StoppingRule};
use crate::experiment::sample_stats::median;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

/// Parameters of [`SrGapMed`].
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SrGapMedParams {
    /// Threshold factor `χ = 0.01` (stopping paper, §4 parameter list; App. B uses 0.1 only for
    /// the empirical benchmarks).
    pub chi: f64,
    /// Number of initial statistic values whose median sets the threshold: `I = 20`
    /// (stopping paper, §4 parameter list and App. B).
    pub initial_values: usize,
    /// `δ` of the confidence bounds in the gap: 0.1, shared with UCB-LCB (stopping paper,
    /// App. B: "UCB/LCB-based ... stopping rules").
    pub delta: f64,
    /// Scale-down of `β_t`: 5, shared with UCB-LCB (stopping paper, App. B).
    pub scale_down: f64,
    /// Observation-noise variance of the model, `10⁻⁶` (stopping paper, App. B, "Gaussian
    /// process models"). The KL term of the bound is infinite without noise.
    pub noise_variance: f64,
}

impl Default for SrGapMedParams {
    fn default() -> Self {
        Self {
            chi: 0.01,
            initial_values: 20,
            delta: 0.1,
            scale_down: 5.0,
            noise_variance: 1e-6,
        }
    }
}

impl RuleParams for SrGapMedParams {
    fn validate(&self) -> Result<(), String> {
        require_positive("srgap_med.chi", self.chi)?;
        if self.initial_values == 0 {
            return Err("srgap_med.initial_values = 0 must be at least 1".to_string());
        }
        require_probability("srgap_med.delta", self.delta)?;
        require_positive("srgap_med.scale_down", self.scale_down)?;
        require_positive("srgap_med.noise_variance", self.noise_variance)
    }
}

/// `KL(N(m', v') ‖ N(m, v))` between the posterior of `f(x)` after observing `y = f(x) + noise`
/// (variance `s²`) and before it (`N(m, v)`):
/// `½[ln(1 + v/s²) − v/(v + s²) + v·(y − m)²/(v + s²)²]`. Because the observation depends on
/// `f` only through `f(x)`, this is also the KL between the two GP posteriors (Ishibashi et al.
/// 2023). `v = 0` gives 0.
pub fn posterior_update_kl(prior_mean: f64, prior_var: f64, y: f64, noise_var: f64) -> f64 {
    let total = prior_var + noise_var;
    let residual = y - prior_mean;
    0.5 * ((prior_var / noise_var).ln_1p() - prior_var / total
        + prior_var * residual * residual / (total * total))
}

/// The previous step's posterior, kept for the next gap.
struct PreviousStep {
    mean: Vec<f64>,
    sd: Vec<f64>,
    evaluated: Vec<bool>,
    y_best: f64,
}

/// SRGap-med. At step `t` (from the second observed step on) the statistic is the bound of
/// Ishibashi et al. (2023, Thm. 2) in the noiseless model:
///
/// `Δ_t = |y*_{t−1} − y*_t| + κ_{t−1} · √(KL_t/2)`,
///
/// where `κ_{t−1} = min_{evaluated} UCB_{t−1} − min_x LCB_{t−1}` with `β_t` as in UCB-LCB, and
/// `KL_t` = [`posterior_update_kl`] at the new point `x_t` (posterior of step `t−1`, noise
/// variance `10⁻⁶`). Their bound's third term, an expected-improvement difference between the
/// previous and current recommended points, vanishes here: both are evaluated points with zero
/// posterior variance and the current one is the incumbent. The threshold is `χ ×` the median of
/// the first `I` values of `Δ`; checks start with value `I + 1`, and the rule stops iff
/// `Δ_t < threshold`.
pub struct SrGapMed {
    params: SrGapMedParams,
    dim: usize,
    previous: Option<PreviousStep>,
    initial: Vec<f64>,
    threshold: Option<f64>,
}

impl FromParams<SrGapMedParams> for SrGapMed {
    fn from_params(params: &SrGapMedParams, context: &RuleContext) -> Self {
        Self {
            params: params.clone(),
            dim: context.dim,
            previous: None,
            initial: Vec::new(),
            threshold: None,
        }
    }
}

impl SrGapMed {
    /// `Δ_t` for the current step given the previous one.
    fn statistic(&self, previous: &PreviousStep, step: &StepView) -> f64 {
        let p = &self.params;
        let sqrt_beta = (gp_ucb_beta(step.t, self.dim, p.delta) / p.scale_down).sqrt();
        let min_ucb_evaluated = previous
            .mean
            .iter()
            .zip(&previous.sd)
            .zip(&previous.evaluated)
            .filter(|(_, &e)| e)
            .map(|((m, s), _)| m + sqrt_beta * s)
            .fold(f64::INFINITY, f64::min);
        let min_lcb = previous
            .mean
            .iter()
            .zip(&previous.sd)
            .map(|(m, s)| m - sqrt_beta * s)
            .fold(f64::INFINITY, f64::min);
        let kappa = min_ucb_evaluated - min_lcb;
        let new_x = step.history_x[step.history_x.len() - 1];
        let new_y = step.history_y[step.history_y.len() - 1];
        let sd = previous.sd[new_x];
        let kl = posterior_update_kl(previous.mean[new_x], sd * sd, new_y, p.noise_variance);
        (previous.y_best - step.y_best).abs() + kappa * (0.5 * kl).sqrt()
    }
}

impl StoppingRule for SrGapMed {
    fn name(&self) -> String {
        "SRGap-med".to_string()
    }

    fn observe(&mut self, step: &StepView, _rng: &mut ChaCha8Rng) -> bool {
        let value = self
            .previous
            .as_ref()
            .map(|previous| self.statistic(previous, step));
        self.previous = Some(PreviousStep {
            mean: step.mean.to_vec(),
            sd: step.sd.to_vec(),
            evaluated: step.evaluated.to_vec(),
            y_best: step.y_best,
        });
        let Some(value) = value else { return false };
        match self.threshold {
            Some(threshold) => value < threshold,
            None => {
                self.initial.push(value);
                if self.initial.len() == self.params.initial_values {
                    self.threshold = median(&self.initial).map(|m| self.params.chi * m);
                }
                false
            }
        }
    }
}
