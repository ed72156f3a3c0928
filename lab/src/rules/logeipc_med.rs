//! LogEIPC-med: stop when the largest log expected improvement per cost falls below `ln η`
//! plus the median of its first `I` values (stopping paper, §2.2 item 2 and §4 "Baselines";
//! the EI-median rule of Ishibashi et al. 2023 on the LogEIPC scale).
use super::moving_average::{require_window, MovingAverage};
use super::pbgi_logeipc::{stop_statistic, StopForm};
use super::{require_positive, FromParams, RuleContext, RuleParams};
use crate::bo::{StepView, StoppingRule};
use crate::study::stats::median;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Parameters of [`LogEipcMed`].
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LogEipcMedParams {
    /// Threshold factor `η = 0.01` (stopping paper, §4 parameter list).
    pub eta: f64,
    /// Number of initial values whose median sets the threshold: `I = 20` (stopping paper, §4
    /// parameter list).
    pub initial_values: usize,
    /// Compare the mean of the statistic over the last this many steps (1: off; the paper's
    /// code uses 20 in 8-D).
    pub moving_average: usize,
}

impl Default for LogEipcMedParams {
    fn default() -> Self {
        Self {
            eta: 0.01,
            initial_values: 20,
            moving_average: 1,
        }
    }
}

impl RuleParams for LogEipcMedParams {
    fn validate(&self) -> Result<(), String> {
        require_positive("logeipc_med.eta", self.eta)?;
        if self.initial_values == 0 {
            return Err("logeipc_med.initial_values = 0 must be at least 1".to_string());
        }
        require_window("logeipc_med.moving_average", self.moving_average)
    }
}

/// `max_x LogEIPC_t(x) = max_x [ln EI(μ_t(x), σ_t(x); y*_t) − ln(λ c(x))]` over the unevaluated
/// points or the cube (stopping paper, eq. 4; `pbgi_fast::log_eipc`): the PBGI/LogEIPC rule's
/// statistic; `−∞` if every point is evaluated.
pub fn max_log_eipc(step: &StepView) -> f64 {
    stop_statistic(step, StopForm::LogEipc)
}

/// LogEIPC-med: the statistic [`max_log_eipc`] at every step; its first `I` values set the
/// threshold `ln η + median`; from value `I + 1` on, stop iff the statistic is below it. With
/// `moving_average = w > 1`, the mean of the last `w` values is compared instead (the
/// threshold still comes from the raw values, as in the paper's code).
pub struct LogEipcMed {
    params: LogEipcMedParams,
    average: MovingAverage,
    initial: Vec<f64>,
    threshold: Option<f64>,
}

impl FromParams<LogEipcMedParams> for LogEipcMed {
    fn from_params(params: &LogEipcMedParams, _context: &RuleContext) -> Self {
        Self {
            params: params.clone(),
            average: MovingAverage::new(params.moving_average),
            initial: Vec::new(),
            threshold: None,
        }
    }
}

impl StoppingRule for LogEipcMed {
    fn name(&self) -> String {
        "LogEIPC-med".to_string()
    }

    fn observe(&mut self, step: &StepView, _rng: &mut ChaCha8Rng) -> bool {
        let value = max_log_eipc(step);
        let mean = self.average.push(value);
        match self.threshold {
            Some(threshold) => mean.is_some_and(|m| m < threshold),
            None => {
                self.initial.push(value);
                if self.initial.len() == self.params.initial_values {
                    self.threshold = median(&self.initial).map(|m| self.params.eta.ln() + m);
                }
                false
            }
        }
    }
}
