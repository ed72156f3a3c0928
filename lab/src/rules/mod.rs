//! The stopping rules, one file and one type each, and the one list ([`RULES`]) that
//! registers them. Definitions, defaults and sources: `proofs-notes/stopping-rules.md`.
//!
//! To add a rule: write `my_rule.rs` with a parameter struct (serde, paper defaults in
//! `Default`, a [`RuleParams::validate`]) and a type implementing
//! [`StoppingRule`](crate::bo::StoppingRule); add one [`RuleSpec`] line to [`RULES`]. The
//! experiment then runs it on the same trajectories as every other rule, and a config file can
//! select it and override its parameters under `[rules.<key>]`.
pub mod clopper_pearson;
pub mod convergence;
pub mod fixed_iteration;
pub mod gss;
pub mod logeipc_med;
pub mod moving_average;
pub mod pbgi_logeipc;
pub mod prb;
pub mod srgap_med;
pub mod ucb_lcb;

use crate::bo::StoppingRule;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::Arc;

/// Facts about the experiment that some rules' defaults depend on.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleContext {
    /// Dimension `d` of the domain (enters the GP-UCB `β_t`).
    pub dim: usize,
    /// Number of initial (space-filling) evaluations `T₀` before the first stopping check.
    pub initial_points: usize,
    /// Iteration cap `T` (total evaluations); PRB spreads its risk over the `T − T₀` checks.
    pub cap: usize,
}

/// Makes a fresh, independent rule for each run (rules are stateful).
pub type RuleFactory = Arc<dyn Fn() -> Box<dyn StoppingRule> + Send + Sync>;

/// Parameters of one rule: deserialised from `[rules.<key>]` with unknown keys rejected.
pub trait RuleParams:
    DeserializeOwned + Serialize + Default + Clone + Send + Sync + 'static
{
    /// Checks ranges; the error names the bad parameter.
    fn validate(&self) -> Result<(), String>;
}

/// One registered rule: its config key and how to build it from (optional) parameters.
pub struct RuleSpec {
    /// Key in config files (`[rules.ucb_lcb]`) and on the command line.
    pub key: &'static str,
    /// Builds a factory from the parameter table (`None` = all defaults).
    pub build: fn(Option<&toml::Value>, &RuleContext) -> Result<RuleFactory, String>,
    /// The parameters in effect, as a table (defaults filled in), for the echoed configuration.
    pub effective: fn(Option<&toml::Value>) -> Result<toml::Value, String>,
}

/// Every rule the experiment knows, in the order reports list them.
pub const RULES: &[RuleSpec] = &[
    RuleSpec {
        key: "pbgi_logeipc",
        build: build::<pbgi_logeipc::PbgiLogEipcParams, pbgi_logeipc::PbgiStoppingRule>,
        effective: effective::<pbgi_logeipc::PbgiLogEipcParams>,
    },
    RuleSpec {
        key: "ucb_lcb",
        build: build::<ucb_lcb::UcbLcbParams, ucb_lcb::UcbLcb>,
        effective: effective::<ucb_lcb::UcbLcbParams>,
    },
    RuleSpec {
        key: "logeipc_med",
        build: build::<logeipc_med::LogEipcMedParams, logeipc_med::LogEipcMed>,
        effective: effective::<logeipc_med::LogEipcMedParams>,
    },
    RuleSpec {
        key: "srgap_med",
        build: build::<srgap_med::SrGapMedParams, srgap_med::SrGapMed>,
        effective: effective::<srgap_med::SrGapMedParams>,
    },
    RuleSpec {
        key: "prb",
        build: build::<prb::PrbParams, prb::Prb>,
        effective: effective::<prb::PrbParams>,
    },
    RuleSpec {
        key: "gss",
        build: build::<gss::GssParams, gss::Gss>,
        effective: effective::<gss::GssParams>,
    },
    RuleSpec {
        key: "convergence",
        build: build::<convergence::ConvergenceParams, convergence::Convergence>,
        effective: effective::<convergence::ConvergenceParams>,
    },
    RuleSpec {
        key: "fixed",
        build: build::<fixed_iteration::FixedIterationParams, fixed_iteration::FixedIteration>,
        effective: effective::<fixed_iteration::FixedIterationParams>,
    },
];

/// A rule type made from its parameters and the experiment context.
pub trait FromParams<P>: StoppingRule + Sized + 'static {
    fn from_params(params: &P, context: &RuleContext) -> Self;
}

/// Deserialises and validates `P`, then returns a factory of fresh `R`s.
fn build<P: RuleParams, R: FromParams<P>>(
    params: Option<&toml::Value>,
    context: &RuleContext,
) -> Result<RuleFactory, String> {
    let params: P = parse_params(params)?;
    params.validate()?;
    let context = context.clone();
    Ok(Arc::new(move || {
        Box::new(R::from_params(&params, &context))
    }))
}

/// The validated parameters as a table with every default filled in.
fn effective<P: RuleParams>(params: Option<&toml::Value>) -> Result<toml::Value, String> {
    let params: P = parse_params(params)?;
    params.validate()?;
    toml::Value::try_from(params).map_err(|e| e.to_string())
}

/// `None` means "all defaults"; otherwise a table whose unknown keys are errors. Values keep
/// their type (a `nan` threshold reaches the range check and is named there).
pub fn parse_params<P: RuleParams>(value: Option<&toml::Value>) -> Result<P, String> {
    match value {
        None => Ok(P::default()),
        Some(value) => value
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| e.to_string().trim_end().to_string()),
    }
}

/// The registered rule with config key `key`, or an error listing the known keys.
pub fn find_rule(key: &str) -> Result<&'static RuleSpec, String> {
    RULES.iter().find(|spec| spec.key == key).ok_or_else(|| {
        let known: Vec<&str> = RULES.iter().map(|spec| spec.key).collect();
        format!(
            "unknown stopping rule `{key}`; known rules: {}",
            known.join(", ")
        )
    })
}

/// `v` must be finite and strictly positive; the error names `what`.
pub(crate) fn require_positive(what: &str, v: f64) -> Result<(), String> {
    if v > 0.0 && v.is_finite() {
        Ok(())
    } else {
        Err(format!("{what} = {v} must be positive and finite"))
    }
}

/// `v` must lie strictly between 0 and 1; the error names `what`.
pub(crate) fn require_probability(what: &str, v: f64) -> Result<(), String> {
    // Written so that NaN fails.
    if v > 0.0 && v < 1.0 {
        Ok(())
    } else {
        Err(format!("{what} = {v} must lie in (0, 1)"))
    }
}
