//! GSS, the global stopping strategy of Ax (Bakshy et al. 2018): stop when the improvement of
//! the incumbent over the last `w` trials is below `φ ×` the inter-quartile range of all values
//! observed so far (stopping paper, §2.2 item 1 and §4 "Baselines").
use super::{require_positive, FromParams, RuleContext, RuleParams};
use crate::bo::{StepView, StoppingRule};
use crate::study::stats::interquartile_range;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Parameters of [`Gss`].
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct GssParams {
    /// Window `w = 5` (stopping paper, §4 parameter list).
    pub window: usize,
    /// Improvement bar `φ = 0.01` (stopping paper, §4 parameter list).
    pub improvement_bar: f64,
}

impl Default for GssParams {
    fn default() -> Self {
        Self {
            window: 5,
            improvement_bar: 0.01,
        }
    }
}

impl RuleParams for GssParams {
    fn validate(&self) -> Result<(), String> {
        if self.window < 2 {
            return Err(format!("gss.window = {} must be at least 2", self.window));
        }
        super::moving_average::require_window("gss.window", self.window)?;
        require_positive("gss.improvement_bar", self.improvement_bar)
    }
}

/// At step `t ≥ w`, with `y*_s` the incumbent after `s` evaluations: stop iff
/// `|y*_{t−w+1} − y*_t| < φ · IQR(y_1, …, y_t)`. This is Ax's
/// `ImprovementGlobalStoppingStrategy` for one objective (running optimum `w − 1` trials back,
/// IQR by linear interpolation); an IQR of 0 never stops, as in Ax where the ratio is undefined.
pub struct Gss {
    params: GssParams,
}

impl FromParams<GssParams> for Gss {
    fn from_params(params: &GssParams, _context: &RuleContext) -> Self {
        Self {
            params: params.clone(),
        }
    }
}

impl StoppingRule for Gss {
    fn name(&self) -> String {
        "GSS".to_string()
    }

    fn observe(&mut self, step: &StepView, _rng: &mut ChaCha8Rng) -> bool {
        let y = step.history_y;
        let t = y.len();
        let w = self.params.window;
        if t < w {
            return false;
        }
        let best_then = y[..t - w + 1].iter().copied().fold(f64::INFINITY, f64::min);
        let improvement = (best_then - step.y_best).abs();
        match interquartile_range(y) {
            Some(iqr) => improvement < self.params.improvement_bar * iqr,
            None => false,
        }
    }
}
