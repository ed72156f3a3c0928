//! `LogEIPC(μ, σ, y, c) = ln EI(μ, σ; y) - ln c` [stopping paper, eq. 4] and its unknown-cost
//! variants [stopping paper, eqs. 13–14].
use crate::dd::fma_dispatch;
use crate::dd::{scaled_square, two_sum};
use crate::ei::{ei, SIGMA_KERNEL_MAX, SIGMA_KERNEL_MIN};
use crate::log_ei::{log_ei, log_ei_far_left};
use crate::scaled_h::{sigma_h_neg, X_HUGE, X_UNDERFLOW};
use crate::standardize::Standardized;

/// `ln EI(μ, σ; y) - ln c`.
///
/// # Domain
/// As [`log_ei`](crate::log_ei); additionally `cost` NaN or `≤ 0` → NaN, `cost = +∞` → `-∞` (NaN if LogEI is
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
/// region (also of [`log_eipc_slice`](crate::log_eipc_slice)): the one tolerance table, `conformance/src/tolerances.rs`.
///
/// # Example
/// `LogEIPC(0, 1, 0, 1) = ln h(0) = -ln √(2π)` (closed form; `-0.9189385332046728` correctly
/// rounded), within 4 ulp of `max(|LogEIPC|, |ln c|, 1) = 1`:
/// ```
/// let want = -0.9189385332046728;
/// assert!((pbgi_fast::log_eipc(0.0, 1.0, 0.0, 1.0) - want).abs() <= 4.0 * f64::EPSILON);
/// ```
#[inline]
pub fn log_eipc(mu: f64, sigma: f64, y: f64, cost: f64) -> f64 {
    fma_dispatch!(log_eipc_body(mu: f64, sigma: f64, y: f64, cost: f64) -> f64)
}

/// [`log_eipc`](crate::log_eipc), compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn log_eipc_body(mu: f64, sigma: f64, y: f64, cost: f64) -> f64 {
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
/// `None` when the scaled problem leaves the safe range or the ratio is not a normal f64 (then
/// `|LogEIPC| > 340`, or EI itself overflows).
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
    let ratio = e2 / m;
    (e2 >= f64::MIN_POSITIVE && ratio >= f64::MIN_POSITIVE && ratio.is_finite()).then(|| ratio.ln())
}

