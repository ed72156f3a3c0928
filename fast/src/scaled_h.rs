//! Kernels shared by `h`, `ei`, `ln_h`, `log_ei`: `σ·h(z)` and `ln h(z)` with `z` given as an
//! unevaluated sum `zhi + zlo` (|zlo| ≤ 2^-51·|zhi|), so that the rounding of `(y - μ)/σ` is
//! not amplified (the relative condition number of `h` at `z ≪ 0` is about `z²`).
use crate::consts::{INV_LN2, LN2_HI, LN2_LO};
use crate::dd::two_prod;
use crate::tail::{dlnp_dx, p_tail};

/// Beyond this `x`, `σ·h(-x) < f64::MAX · e^{-1800}` underflows to 0 for every finite σ.
pub(crate) const X_UNDERFLOW: f64 = 60.0;

/// `σ·h(-(x + xlo))` for `0 ≤ x ≤ X_UNDERFLOW`, finite `σ > 0`.
///
/// `h(-x) = p(x)·exp(-x²/2)`; `x² = hi + lo` exactly, `exp(-hi/2) = 2^-n·exp(r)` with a
/// Cody–Waite reduction that is exact (`n·LN2_HI` exact, `|r| ≤ |hi/2|`), so `exp` only sees
/// `|r| ≤ 0.35` plus tiny corrections (`-lo/2`, `n·LN2_LO`, and `xlo·d ln p/dx`), whose
/// rounding costs ≤ 2^-54 relative. `p·e` is formed exactly and multiplied by σ in one FMA-free
/// exact-product step, so the result carries the errors of `p`, `exp` and one rounding, and the
/// power-of-two scaling rounds once more only if the result is subnormal.
#[inline(always)]
pub(crate) fn sigma_h_neg(x: f64, xlo: f64, sigma: f64) -> f64 {
    let (hi, lo) = two_prod(x, x);
    let lo = lo + 2.0 * x * xlo;
    let p = p_tail(x);
    let half_hi = 0.5 * hi;
    let n = round_to_int(half_hi * INV_LN2);
    let r = (n * LN2_HI - half_hi) + (n * LN2_LO - 0.5 * lo + dlnp_dx(x, p) * xlo);
    let e = r.exp();
    let (m_hi, m_lo) = two_prod(p, e);
    let (s_hi, s_lo) = two_prod(sigma, m_hi);
    let v = s_hi + (s_lo + sigma * m_lo);
    scale_pow2_neg(v, n)
}

/// `ln h(-(x + xlo))` for finite `x ≥ 0`: `-x²/2 + ln p(x)`, both terms ≤ 0 (no cancellation).
#[inline(always)]
pub(crate) fn ln_h_neg(x: f64, xlo: f64) -> f64 {
    let (hi, lo) = two_prod(x, x);
    let lo = lo + 2.0 * x * xlo;
    let p = p_tail(x);
    -0.5 * hi + (p.ln() - 0.5 * lo + dlnp_dx(x, p) * xlo)
}

/// `exp(-z²/2)` for `z ≥ 0`; the rounding of `z²` is harmless where it is used (the term it
/// scales is ≤ 8 % of `h(z)` times `z²`·2^-54, see the error analysis).
#[inline(always)]
pub(crate) fn gauss_unscaled(z: f64) -> f64 {
    (-0.5 * z * z).exp()
}

/// `σ·(h(z) - z) = σ·p(z)·exp(-z²/2)` for `z ≥ 0` (the part of `σ·h` beyond `σ·z`).
#[inline(always)]
pub(crate) fn sigma_h_excess(z: f64, sigma: f64) -> f64 {
    if z > 40.0 {
        0.0
    } else {
        sigma * (p_tail(z) * gauss_unscaled(z))
    }
}

/// Round to the nearest integer (as f64) for |v| < 2^51 without a libm call.
#[inline(always)]
fn round_to_int(v: f64) -> f64 {
    const SHIFT: f64 = 6_755_399_441_055_744.0; // 1.5·2^52
    (v + SHIFT) - SHIFT
}

/// `v · 2^-n` for `0 ≤ n ≤ 2600` (integral f64), one rounding if the result is subnormal.
#[inline(always)]
fn scale_pow2_neg(v: f64, n: f64) -> f64 {
    let k = n as i32;
    if k <= 1000 {
        v * f64::from_bits(((1023 - k) as u64) << 52)
    } else {
        libm::scalbn(v, -k)
    }
}
