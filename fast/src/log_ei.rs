//! `LogEI(μ, σ; y) = ln EI(μ, σ; y)` (MATH.md, "Expected improvement").
use crate::ei::{ei, ei_standardized, SIGMA_KERNEL_MAX, SIGMA_KERNEL_MIN};
use crate::h::ln_h;
use crate::scaled_h::{ln_h_neg_plus, ln_sigma_h_neg};
use crate::standardize::Standardized;
use crate::SliceLengthError;

/// `ln EI(μ, σ; y)`, finite wherever EI > 0 mathematically (also where EI underflows f64).
///
/// # Domain
/// - NaN in any argument → NaN; `σ < 0` → NaN.
/// - `σ = 0` → `ln max(y - μ, 0)` (`-∞` when `y ≤ μ`).
/// - `σ = +∞` → `+∞` (NaN if `y - μ = -∞`); `y - μ = +∞` → `+∞`; `y - μ = -∞` → `-∞`.
///
/// # Method
/// `z < 0` and `σ ≤ 1`: `ln σ + ln h(z)` with `ln h(z) = -z²/2 + ln p(-z)`, `z` and `z²` as
/// double-doubles; all terms are negative (no cancellation) and no exponential is needed.
/// Otherwise, where EI is a normal f64: `ln(EI)` (EI's relative error becomes an absolute
/// error of the same size); where it is not, the sum again (`|LogEI| > 708` there).
///
/// # Accuracy
/// ≤ 4 ulp of `max(|LogEI|, 1)` from the correctly rounded result, for `|z| ≤ 1e8`,
/// `σ ∈ [1e-300, 1e300]`. The bound, why it holds and the measured maximum per region (also of
/// [`log_ei_slice`]): the one tolerance table, `conformance/src/tolerances.rs`.
#[inline]
pub fn log_ei(mu: f64, sigma: f64, y: f64) -> f64 {
    if !(sigma > 0.0) || sigma == f64::INFINITY || !(y - mu).is_finite() {
        return ei(mu, sigma, y).ln();
    }
    let s = Standardized::new(mu, sigma, y);
    if s.zhi < 0.0 && sigma <= 1.0 {
        return if sigma >= SIGMA_KERNEL_MIN {
            ln_sigma_h_neg(-s.zhi, -s.zlo(), sigma)
        } else {
            ln_h_neg_plus(-s.zhi, -s.zlo(), sigma.ln())
        };
    }
    let e = if (SIGMA_KERNEL_MIN..=SIGMA_KERNEL_MAX).contains(&sigma) {
        ei_standardized(&s, sigma)
    } else {
        ei(mu, sigma, y)
    };
    if e >= f64::MIN_POSITIVE && e.is_finite() {
        e.ln()
    } else if s.zhi < 0.0 {
        // Here |LogEI| > 708, so the terms' signs no longer matter.
        ln_h_neg_plus(-s.zhi, -s.zlo(), sigma.ln())
    } else {
        sigma.ln() + ln_h(s.zhi)
    }
}

/// [`log_ei`] over slices: `out[i] = log_ei(mu[i], sigma[i], y)`. No allocation.
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless `mu`, `sigma` and `out` have equal lengths.
pub fn log_ei_slice(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[("mu", mu.len()), ("sigma", sigma.len()), ("out", out.len())])?;
    for ((o, &m), &s) in out.iter_mut().zip(mu).zip(sigma) {
        *o = log_ei(m, s, y);
    }
    Ok(())
}
