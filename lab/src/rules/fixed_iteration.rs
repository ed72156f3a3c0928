//! Fixed-iteration stopping: always stop after a set number of evaluations (the dashed
//! "fixed iteration stopping" curves of the stopping paper, figures 18–20).
use super::{FromParams, RuleContext, RuleParams};
use crate::bo::{StepView, StoppingRule};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Parameters of [`FixedIteration`].
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct FixedIterationParams {
    /// Total evaluations (initial design included) after which to stop. Default 50, the example
    /// the stopping paper's figures 18–20 give for their fixed-iteration curve; the best fixed
    /// iteration in hindsight is reported separately.
    pub evaluations: usize,
}

impl Default for FixedIterationParams {
    fn default() -> Self {
        Self { evaluations: 50 }
    }
}

impl RuleParams for FixedIterationParams {
    fn validate(&self) -> Result<(), String> {
        if self.evaluations == 0 {
            return Err("fixed.evaluations = 0 must be at least 1".to_string());
        }
        Ok(())
    }
}

/// Stop iff `t ≥ evaluations`.
pub struct FixedIteration {
    evaluations: usize,
}

impl FromParams<FixedIterationParams> for FixedIteration {
    fn from_params(params: &FixedIterationParams, _context: &RuleContext) -> Self {
        Self {
            evaluations: params.evaluations,
        }
    }
}

impl StoppingRule for FixedIteration {
    fn name(&self) -> String {
        format!("Fixed-{}", self.evaluations)
    }

    fn observe(&mut self, step: &StepView, _rng: &mut ChaCha8Rng) -> bool {
        step.t >= self.evaluations
    }
}