/// LogEIPC-inv: cost `c` replaced by `E[1/c]⁻¹ = exp(m - s²/2)` for `ln c ~ N(m, s²)`.
///
/// `= log_ei(μ, σ, y) - (m - s²/2)`. Domain: NaN in → NaN; `s < 0` → NaN (the formula depends
/// on `s²` only, but a negative standard deviation is an input error); every finite `m` and
/// `s ≥ 0` otherwise, also where `s²/2` or `LogEI` alone leave f64's range (they are combined
/// before rounding). Infinite arguments give the limit (an infinite `LogEI` with finite `m`
/// and `s` is the result, whatever `s²/2`), NaN where it is `∞ - ∞`. Accuracy: ≤ 4 ulp of `max(|LogEI|, |m - s²/2|, |result|, 1)` from the
/// correctly rounded result; bound, derivation and measured maximum per region: the one
/// tolerance table, `conformance/src/tolerances.rs`.
#[inline]
pub fn log_eipc_inv(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> f64 {
    fma_dispatch!(log_eipc_inv_body(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> f64)
}

/// [`log_eipc_inv`], compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn log_eipc_inv_body(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> f64 {
    log_ei_minus_log_cost(mu, sigma, y, m, s, -1.0)
}

/// LogEIPC-exp: cost `c` replaced by `E[c] = exp(m + s²/2)` for `ln c ~ N(m, s²)`. Only this
/// form keeps the equivalence with the PBGI stopping rule (MATH.md).
///
/// `= log_ei(μ, σ, y) - (m + s²/2)`. Domain: NaN in → NaN; `s < 0` → NaN; every finite `m` and
/// `s ≥ 0` otherwise. Infinite arguments give the limit (an infinite `LogEI` with finite `m`
/// and `s` is the result, whatever `s²/2`), NaN where it is `∞ - ∞`. Accuracy: ≤ 4 ulp of `max(|LogEI|, |m + s²/2|, |result|, 1)` from the
/// correctly rounded result; bound, derivation and measured maximum per region: the one
/// tolerance table, `conformance/src/tolerances.rs`.
#[inline]
pub fn log_eipc_exp(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> f64 {
    fma_dispatch!(log_eipc_exp_body(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> f64)
}

/// [`log_eipc_exp`], compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn log_eipc_exp_body(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> f64 {
    log_ei_minus_log_cost(mu, sigma, y, m, s, 1.0)
}

/// `LogEI - (m + sign·s²/2)` with `s²/2` an exact double-double: one subtraction of
/// the high parts and one of the low part.
#[inline(always)]
fn log_ei_minus_log_cost(mu: f64, sigma: f64, y: f64, m: f64, s: f64, sign: f64) -> f64 {
    if !(s >= 0.0) || m.is_nan() {
        return f64::NAN;
    }
    let l = log_ei(mu, sigma, y);
    let (h_hi, h_lo) = scaled_square(s, 0.5);
    if l.is_finite() && h_hi.is_finite() {
        let (t_hi, t_lo) = two_sum(m, sign * h_hi);
        let v = (l - t_hi) - (t_lo + sign * h_lo);
        if v.is_finite() {
            return v;
        }
    }
    log_ei_minus_log_cost_far(mu, sigma, y, m, s, sign, l)
}

/// [`log_ei_minus_log_cost`] where a term or the result leaves f64's range. Everything is
/// quartered (`LogEI/4` from the far-left form when `LogEI` itself is below `-f64::MAX`, and
/// `s²/8` exact), combined, and multiplied back by 4, so the result overflows only when the
/// exact value does. For LogEI-inv where LogEI itself overflowed (`|z|` beyond `1.9e154`) and
/// `s ≥ 2^500`, the terms `-z²/2` and `s²/2` may cancel to a small result, which the quartered
/// sum would lose in the rounding of `LogEI/4`: there `(s² - z²)/2` is formed as
/// `(s - z)(s + z)/2` from exact sums first.
#[cold]
fn log_ei_minus_log_cost_far(
    mu: f64,
    sigma: f64,
    y: f64,
    m: f64,
    s: f64,
    sign: f64,
    l: f64,
) -> f64 {
    let valid = mu.is_finite() && y.is_finite() && sigma.is_finite() && sigma >= 0.0;
    if !(valid && m.is_finite() && s.is_finite()) {
        // NaN and the limits of infinite arguments. An infinite LogEI with finite m and s is
        // the limit itself, even where s²/2 overflows (the sum below would form ∞ - ∞).
        if l.is_infinite() && m.is_finite() && s.is_finite() {
            return l;
        }
        return l - (m + sign * (0.5 * s * s));
    }
    let far = if l == f64::NEG_INFINITY {
        log_ei_far_left(mu, sigma, y)
    } else {
        None
    };
    if sign < 0.0 && s >= X_HUGE {
        if let Some((x, xlo, rest)) = far.filter(|&(x, _, _)| x.is_finite()) {
            return difference_of_squares(x, xlo, rest, m, s);
        }
    }
    let lq = match far {
        _ if l.is_finite() => 0.25 * l,
        Some((x, xlo, rest)) => ln_h_neg_huge_parts(x, xlo, rest, 0.25),
        None => l,
    };
    let (q_hi, q_lo) = scaled_square(s, 0.125);
    if lq.is_finite() && q_hi.is_finite() {
        let (t_hi, t_lo) = two_sum(0.25 * m, sign * q_hi);
        return 4.0 * ((lq - t_hi) - (t_lo + sign * q_lo));
    }
    if sign > 0.0 || q_hi.is_finite() {
        // LogEI-exp: LogEI/4 = -∞ or s²/8 = +∞ puts the result below -3·f64::MAX; LogEI-inv
        // with s²/8 finite and LogEI/4 = -∞ likewise.
        return f64::NEG_INFINITY;
    }
    if lq.is_finite() {
        // s²/8 = +∞ with LogEI/4 finite: the result exceeds 3·f64::MAX.
        return f64::INFINITY;
    }
    match far.filter(|&(x, _, _)| x.is_finite()) {
        Some((x, xlo, rest)) => difference_of_squares(x, xlo, rest, m, s),
        // EI = 0 exactly (σ = 0, y ≤ μ), or |z| > f64::MAX ≥ s: -z²/2 dominates.
        None => f64::NEG_INFINITY,
    }
}

/// LogEI-inv `= (s² - (x + xlo)²)/2 + rest - m` for the far-left parts of [`log_ei_far_left`]
/// and `s ≥ 2^500`: quartered, `2·[(s - x - xlo)/8]·[(s + x + xlo)/2]` from exact sums of the
/// scaled terms (`x, s ≥ 2^500`, so the scalings are exact), then multiplied back by 4. The
/// product, not the squares, is rounded, so the result is accurate relative to itself when the
/// squares cancel; it overflows only when the exact value does.
fn difference_of_squares(x: f64, xlo: f64, rest: f64, m: f64, s: f64) -> f64 {
    let (a_hi, a_e) = two_sum(0.125 * s, -0.125 * x);
    let a_lo = a_e - 0.125 * xlo;
    let (b_hi, b_e) = two_sum(0.5 * s, 0.5 * x);
    let b_lo = b_e + 0.5 * xlo;
    let main = a_hi * b_hi;
    if !main.is_finite() {
        return main;
    }
    let dq = 2.0 * (main + (a_hi * b_lo + a_lo * b_hi));
    if !dq.is_finite() {
        return dq;
    }
    4.0 * (dq + 0.25 * (rest - m))
}

/// `f·(-(x + xlo)²/2 + rest)` for the far-left parts of [`log_ei_far_left`].
fn ln_h_neg_huge_parts(x: f64, xlo: f64, rest: f64, f: f64) -> f64 {
    let (a, b) = scaled_square(x, 0.5 * f);
    if a == f64::INFINITY {
        return f64::NEG_INFINITY;
    }
    -a + ((f * rest - f * (x * xlo)) - b)
}
