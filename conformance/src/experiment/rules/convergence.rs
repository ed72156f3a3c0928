//! Convergence: stop once the best observed value has not changed for `w` evaluations
//! (stopping paper, §2.2 item 1 and §4 "Baselines").
use super::{FromParams, RuleContext, RuleParams};
use crate::bo::{StepView, StoppingRule};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

/// Parameters of [`Convergence`].
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ConvergenceParams {
    /// Number of evaluations without improvement: `w = 5` (stopping paper, §4 parameter list).
    pub window: usize,
}

impl Default for ConvergenceParams {
    fn default() -> Self {
        Self { window: 5 }
    }
}

impl RuleParams for ConvergenceParams {
    fn validate(&self) -> Result<(), String> {
        if self.window == 0 {
            return Err("convergence.window = 0 must be at least 1".to_string());
        }
        Ok(())
    }
}

/// Stop at step `t` iff `t > w` and `y*_t = y*_{t−w}`: none of the last `w` evaluations
/// improved on the incumbent. Reads the whole history each step, so it needs no state.
pub struct Convergence {
    window: usize,
}

impl FromParams<ConvergenceParams> for Convergence {
    fn from_params(params: &ConvergenceParams, _context: &RuleContext) -> Self {
        Self {
            window: params.window,
        }
    }
}

impl StoppingRule for Convergence {
    fn name(&self) -> String {
        "Convergence".to_string()
    }

    fn observe(&mut self, step: &StepView, _rng: &mut ChaCha8Rng) -> bool {
        let t = step.history_y.len();
        if t <= self.window {
            return false;
        }
        let best_before = step.history_y[..t - self.window]
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        // The last w values all failed to go below the earlier incumbent (ties do not improve).
        step.history_y[t - self.window..]
            .iter()
            .all(|&y| y >= best_before)
    }
}
