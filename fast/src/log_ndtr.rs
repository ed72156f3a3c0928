//! `ln Φ(x)`, the logarithm of the standard normal distribution function (SciPy's
//! `log_ndtr`; MATH.md, "Gaussian building blocks": `Φ = h'`).
use crate::dd::fma_dispatch;
use crate::dd::{scaled_square, two_prod};
use crate::scaled_h::LN_SQRT_2PI;
use crate::slice_length::SliceLengthError;
use crate::tail::p_tail;

/// `ln Φ(x)`, `Φ(x) = P(Z ≤ x)`, `Z ~ N(0, 1)`; SciPy's `scipy.special.log_ndtr`.
///
/// # Domain
/// Every `x`. `log_ndtr(NaN) = NaN`, `log_ndtr(-∞) = -∞`, `log_ndtr(+∞) = -0.0`. The result
/// is `< 0` for every finite `x`: `ln Φ(0) = -ln 2`; `ln Φ(x) ≈ -x²/2 - ln(-x√(2π))` as
/// `x → -∞` (`-∞` below about `-1.9e154`, where the true value is below `-f64::MAX`);
/// `ln Φ(x) ≈ -φ(x)/x` as `x → +∞`, which rounds to `-0.0` (never `+0`) beyond `x ≈ 38.5`.
///
/// # Method
/// With `Q(t) = P(Z > t) = erfc(t/√2)/2`: for `x > 0`, `log1p(-Q(x))` (no logarithm of a
/// number near 1); for `-8 < x ≤ 0`, `ln Q(-x)`; `t/√2` is formed as a double-double and its
/// low part enters through `erfc' = -2e^{-a²}/√π`, so the rounding of the argument is not
/// amplified (`Q`'s relative condition number is about `t²`). For `x ≤ -8`, `t = -x`:
/// `ln Q(t) = -t²/2 - ln √(2π) - ln t + ln(1 - q(t))` with the Mills-ratio identity
/// `Q(t) = φ(t)·(1 - q(t))/t`, `q(t) = h(-t)/φ(t) = √(2π)·p(t)` from the tail fit of `h`
/// (`fast/src/tail.rs`, `q(8) < 0.016`, no cancellation) and `t²/2` an exact double-double;
/// every term is negative, so nothing cancels.
///
/// # Accuracy
/// ≤ 4 ulp over the whole domain. The bound and the measured maximum per region (also of
/// [`log_ndtr_slice`]): the one tolerance table, `conformance/src/tolerances.rs`; the far ranges
/// `|x| > 1e8` are scanned in `fast/tests/log_ndtr_against_reference.rs`.
#[inline]
pub fn log_ndtr(x: f64) -> f64 {
    fma_dispatch!(log_ndtr_body(x: f64) -> f64)
}

/// [`log_ndtr`], compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn log_ndtr_body(x: f64) -> f64 {
    if x > 0.0 {
        if x > Q_UNDERFLOW {
            // Q(x) < 2^-1075: ln Φ(x) = -Q(x) rounds to -0 (also for x = +∞).
            return -0.0;
        }
        (-upper_tail(x)).ln_1p()
    } else if x > -TAIL_START {
        upper_tail(-x).ln()
    } else if x.is_nan() {
        x
    } else {
        ln_upper_tail_far(-x)
    }
}

/// Beyond this `x`, `Q(x) < φ(x)/x < 2^-1075` and `ln Φ(x)` rounds to `-0`.
const Q_UNDERFLOW: f64 = 40.0;

/// From here on (in `-x`) the Mills-ratio form is used: `q(t) ≤ 0.016` there.
const TAIL_START: f64 = 8.0;

/// `1/√2 = FRAC_1_SQRT_2 + FRAC_1_SQRT_2_LO` to ~2^-106.
const FRAC_1_SQRT_2: f64 = core::f64::consts::FRAC_1_SQRT_2;
const FRAC_1_SQRT_2_LO: f64 = -4.833_646_656_726_457e-17;
/// `1/√π`.
const FRAC_1_SQRT_PI: f64 = 0.564_189_583_547_756_3;
/// `√(2π)`.
const SQRT_2PI: f64 = 2.506_628_274_631_000_7;

/// `Q(t) = erfc(t/√2)/2` for `0 ≤ t ≤ 40`, to ~1.5 ulp: `a = t/√2 = a_hi + δ` exactly (up to
/// ~2^-106 relative), `erfc(a) = erfc(a_hi) - (2/√π)·e^{-a_hi²}·δ` to first order (the second
/// order term is below `2^-100` relative for `a ≤ 28.3`).
#[inline(always)]
fn upper_tail(t: f64) -> f64 {
    let (a_hi, a_e) = two_prod(t, FRAC_1_SQRT_2);
    let delta = a_e + t * FRAC_1_SQRT_2_LO;
    0.5 * libm::erfc(a_hi) - FRAC_1_SQRT_PI * (-a_hi * a_hi).exp() * delta
}

/// `ln Q(t)` for `t ≥ 8` (`+∞` included): `-(a + b) + ((-ln √(2π)) + (ln(1 - q) - ln t))`
/// with `t²/2 = a + b` exact ([`scaled_square`]); `-∞` exactly when `t²/2` overflows. The
/// small terms have magnitude `≤ ln t + 1 ≪ t²/2`, so their roundings cost `≤ 0.2` ulp of
/// the result, plus the final rounding.
#[inline(always)]
fn ln_upper_tail_far(t: f64) -> f64 {
    let (a, b) = scaled_square(t, 0.5);
    if a == f64::INFINITY {
        return f64::NEG_INFINITY;
    }
    let q = SQRT_2PI * p_tail(t);
    let small = (-b - LN_SQRT_2PI) + ((-q).ln_1p() - t.ln());
    -a + small
}

/// [`log_ndtr`] over a slice: `out[i] = log_ndtr(x[i])`. No allocation.
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless `x` and `out` have equal lengths.
pub fn log_ndtr_slice(x: &[f64], out: &mut [f64]) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[("x", x.len()), ("out", out.len())])?;
    for (o, &v) in out.iter_mut().zip(x) {
        *o = log_ndtr(v);
    }
    Ok(())
}
