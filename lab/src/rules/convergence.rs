//! Convergence: stop once the best observed value has stayed unchanged for `w` BO iterations
//! (stopping paper, §4 "Baselines": "stops as soon as the best observed value remains
//! unchanged for w iterations").
use super::{FromParams, RuleContext, RuleParams};
use crate::bo::{StepView, StoppingRule};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Parameters of [`Convergence`].
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ConvergenceParams {
    /// Number of BO iterations without improvement: `w = 5` (stopping paper, §4 parameter
    /// list).
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
        super::moving_average::require_window("convergence.window", self.window)
    }
}

/// Stop at step `t` iff `t − w ≥ T₀` and `y*_t = y*_{t−w}`: the incumbent is the same as `w`
/// BO iterations ago, so none of the last `w` iterations improved on it (the text's "unchanged
/// for w iterations": `w` unchanged steps, where the authors' code counts `w` equal values,
/// i.e. `w − 1` steps). Iterations are counted after the initial design, whose incumbent
/// `y*_{T₀}` is iteration 0, so the earliest stop is `t = T₀ + w`. Reads the history each step,
/// so it needs no state.
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
        if t < step.initial + self.window {
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
