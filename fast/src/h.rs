//! `h(z) = E[max(z - Z, 0)] = z·Φ(z) + φ(z)` and `ln h(z)` (MATH.md, "Gaussian building blocks").
use crate::dd::fma_dispatch;
use crate::scaled_h::{ln_h_neg, sigma_h_neg, sigma_h_pos, X_UNDERFLOW};

/// `h(z) = z·Φ(z) + φ(z)`, the expected improvement of a standard normal below threshold `z`.
///
/// # Domain
/// Every `z`. `h(NaN) = NaN`, `h(+∞) = +∞`, `h(-∞) = 0`; `h(z)` underflows to 0 below
/// `z ≈ -38.5` (use [`ln_h`] there).
///
/// # Method
/// `z ≥ 0`: `z + p(z)·e^{-z²/2}` (the second term is `h(-z)`, since `h(z) - h(-z) = z`);
/// `z < 0`: `p(-z)·e^{-z²/2}` with `z²` exact and a scaled exponential, where
/// `p(x) = h(-x)/e^{-x²/2}` is a piecewise polynomial fit (`fast/tools/fit_tail.py`).
/// No cancellation anywhere.
///
/// # Accuracy
/// ≤ 4 ulp (f64 values from the correctly rounded result) over the whole domain. The bound,
/// why it holds and the measured maximum per region: the one tolerance table,
/// `conformance/src/tolerances.rs` (error analysis: `proofs-notes/fast-error-analysis.md`).
#[inline]
pub fn h(z: f64) -> f64 {
    fma_dispatch!(h_body(z: f64) -> f64)
}

/// [`h`], compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn h_body(z: f64) -> f64 {
    if z >= 0.0 {
        sigma_h_pos(z, 1.0, z, 0.0)
    } else if z >= -X_UNDERFLOW {
        sigma_h_neg(-z, 0.0, 1.0, 0)
    } else if z.is_nan() {
        f64::NAN
    } else {
        0.0
    }
}

/// `ln h(z)`; it does not underflow with `h`, and is finite for finite
/// `z ≥ -1.8961503816218352e154` (below, `-∞`: see Domain).
///
/// # Domain
/// Every `z`. `ln_h(NaN) = NaN`, `ln_h(+∞) = +∞`, `ln_h(-∞) = -∞`; below
/// `z = -1.8961503816218352e154` (`-0x1.6a09e667f3bccp+512`, the reference's boundary too),
/// `-z²/2` overflows and the result is `-∞` (the true value is below `-f64::MAX`).
///
/// # Method
/// `z ≥ 0`: `ln(h(z))`. `z < 0`: `-z²/2 + ln p(-z)` with `z²` as an exact double-double; both
/// terms are negative, so there is no cancellation (MATH.md: `ln h ≈ -z²/2` far out).
///
/// # Accuracy
/// ≤ 4 ulp of `max(|ln h|, 1)` from the correctly rounded result. The bound, why it holds and
/// the measured maximum per region: the one tolerance table, `conformance/src/tolerances.rs`.
#[inline]
pub fn ln_h(z: f64) -> f64 {
    fma_dispatch!(ln_h_body(z: f64) -> f64)
}

/// [`ln_h`], compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn ln_h_body(z: f64) -> f64 {
    if z >= 0.0 {
        sigma_h_pos(z, 1.0, z, 0.0).ln()
    } else if z.is_nan() {
        f64::NAN
    } else if z == f64::NEG_INFINITY {
        f64::NEG_INFINITY
    } else {
        ln_h_neg(-z)
    }
}
