//! SRGap-med (Ishibashi et al. 2023): stop when an upper bound on the gap between consecutive
//! expected minimum simple regrets falls below `χ ×` the median of its first `I` values
//! (stopping paper, §4 "Baselines" and App. B).
//!
//! The statistic follows the stopping paper's code (`Expected_Min_Regret_Gap`), which is what
//! the paper's figures measure; `proofs-notes/stopping-rules.md` sets it beside Ishibashi et
//! al.'s own definition. That code computes every stopping statistic after choosing the next
//! point and before conditioning on it, so the statistic logged with evaluation `t` reads the
//! posteriors `P_{t−1}` ("new") and `P_{t−2}` ("old") that precede `x_t`, at the points `x_t`
//! and `x_{t−1}`. This rule reproduces that exactly at step `t`: it keeps the two previous
//! posteriors.
use super::moving_average::{require_window, MovingAverage};
use super::{require_positive, require_probability, FromParams, RuleContext, RuleParams};
use crate::acquisitions::lcb::{bo_iteration_index, gp_ucb_beta};
use crate::bo::{StepView, StoppingRule};
use crate::study::stats::median;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Smallest variance used in the KL term (the authors' code clamps at `1e-12` too); only
/// reached with a zero jitter, where an unobserved point's variance can round to 0.
const MIN_VARIANCE: f64 = 1e-12;

/// Direction of the Kullback–Leibler term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KlDirection {
    /// `KL(P_old ‖ P_new)`: the stopping paper's code (default).
    OldToNew,
    /// `KL(P_new ‖ P_old)`: the direction of Ishibashi et al.'s bound, `KL(p_t ‖ p_{t−1})`.
    NewToOld,
}

/// Parameters of [`SrGapMed`].
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SrGapMedParams {
    /// Threshold factor `χ = 0.01` (stopping paper, §4 parameter list; App. B uses 0.1 only for
    /// the empirical benchmarks).
    pub chi: f64,
    /// Number of initial statistic values whose median sets the threshold: `I = 20`
    /// (stopping paper, §4 parameter list and App. B).
    pub initial_values: usize,
    /// `δ` of the confidence bounds in `κ`: 0.1, shared with UCB-LCB (stopping paper, App. B).
    pub delta: f64,
    /// Scale-down of `β`: 5, shared with UCB-LCB (stopping paper, App. B).
    pub scale_down: f64,
    /// Direction of the KL term: `old_to_new` (default, the paper's code) or `new_to_old`.
    pub kl_direction: KlDirection,
    /// Compare the mean of the statistic over the last this many values (1: off; the
    /// paper's code uses 20 in 8-D).
    pub moving_average: usize,
}

