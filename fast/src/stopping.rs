//! The PBGI/LogEIPC stopping rule [stopping paper, eqs. 6–10; MATH.md]: stop when
//! `min PBGI ≥ y*`, equivalently `max LogEIPC(·, y*) ≤ 0`. Ties stop.
use crate::gittins::pbgi;
use crate::log_eipc::log_eipc;

/// One candidate point: posterior `N(mu, sigma²)` and (scaled) cost `cost > 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// Posterior mean.
    pub mu: f64,
    /// Posterior standard deviation (`≥ 0`).
    pub sigma: f64,
    /// Evaluation cost in objective units (`λ·c(x)`, `> 0`).
    pub cost: f64,
}

/// `true` when `min_x PBGI(x) ≥ y_best` (ties stop; no candidates → stop).
///
/// A candidate with invalid inputs (NaN, `σ < 0`, `cost ≤ 0`) has a NaN index, which never
/// satisfies `≥`, so garbage never triggers a stop; a NaN `y_best` never stops unless there
/// are no candidates.
/// Agrees with the reference decision except when some index is within [`pbgi`]'s error
/// band of `y_best`.
pub fn stop_by_pbgi(candidates: &[Candidate], y_best: f64) -> bool {
    candidates
        .iter()
        .all(|c| pbgi(c.mu, c.sigma, c.cost) >= y_best)
}

/// `true` when `max_x LogEIPC(x, y_best) ≤ 0` (ties stop; no candidates → stop).
///
/// Invalid candidates give NaN, which never satisfies `≤ 0`, so they never trigger a stop;
/// a NaN `y_best` never stops unless there are no candidates.
pub fn stop_by_log_eipc(candidates: &[Candidate], y_best: f64) -> bool {
    candidates
        .iter()
        .all(|c| log_eipc(c.mu, c.sigma, y_best, c.cost) <= 0.0)
}
