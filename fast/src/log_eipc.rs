//! `LogEIPC(μ, σ, y, c) = ln EI(μ, σ; y) - ln c` [stopping paper, eq. 4] and its unknown-cost
//! variants [stopping paper, eqs. 13–14].
use crate::ei::{ei, SIGMA_KERNEL_MAX, SIGMA_KERNEL_MIN};
use crate::log_ei::log_ei;
use crate::scaled_h::{sigma_h_neg, X_UNDERFLOW};
use crate::standardize::Standardized;
use crate::SliceLengthError;

/// `ln EI(μ, σ; y) - ln c`.
///
/// # Domain
/// As [`log_ei`]; additionally `cost` NaN or `≤ 0` → NaN, `cost = +∞` → `-∞` (NaN if LogEI is
/// `+∞`).
///
/// # Method
/// `ln(EI/c)` when `EI/c` is a normal f64 (so the result near the stopping threshold 0 carries
/// only the relative error of `EI/c` as an absolute error), rescaling the problem by a power
/// of two when EI itself is subnormal or underflows; otherwise (`|LogEIPC| > 708`)
/// `log_ei - ln c`.
///
/// # Accuracy
/// ≤ 4 ulp of `max(|LogEIPC|, |ln c|, 1)` from the correctly rounded result (the error
/// analysis gives ≤ 2.42 ulp of `max(|LogEIPC|, 1)` wherever `EI/c` is a normal f64, which
/// includes every input with `|LogEIPC| ≤ 629`, and ≤ 3.07 ulp of `max(|LogEIPC|, |ln c|, 1)`
/// in the difference form beyond). The bound, its derivation and the measured maximum per
/// region (also of [`log_eipc_slice`]): the one tolerance table, `conformance/src/tolerances.rs`.
#[inline]
pub fn log_eipc(mu: f64, sigma: f64, y: f64, cost: f64) -> f64 {
    if !(cost > 0.0) {
        return f64::NAN;
    }
    let e = ei(mu, sigma, y);
    let ratio = e / cost;
    if e >= f64::MIN_POSITIVE && ratio >= f64::MIN_POSITIVE && ratio.is_finite() {
        return ratio.ln();
    }
    log_eipc_rescaled(mu, sigma, y, cost).unwrap_or_else(|| log_ei(mu, sigma, y) - cost.ln())
}

/// `ln(EI/c)` when EI is not a normal f64 but `EI/c` is. With `c = m·2^k`, `m ∈ [0.5, 1)`:
/// for `z < 0`, `EI·2^-k` comes straight from the scaled kernel; for `z ≥ 0` (EI tiny only
/// when σ and `y - μ` are), EI's homogeneity `EI(aμ, aσ; ay) = a·EI(μ, σ; y)` is used with
/// `a = 2^-k` after translating to `μ' = -dlo`, `y' = dhi` (exact, as `y - μ = dhi + dlo`).
/// `None` when the scaled problem leaves the safe range (then `|LogEIPC| > 340`).
#[cold]
fn log_eipc_rescaled(mu: f64, sigma: f64, y: f64, cost: f64) -> Option<f64> {
    if !(sigma > 0.0 && sigma.is_finite() && cost.is_finite() && (y - mu).is_finite()) {
        return None;
    }
    let (m, k) = libm::frexp(cost);
    let s = Standardized::new(mu, sigma, y);
    let e2 = if s.zhi < 0.0 {
        if s.zhi < -2.0 * X_UNDERFLOW {
            return None;
        }
        // Keep σ in the kernel's range by moving a power of two into the exponent.
        let j = if sigma > SIGMA_KERNEL_MAX {
            600
        } else if sigma < SIGMA_KERNEL_MIN {
            -600
        } else {
            0
        };
        sigma_h_neg(-s.zhi, -s.zlo(), libm::scalbn(sigma, -j), j - k)
    } else {
        let (y2, mu2, sigma2) = (
            libm::scalbn(s.dhi, -k),
            -libm::scalbn(s.dlo, -k),
            libm::scalbn(sigma, -k),
        );
        // σ' ≥ 1e-289 ≈ 2^-960 keeps the (possibly subnormal) low part's lost bits below
        // 2^-114·|z|.
        if !(y2.is_finite() && sigma2.is_finite() && sigma2 >= 1e-289) {
            return None;
        }
        ei(mu2, sigma2, y2)
    };
    (e2 >= f64::MIN_POSITIVE && e2.is_finite()).then(|| (e2 / m).ln())
}

/// LogEIPC-inv: cost `c` replaced by `E[1/c]⁻¹ = exp(m - s²/2)` for `ln c ~ N(m, s²)`.
///
/// `= log_ei(μ, σ, y) - (m - s²/2)`. Domain: NaN in → NaN; `s < 0` → NaN (the formula depends
/// on `s²` only, but a negative standard deviation is an input error). Accuracy: ≤ 4 ulp of
/// `max(|LogEI| + |m| + s²/2, 1)` from the correctly rounded result; bound, derivation and
/// measured maximum per region: the one tolerance table, `conformance/src/tolerances.rs`.
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
/// `max(|LogEI| + |m| + s²/2, 1)` from the correctly rounded result; bound, derivation and
/// measured maximum per region: the one tolerance table, `conformance/src/tolerances.rs`.
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
