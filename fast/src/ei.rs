//! Expected improvement `EI(μ, σ; y) = E[max(y - f, 0)]`, `f ~ N(μ, σ²)` (MATH.md, "Expected
//! improvement"; minimisation convention).
use crate::scaled_h::{sigma_h_excess, sigma_h_neg, X_UNDERFLOW};
use crate::standardize::standardize;
use crate::SliceLengthError;

/// `EI(μ, σ; y) = σ·h((y - μ)/σ)` for `σ > 0`, `max(y - μ, 0)` for `σ = 0`.
///
/// # Domain
/// - NaN in any argument → NaN. `σ < 0` → NaN.
/// - `σ = 0` → `max(y - μ, 0)` exactly as MATH.md (no clamping of σ).
/// - `σ = +∞` → `+∞` when `y - μ` is finite or `+∞`, NaN when it is `-∞`.
/// - `y - μ = +∞` → `+∞`; `y - μ = -∞` → 0; `y - μ` NaN (e.g. `∞ - ∞`) → NaN.
/// - Results below the subnormal range round to 0 (use [`crate::log_ei`]).
///
/// # Method
/// `y - μ` and `z = (y - μ)/σ` are carried as double-doubles. `z ≥ 0`:
/// `(y - μ) + σ·p(z)·e^{-z²/2}`; `z < 0`: `σ·p(-z)·e^{-z²/2}` with exact `z²`, a scaled
/// exponential (representable even where `h(z)` underflows but `σ·h(z)` does not) and a
/// first-order correction for the low part of `z`.
///
/// # Accuracy
/// ≤ 4 ulp for `|z| ≤ 1e8`, `σ ∈ [1e-300, 1e300]`, measured against `pbgi_reference::ei`
/// in `fast/tests/against_reference.rs`.
#[inline]
pub fn ei(mu: f64, sigma: f64, y: f64) -> f64 {
    if !(sigma > 0.0) || sigma == f64::INFINITY || !(y - mu).is_finite() {
        return ei_special(mu, sigma, y);
    }
    let s = standardize(mu, sigma, y);
    if s.zhi >= 0.0 {
        s.dhi + (s.dlo + sigma_h_excess(s.zhi, sigma))
    } else if s.zhi >= -X_UNDERFLOW {
        sigma_h_neg(-s.zhi, -s.zlo, sigma)
    } else {
        0.0
    }
}

/// The special cases of [`ei`]: `σ ≤ 0`, `σ = ∞`, NaN, infinite `y - μ`.
#[cold]
fn ei_special(mu: f64, sigma: f64, y: f64) -> f64 {
    let d = y - mu;
    if d.is_nan() || sigma.is_nan() || sigma < 0.0 {
        f64::NAN
    } else if sigma == 0.0 {
        d.max(0.0)
    } else if d == f64::NEG_INFINITY {
        if sigma == f64::INFINITY {
            f64::NAN
        } else {
            0.0
        }
    } else {
        f64::INFINITY
    }
}

/// [`ei`] over slices: `out[i] = ei(mu[i], sigma[i], y)`. No allocation.
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless `mu`, `sigma` and `out` have equal lengths.
pub fn ei_slice(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[("mu", mu.len()), ("sigma", sigma.len()), ("out", out.len())])?;
    for ((o, &m), &s) in out.iter_mut().zip(mu).zip(sigma) {
        *o = ei(m, s, y);
    }
    Ok(())
}
