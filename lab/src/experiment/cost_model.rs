//! `[cost_model]`: whether the cost is known (the default, Theorem 1's setting) or unknown and
//! modelled by a GP on its logarithm (the stopping paper's §3.2 and App. C), with that GP's
//! prior and the LogEIPC acquisition's stand-in cost (`bo::unknown_cost`).
use crate::bo::LogEipcForm;
use serde::{Deserialize, Serialize};

/// Known or unknown cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CostModelKind {
    /// The cost function is known everywhere (the default).
    Known,
    /// The cost is observed with each evaluation and `ln c` is modelled by a GP.
    Lognormal,
}

/// `[cost_model]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CostModelConfig {
    /// `"known"` (default) or `"lognormal"` (finite domains only).
    pub kind: CostModelKind,
    /// Length scale of the log-cost GP's prior (the objective prior's kernel family; mean 0
    /// on `ln c`, i.e. `ln λ` on `ln(λc)`; jitter as `prior.jitter`).
    pub length_scale: f64,
    /// Output scale (variance) of the log-cost GP's prior.
    pub outputscale: f64,
    /// The LogEIPC acquisition's stand-in: `"exp"` (`E[c]`, LogEIPC-exp, eq. 14) or `"inv"`
    /// (`E[1/c]⁻¹`, LogEIPC-inv, eq. 13). PBGI always uses `E[c]`.
    pub logeipc: String,
}

impl Default for CostModelConfig {
    fn default() -> Self {
        Self {
            kind: CostModelKind::Known,
            length_scale: 0.1,
            outputscale: 1.0,
            logeipc: "exp".into(),
        }
    }
}

impl CostModelConfig {
    /// Checks the keys; errors name them. `continuous`: the domain is the cube, where an
    /// unknown cost is not available.
    pub fn validate(&self, continuous: bool) -> Result<(), String> {
        self.logeipc_form()?;
        if self.kind == CostModelKind::Lognormal && continuous {
            return Err(
                "cost_model.kind = \"lognormal\": an unknown cost is available on finite domains \
                 (grid, random points) only, not on the cube"
                    .into(),
            );
        }
        for (key, value) in [
            ("length_scale", self.length_scale),
            ("outputscale", self.outputscale),
        ] {
            if !(value.is_finite() && value > 0.0 && value <= 1e6) {
                return Err(format!(
                    "cost_model.{key} = {value} must be finite, > 0 and ≤ 1e6"
                ));
            }
        }
        Ok(())
    }

    /// The LogEIPC acquisition's stand-in; the error names the key.
    pub fn logeipc_form(&self) -> Result<LogEipcForm, String> {
        match self.logeipc.as_str() {
            "exp" => Ok(LogEipcForm::Exp),
            "inv" => Ok(LogEipcForm::Inv),
            other => Err(format!(
                "cost_model.logeipc = \"{other}\" must be \"exp\" (E[c], LogEIPC-exp) or \"inv\" \
                 (E[1/c]⁻¹, LogEIPC-inv)"
            )),
        }
    }

    /// Whether the cost is unknown.
    pub fn is_unknown(&self) -> bool {
        self.kind == CostModelKind::Lognormal
    }
}
