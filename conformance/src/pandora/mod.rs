//! The Pandora's Box report of `pbgi pandora` and of `pbgi.pandora` in Python: an instance file
//! read exactly ([`format`], over the strict JSON reader [`json`]), solved by either engine, and
//! reported as JSON ([`report`]: indices in policy order, expected cost, best value and
//! objective, and for small discrete instances the DP optimum and whether the policy attains
//! it). The f64 engine's near ties are decided by the exact instance ([`ties`]).
pub mod format;
pub mod json;
pub mod report;
pub mod ties;

/// Which crate computes the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Exact rationals (discrete) / MPFR (normal): `pbgi_reference::pandora`.
    Reference,
    /// f64: `pbgi_fast::pandora`.
    Fast,
}
