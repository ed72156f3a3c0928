//! The papers' PBGI solver, kept as the accuracy and speed baseline: bracket `[-1, 1]` doubled
//! until it holds the root, then exactly 100 midpoint steps on `EI(μ, σ; g) - c`.
use crate::ei::ei;

/// PBGI by the papers' bisection (baseline only; use [`crate::pbgi`]).
///
/// # Method
/// `lo = -1`, `hi = 1`; while `EI(lo) > c`, `lo *= 2`... (both ends doubled away from 0 until
/// `EI(lo) ≤ c ≤ EI(hi)`), then 100 steps `mid = (lo + hi)/2`, keeping the half holding the
/// root; returns the final midpoint. The bracket is in `g`, so `μ` far from 0 costs extra
/// doublings and the answer is limited to the bracket width / 2^100.
///
/// # Domain
/// As [`crate::pbgi`]: NaN in → NaN, `σ < 0` or `cost ≤ 0` → NaN. `σ = 0` goes through the
/// same bisection (EI is then `max(g - μ, 0)`).
///
/// # Accuracy
/// Limited by EI's rounding near the root: where `EI` is flat (`c/σ` tiny) the root is
/// ill-determined in `g`. Measured (no bound) beside [`crate::pbgi`] by the conformance table
/// (`pbgi conformance`; bounds of the other functions: `conformance/src/tolerances.rs`).
pub fn pbgi_bisection100(mu: f64, sigma: f64, cost: f64) -> f64 {
    if mu.is_nan() || sigma.is_nan() || cost.is_nan() || sigma < 0.0 || !(cost > 0.0) {
        return f64::NAN;
    }
    if !mu.is_finite() || !sigma.is_finite() || !cost.is_finite() {
        return crate::pbgi::pbgi(mu, sigma, cost);
    }
    let mut lo = -1.0_f64;
    let mut hi = 1.0_f64;
    while ei(mu, sigma, lo) > cost && lo.is_finite() {
        lo *= 2.0;
    }
    while ei(mu, sigma, hi) < cost && hi.is_finite() {
        hi *= 2.0;
    }
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if ei(mu, sigma, mid) > cost {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}
