//! Expected improvement `EI(μ, σ; y) = E[max(y - f, 0)]`, `f ~ N(μ, σ²)` (MATH.md, "Expected
//! improvement"; minimisation convention).
use crate::dd::fma_dispatch;
use crate::scaled_h::{sigma_h_neg, sigma_h_pos, X_UNDERFLOW};
use crate::standardize::Standardized;

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
/// ≤ 4 ulp (f64 values from the correctly rounded result) for `|z| ≤ 1e8`,
/// `σ ∈ [1e-300, 1e300]`. The bound, why it holds and the measured maximum per region (also of
/// [`ei_slice`](crate::ei_slice)): the one tolerance table, `conformance/src/tolerances.rs`.
///
/// # Example
/// `EI(0, 1; 0) = h(0) = 1/√(2π)` (MATH.md, "Sanity values"), within 4 ulp (`2^-54` each here):
/// ```
/// let h0 = 0.3989422804014327;
/// assert!((pbgi_fast::ei(0.0, 1.0, 0.0) - h0).abs() <= 4.0 * 2f64.powi(-54));
/// ```
#[inline]
pub fn ei(mu: f64, sigma: f64, y: f64) -> f64 {
    fma_dispatch!(ei_body(mu: f64, sigma: f64, y: f64) -> f64)
}

/// [`ei`](crate::ei), compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn ei_body(mu: f64, sigma: f64, y: f64) -> f64 {
    if !(sigma > 0.0) || sigma == f64::INFINITY || !(y - mu).is_finite() {
        return ei_special(mu, sigma, y);
    }
    if !(SIGMA_KERNEL_MIN..=SIGMA_KERNEL_MAX).contains(&sigma) {
        return ei_rescaled(mu, sigma, y);
    }
    ei_standardized(&Standardized::new(mu, sigma, y), sigma)
}

/// σ range of the kernels (Dekker's exact products need |σ| < 2^996 and products > 2^-969).
pub(crate) const SIGMA_KERNEL_MIN: f64 = 1e-280;
pub(crate) const SIGMA_KERNEL_MAX: f64 = 1e280;

/// [`ei`](crate::ei) for σ outside the kernel range, by homogeneity `EI(aμ, aσ; ay) = a·EI(μ, σ; y)`
/// with `a = 2^∓600`, after translating to `μ' = -dlo`, `y' = dhi` (`y - μ = dhi + dlo`
/// exactly). Scalings by powers of two are exact except for subnormal low parts, whose lost
/// bits are below 2^-1074/σ' relative to `z`. For `z < 0` the factor `2^-k` is applied
/// inside the kernel, so a scaled EI below the subnormal range is not lost.
///
/// When `y - μ` itself overflows (only called then for `σ > 1e280`), `y` and `μ` are scaled
/// before the subtraction instead (exact: both exceed `2^1000` in magnitude or are negligible).
#[cold]
fn ei_rescaled(mu: f64, sigma: f64, y: f64) -> f64 {
    let k = if sigma > SIGMA_KERNEL_MAX { -600 } else { 600 };
    let d = y - mu;
    let (y2, mu2) = if d.is_finite() {
        let (dhi, dlo) = crate::dd::two_sum(y, -mu);
        (libm::scalbn(dhi, k), -libm::scalbn(dlo, k))
    } else {
        (libm::scalbn(y, k), libm::scalbn(mu, k))
    };
    let sigma2 = libm::scalbn(sigma, k);
    if !y2.is_finite() {
        // Only for tiny σ and |y - μ| > 2^420: |z| > 2^1300, EI = max(y - μ, 0) to all digits.
        return d.max(0.0);
    }
    let s = Standardized::new(mu2, sigma2, y2);
    if s.zhi >= 0.0 {
        libm::scalbn(sigma_h_pos(s.zhi, sigma2, s.dhi, s.dlo), -k)
    } else if s.zhi >= -X_UNDERFLOW {
        // Scale inside the kernel: EI' = EI·2^k may underflow where EI does not.
        sigma_h_neg(-s.zhi, -s.zlo(), sigma2, -k)
    } else {
        0.0
    }
}

/// Below `z = -38.5`, `h(z) < e^{-749} < 2^-1075`: with `σ ≤ 1`, EI rounds to 0.
const H_UNDERFLOW: f64 = 38.5;

/// The body of [`ei`](crate::ei) for finite `σ > 0` and finite `y - μ`.
#[inline(always)]
pub(crate) fn ei_standardized(s: &Standardized, sigma: f64) -> f64 {
    if s.zhi >= 0.0 {
        sigma_h_pos(s.zhi, sigma, s.dhi, s.dlo)
    } else if s.zhi >= -X_UNDERFLOW && (s.zhi >= -H_UNDERFLOW || sigma > 1.0) {
        sigma_h_neg(-s.zhi, -s.zlo(), sigma, 0)
    } else {
        0.0
    }
}

/// The special cases of [`ei`](crate::ei): `σ ≤ 0`, `σ = ∞`, NaN, infinite `y - μ` (also when it
/// overflowed from finite `y`, `μ`).
#[cold]
fn ei_special(mu: f64, sigma: f64, y: f64) -> f64 {
    let d = y - mu;
    if d.is_nan() || sigma.is_nan() || sigma < 0.0 {
        f64::NAN
    } else if sigma == 0.0 {
        d.max(0.0)
    } else if d == f64::NEG_INFINITY {
        if sigma > SIGMA_KERNEL_MAX && sigma.is_finite() && y.is_finite() && mu.is_finite() {
            // y - μ < -f64::MAX: EI can still be a normal number when σ is as large.
            ei_rescaled(mu, sigma, y)
        } else if sigma == f64::INFINITY {
            f64::NAN
        } else {
            0.0
        }
    } else {
        f64::INFINITY
    }
}
