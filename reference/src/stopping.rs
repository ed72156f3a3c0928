//! The PBGI/LogEIPC stopping rule decided exactly, both ways [stopping paper, eqs. 6–10;
//! MATH.md, "The PBGI/LogEIPC stopping rule"].

use crate::certified::{Accuracy, Candidate, Certified, Error};
use crate::certify::exact;
use crate::ei_comparison::ei_exceeds_cost;
use crate::input::{finite, non_negative, positive};
use crate::log_eipc::log_eipc_sign;
use crate::pbgi::pbgi;

/// Outcome of [`stop_decision`].
#[derive(Clone, Debug, PartialEq)]
pub struct StopDecision {
    /// `true` when `min PBGI ≥ y*` (equivalently `max LogEIPC ≤ 0`); ties stop.
    pub stop: bool,
    /// Indices of the candidates that block stopping (`PBGI < y*`, equivalently
    /// `LogEIPC > 0`), in input order; empty when `stop`.
    pub blocking: Vec<usize>,
    /// Index of the candidate with the smallest PBGI (by correctly rounded value, first index on
    /// ties): the one a PBGI policy evaluates next. `None` for no candidates.
    pub min_pbgi: Option<usize>,
}

/// Whether a candidate's PBGI lies below `y*`, from its certified enclosure `g`; when `y*`
/// falls inside the enclosure, the bisection's own certified test at the split point `y*`
/// decides (EI strictly increasing: `PBGI < y* ⇔ EI(y*) > c`). `σ = 0` never needs the test:
/// its enclosure is the exact point `μ + c`.
fn pbgi_below(candidate: &Candidate, g: &Certified, y_best: f64) -> Result<bool, Error> {
    let y = exact(y_best);
    if g.upper < y {
        Ok(true)
    } else if g.lower >= y {
        Ok(false)
    } else {
        ei_exceeds_cost(
            candidate.mu,
            candidate.sigma,
            y_best,
            candidate.cost,
            &Accuracy::default(),
        )
    }
}

/// Sign of `LogEIPC` certified from its own enclosure (`> 0` blocks; `≤ 0`, including an exact
/// 0, does not).
fn log_eipc_positive(candidate: &Candidate, y_best: f64) -> Result<bool, Error> {
    let sign = log_eipc_sign(
        candidate.mu,
        candidate.sigma,
        y_best,
        candidate.cost,
        &Accuracy::default(),
    )?;
    Ok(sign == std::cmp::Ordering::Greater)
}

/// The stopping rule `min PBGI(x) ≥ y*  ⇔  max LogEIPC(x, y*) ≤ 0`, decided exactly both ways.
///
/// Each candidate's PBGI is compared with `y*` through its certified enclosure (refined by a
/// certified `EI(y*) ≷ c` test when `y*` falls inside), and each LogEIPC's sign is certified
/// from its own enclosure. The two answers must agree for every candidate; if they ever did
/// not, [`Error::RuleDisagreement`] is returned (it would mean a bug, not a property of the
/// input). Ties (`PBGI = y*`, `LogEIPC = 0`, possible exactly when `σ = 0`) stop.
///
/// # Domain
/// `y_best` finite; every candidate valid for [`pbgi`] (otherwise
/// [`Error::InvalidCandidate`] with its index). No candidates: stop.
///
/// # Example
/// `PBGI(1, 0, 0.5) = 1.5` and `PBGI(0, 1, 0.1) = -0.9023…` (MATH.md, "Sanity values"): with
/// `y* = 0` the second candidate blocks (`PBGI < y*`) and has the smallest index.
/// ```
/// use pbgi_reference::{stop_decision, Candidate};
/// let candidates = [
///     Candidate { mu: 1.0, sigma: 0.0, cost: 0.5 },
///     Candidate { mu: 0.0, sigma: 1.0, cost: 0.1 },
/// ];
/// let decision = stop_decision(&candidates, 0.0).unwrap();
/// assert!(!decision.stop);
/// assert_eq!(decision.blocking, vec![1]);
/// assert_eq!(decision.min_pbgi, Some(1));
/// ```
pub fn stop_decision(candidates: &[Candidate], y_best: f64) -> Result<StopDecision, Error> {
    finite("y_best", y_best)?;
    for (index, c) in candidates.iter().enumerate() {
        let check = finite("mu", c.mu)
            .and(non_negative("sigma", c.sigma))
            .and(positive("cost", c.cost));
        check.map_err(|e| Error::InvalidCandidate {
            index,
            error: Box::new(e),
        })?;
    }
    let mut blocking = Vec::new();
    let mut min_pbgi: Option<(usize, f64)> = None;
    for (index, c) in candidates.iter().enumerate() {
        let g = pbgi(c.mu, c.sigma, c.cost)?;
        let by_pbgi = pbgi_below(c, &g, y_best)?;
        let by_log_eipc = log_eipc_positive(c, y_best)?;
        if by_pbgi != by_log_eipc {
            return Err(Error::RuleDisagreement { index });
        }
        if by_pbgi {
            blocking.push(index);
        }
        if min_pbgi.map_or(true, |(_, best)| g.value < best) {
            min_pbgi = Some((index, g.value));
        }
    }
    Ok(StopDecision {
        stop: blocking.is_empty(),
        blocking,
        min_pbgi: min_pbgi.map(|(i, _)| i),
    })
}
