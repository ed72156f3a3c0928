//! The acquisition functions, each maximised exactly over the unevaluated domain points
//! (minimisation convention: PBGI and LCB pick the smallest value, LogEIPC the largest), and
//! the one registry ([`AcquisitionName`]) that both studies read their names from.
//!
//! Ties go to the lowest domain index, so runs are reproducible. Points whose value is NaN
//! are never chosen (and cannot arise from valid posteriors and costs).
pub mod lcb;
pub mod log_eipc;
pub mod pbgi;
pub mod thompson;

pub use lcb::{gp_ucb_beta, Lcb};
pub use log_eipc::LogEipc;
pub use pbgi::{pbgi_argmin, Pbgi};
pub use thompson::Thompson;

use crate::bo::{Acquisition, StepView};
use serde::{Deserialize, Serialize};

/// The acquisitions by their configuration names (the same in every config file and on every
/// command line): `pbgi`, `logeipc`, `lcb`, `ts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AcquisitionName {
    /// PBGI (within Theorem 1).
    Pbgi,
    /// LogEIPC (within Theorem 1).
    LogEipc,
    /// Lower confidence bound (outside Theorem 1; cost-unaware).
    Lcb,
    /// Thompson sampling (outside Theorem 1; cost-unaware).
    Ts,
}

impl AcquisitionName {
    /// Every acquisition, in report order.
    pub const ALL: [AcquisitionName; 4] = [
        AcquisitionName::Pbgi,
        AcquisitionName::LogEipc,
        AcquisitionName::Lcb,
        AcquisitionName::Ts,
    ];

    /// Table label (`PBGI`, `LogEIPC`, `LCB`, `TS`).
    pub fn label(self) -> &'static str {
        match self {
            AcquisitionName::Pbgi => "PBGI",
            AcquisitionName::LogEipc => "LogEIPC",
            AcquisitionName::Lcb => "LCB",
            AcquisitionName::Ts => "TS",
        }
    }

    /// Configuration name (`pbgi`, `logeipc`, `lcb`, `ts`).
    pub fn key(self) -> &'static str {
        match self {
            AcquisitionName::Pbgi => "pbgi",
            AcquisitionName::LogEipc => "logeipc",
            AcquisitionName::Lcb => "lcb",
            AcquisitionName::Ts => "ts",
        }
    }

    /// Whether Theorem 1 covers it (it guarantees `EI ≥ c` at every acquired point).
    pub fn within_theorem(self) -> bool {
        matches!(self, AcquisitionName::Pbgi | AcquisitionName::LogEipc)
    }

    /// The acquisition, for a domain of dimension `dim` (LCB's schedule depends on it).
    pub fn build(self, dim: usize) -> Box<dyn Acquisition> {
        match self {
            AcquisitionName::Pbgi => Box::new(Pbgi),
            AcquisitionName::LogEipc => Box::new(LogEipc),
            AcquisitionName::Lcb => Box::new(Lcb::paper(dim)),
            AcquisitionName::Ts => Box::new(Thompson),
        }
    }
}

/// Index of the smallest `score(i)` over unevaluated `i` (lowest index on ties).
fn argmin_unevaluated(step: &StepView, mut score: impl FnMut(usize) -> f64) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &done) in step.evaluated.iter().enumerate() {
        if done {
            continue;
        }
        let s = score(i);
        if best.map_or(!s.is_nan(), |(_, b)| s < b) {
            best = Some((i, s));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lowercase_and_unknown_names_are_listed() {
        let names: Vec<AcquisitionName> =
            serde_json::from_str(r#"["pbgi", "logeipc", "lcb", "ts"]"#).unwrap();
        assert_eq!(names, AcquisitionName::ALL);
        for name in AcquisitionName::ALL {
            assert_eq!(
                serde_json::to_string(&name).unwrap(),
                format!("\"{}\"", name.key())
            );
        }
        let e = serde_json::from_str::<AcquisitionName>(r#""PBGI""#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("PBGI") && e.contains("logeipc"), "{e}");
    }
}
