//! `LogEIPC(μ, σ, y, c) = ln EI(μ, σ; y) - ln c` [stopping paper, eq. 4] and its unknown-cost
//! variants [stopping paper, eqs. 13–14].
use crate::ei::ei;
use crate::log_ei::log_ei;
use crate::SliceLengthError;

/// `ln EI(μ, σ; y) - ln c`.
///
/// # Domain
/// As [`log_ei`]; additionally `cost` NaN or `≤ 0` → NaN, `cost = +∞` → `-∞` (NaN if LogEI is
/// `+∞`).
///
/// # Method
/// `ln(EI/c)` when `EI` and `EI/c` are normal f64 (so the result near the stopping threshold 0
/// carries only the relative error of `EI/c` as an absolute error); otherwise
/// `log_ei - ln c`.
///
/// # Accuracy
/// Where `ln(EI/c)` is used: absolute error ≤ 4·2^-52 + 4 ulp of the result. Elsewhere:
/// ≤ 4 ulp of `max(|LogEI|, |ln c|)`. Measured in `fast/tests/against_reference.rs`.
#[inline]
pub fn log_eipc(mu: f64, sigma: f64, y: f64, cost: f64) -> f64 {
    if !(cost > 0.0) {
        return f64::NAN;
    }
    let e = ei(mu, sigma, y);
    let ratio = e / cost;
    if e >= f64::MIN_POSITIVE && ratio >= f64::MIN_POSITIVE && ratio.is_finite() {
        ratio.ln()
    } else {
        log_ei(mu, sigma, y) - cost.ln()
    }
}

/// LogEIPC-inv: cost `c` replaced by `E[1/c]⁻¹ = exp(m - s²/2)` for `ln c ~ N(m, s²)`.
///
/// `= log_ei(μ, σ, y) - (m - s²/2)`. Domain: NaN in → NaN; `s < 0` → NaN (the formula depends
/// on `s²` only, but a negative standard deviation is an input error). Accuracy: ≤ 4 ulp of
/// `max(|LogEI|, |m - s²/2|)`.
#[inline]
pub fn log_eipc_inv(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> f64 {
    if !(s >= 0.0) || m.is_nan() {
        return f64::NAN;
    }
    log_ei(mu, sigma, y) - (m - 0.5 * s * s)
}

/// LogEIPC-exp: cost `c` replaced by `E[c] = exp(m + s²/2)` for `ln c ~ N(m, s²)`. Only this
/// form keeps the equivalence with the PBGI stopping rule (MATH.md).
///
/// `= log_ei(μ, σ, y) - (m + s²/2)`. Domain: NaN in → NaN; `s < 0` → NaN. Accuracy: ≤ 4 ulp of
/// `max(|LogEI|, |m + s²/2|)`.
#[inline]
pub fn log_eipc_exp(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> f64 {
    if !(s >= 0.0) || m.is_nan() {
        return f64::NAN;
    }
    log_ei(mu, sigma, y) - (m + 0.5 * s * s)
}

/// [`log_eipc`] over slices: `out[i] = log_eipc(mu[i], sigma[i], y, cost[i])`. No allocation.
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless all slices have equal lengths.
pub fn log_eipc_slice(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    cost: &[f64],
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[
        ("mu", mu.len()),
        ("sigma", sigma.len()),
        ("cost", cost.len()),
        ("out", out.len()),
    ])?;
    for (((o, &m), &s), &c) in out.iter_mut().zip(mu).zip(sigma).zip(cost) {
        *o = log_eipc(m, s, y, c);
    }
    Ok(())
}
