//! The PBGI/LogEIPC stopping rule of the stopping paper (eqs. 6–10) in the registry: a thin
//! parameter layer over the simulator's [`PbgiStoppingRule`] (issue 6), which implements it.
use super::{FromParams, RuleContext, RuleParams};
use crate::bo::{PbgiStoppingRule, PracticalOptions, StepView, StopForm, StoppingRule};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

/// Parameters of the PBGI/LogEIPC rule. The defaults are the rule as analysed in Theorem 1 and
/// as used in the paper's 1-D experiments (§4.1: the moving average is applied only in 8-D).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct PbgiLogEipcParams {
    /// Which equivalent form to evaluate: `"logeipc"` (`max LogEIPC ≤ 0`) or `"pbgi"`
    /// (`min PBGI ≥ y*`). Default `"logeipc"`.
    pub form: String,
    /// No stop while `t ≤ stabilisation` (0: off).
    pub stabilisation: usize,
    /// Stop only after this many consecutive signals (1: off).
    pub debounce: usize,
    /// Average the statistic over this many steps (1: off; the paper uses 20 in 8-D, §4.1).
    pub moving_average: usize,
}

impl Default for PbgiLogEipcParams {
    fn default() -> Self {
        Self {
            form: "logeipc".into(),
            stabilisation: 0,
            debounce: 1,
            moving_average: 1,
        }
    }
}

impl PbgiLogEipcParams {
    fn form(&self) -> Result<StopForm, String> {
        match self.form.as_str() {
            "logeipc" => Ok(StopForm::LogEipc),
            "pbgi" => Ok(StopForm::Pbgi),
            other => Err(format!(
                "pbgi_logeipc.form = `{other}` must be `logeipc` or `pbgi`"
            )),
        }
    }

    fn options(&self) -> PracticalOptions {
        PracticalOptions {
            stabilisation: self.stabilisation,
            debounce: self.debounce,
            moving_average: self.moving_average,
        }
    }
}

impl RuleParams for PbgiLogEipcParams {
    fn validate(&self) -> Result<(), String> {
        self.form()?;
        self.options()
            .validate()
            .map_err(|e| format!("pbgi_logeipc: {e}"))
    }
}

/// The registry's wrapper: constructs the simulator's rule from validated parameters.
pub struct PbgiLogEipc(PbgiStoppingRule);

impl FromParams<PbgiLogEipcParams> for PbgiLogEipc {
    fn from_params(params: &PbgiLogEipcParams, _context: &RuleContext) -> Self {
        // `validate` has accepted the form and options, so construction cannot fail; fall
        // back to Theorem 1's rule only to avoid a panic path.
        let rule = params
            .form()
            .and_then(|form| PbgiStoppingRule::new(form, params.options()))
            .unwrap_or_else(|_| PbgiStoppingRule::theorem());
        Self(rule)
    }
}

impl StoppingRule for PbgiLogEipc {
    fn name(&self) -> String {
        self.0.name()
    }

    fn observe(&mut self, step: &StepView, rng: &mut ChaCha8Rng) -> bool {
        self.0.observe(step, rng)
    }
}