impl Default for SrGapMedParams {
    fn default() -> Self {
        Self {
            chi: 0.01,
            initial_values: 20,
            delta: 0.1,
            scale_down: 5.0,
            kl_direction: KlDirection::OldToNew,
            moving_average: 1,
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
        require_window("srgap_med.moving_average", self.moving_average)
    }
}

/// `KL(N(m_p, v_p) ‖ N(m_q, v_q)) = ½[ln(v_q/v_p) + (v_p + (m_p − m_q)²)/v_q − 1]`.
///
/// Domain: `v_p, v_q > 0` (callers clamp at [`MIN_VARIANCE`]); 0 when the two are equal.
pub fn gaussian_kl(m_p: f64, v_p: f64, m_q: f64, v_q: f64) -> f64 {
    0.5 * ((v_q / v_p).ln() + (v_p + (m_p - m_q) * (m_p - m_q)) / v_q - 1.0)
}

/// One earlier posterior, as much of it as the statistic reads.
#[derive(Clone)]
struct Snapshot {
    /// Posterior mean and sd on the finite domain (empty on the continuous cube, where the
    /// earlier posteriors are recomputed from the leading block of the factor).
    mean: Vec<f64>,
    sd: Vec<f64>,
    /// Observations this posterior is conditioned on.
    observations: usize,
    /// `min_x LCB(x)` with `β` of this posterior's BO iteration index.
    min_lcb: f64,
    /// `√(β/scale_down)` used for it.
    sqrt_beta: f64,
    /// `min UCB` over the points evaluated by then (the incumbent `y*` when noiseless).
    min_ucb_evaluated: f64,
}

impl Snapshot {
    /// Mean and sd of this posterior at the `s`-th evaluated point.
    fn at(&self, step: &StepView, s: usize) -> (f64, f64) {
        match step.continuous {
            Some(space) => space.mean_sd_given_first(self.observations, s),
            None => {
                let x = step.history_x[s];
                (self.mean[x], self.sd[x])
            }
        }
    }
}

/// SRGap-med. At step `t ≥ T₀ + 1`, with `P_{t−1}` and `P_{t−2}` the two posteriors before
/// `x_t` (at `t = T₀ + 1` both are `P_{T₀}`, as in the authors' code where the first "old"
/// model is the current one):
///
/// `Δ_t = |μ_{t−2}(x_{t−1}) − μ_{t−1}(x_t)| + EI_{t−1}(x_t; y_{t−1}) + κ_{t−1}·√(KL_t/2)`,
///
/// - `EI_{t−1}(x_t; y_{t−1}) = E_{t−1}[max(f(x_{t−1}) − f(x_t), 0)]`, the code's `ei_diff`
///   (`x_{t−1}` is observed, so the difference has variance `σ²_{t−1}(x_t)`);
/// - `κ_{t−1} = min_{s ≤ t} UCB_{t−1}(x_s) − min_x LCB_{t−1}(x)` with `β` at `P_{t−1}`'s BO
///   iteration index, the minimum over the evaluated points *including* `x_t` (which
///   `P_{t−1}` has not seen), as the code's `pessimistic_CB.forward(self.x)`;
/// - `KL_t` = [`gaussian_kl`] between `P_{t−2}` and `P_{t−1}` at `x_t`, in the configured
///   direction (default `KL(old ‖ new)`).
///
/// The threshold is `χ ×` the median of the first `I` values of `Δ`; checks start with value
/// `I + 1`, and the rule stops iff `Δ_t < threshold` (with `moving_average = w > 1`: iff the
/// mean of the last `w` values of `Δ` is; the threshold still comes from the raw values).
pub struct SrGapMed {
    params: SrGapMedParams,
    average: MovingAverage,
    dim: usize,
    /// `P_{t−1}` and `P_{t−2}` relative to the step being observed.
    previous: Option<Snapshot>,
    before_previous: Option<Snapshot>,
    initial: Vec<f64>,
    threshold: Option<f64>,
}

impl FromParams<SrGapMedParams> for SrGapMed {
    fn from_params(params: &SrGapMedParams, context: &RuleContext) -> Self {
        Self {
            params: params.clone(),
            average: MovingAverage::new(params.moving_average),
            dim: context.dim,
            previous: None,
            before_previous: None,
            initial: Vec::new(),
            threshold: None,
        }
    }
}

impl SrGapMed {
    fn snapshot(&self, step: &StepView) -> Snapshot {
        let p = &self.params;
        let sqrt_beta =
            (gp_ucb_beta(bo_iteration_index(step), self.dim, p.delta) / p.scale_down).sqrt();
        let (mean, sd) = match step.continuous {
            Some(_) => (Vec::new(), Vec::new()),
            None => (step.mean.to_vec(), step.sd.to_vec()),
        };
        Snapshot {
            mean,
            sd,
            observations: step.t,
            min_lcb: step.min_lcb(sqrt_beta),
            sqrt_beta,
            min_ucb_evaluated: step.min_ucb_evaluated(sqrt_beta),
        }
    }

    /// `Δ_t` from the two posteriors before `x_t` (`new` = `P_{t−1}`, `old` = `P_{t−2}`).
    fn statistic(&self, new: &Snapshot, old: &Snapshot, step: &StepView) -> f64 {
        let t = step.history_x.len();
        let (x_new, x_prev) = (t - 1, t - 2);
        let y_prev = step.history_y[t - 2];
        let (new_mean, new_sd) = new.at(step, x_new);
        let (old_mean, old_sd) = old.at(step, x_new);
        let (old_mean_prev, _) = old.at(step, x_prev);
        let delta_mu = (old_mean_prev - new_mean).abs();
        let ei_diff = pbgi_fast::ei(new_mean, new_sd, y_prev);
        let ucb_new_point = new_mean + new.sqrt_beta * new_sd;
        let kappa = new.min_ucb_evaluated.min(ucb_new_point) - new.min_lcb;
        let v_old = (old_sd * old_sd).max(MIN_VARIANCE);
        let v_new = (new_sd * new_sd).max(MIN_VARIANCE);
        let kl = match self.params.kl_direction {
            KlDirection::OldToNew => gaussian_kl(old_mean, v_old, new_mean, v_new),
            KlDirection::NewToOld => gaussian_kl(new_mean, v_new, old_mean, v_old),
        };
        delta_mu + ei_diff + kappa * (0.5 * kl.max(0.0)).sqrt()
    }
}

impl StoppingRule for SrGapMed {
    fn name(&self) -> String {
        "SRGap-med".to_string()
    }

    fn observe(&mut self, step: &StepView, _rng: &mut ChaCha8Rng) -> bool {
        let value = match (&self.previous, &self.before_previous) {
            (Some(new), Some(old)) => Some(self.statistic(new, old, step)),
            (Some(new), None) => Some(self.statistic(new, new, step)),
            _ => None,
        };
        let snapshot = self.snapshot(step);
        self.before_previous = self.previous.replace(snapshot);
        let Some(value) = value else { return false };
        let mean = self.average.push(value);
        match self.threshold {
            Some(threshold) => mean.is_some_and(|m| m < threshold),
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
