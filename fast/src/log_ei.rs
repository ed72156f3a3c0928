//! `LogEI(μ, σ; y) = ln EI(μ, σ; y)` (MATH.md, "Expected improvement").
use crate::dd::fma_dispatch;
use crate::ei::{ei, ei_standardized, SIGMA_KERNEL_MAX, SIGMA_KERNEL_MIN};
use crate::h::ln_h;
use crate::scaled_h::{ln_h_neg_huge, ln_h_neg_plus, ln_sigma_h_neg, LN_SQRT_2PI, X_HUGE};
use crate::standardize::Standardized;

/// `ln EI(μ, σ; y)`, finite wherever EI > 0 mathematically (also where EI underflows f64) and
/// the exact value is above `-f64::MAX`: `-∞` beyond, for `|z|` beyond about `1.896e154`
/// (`σ = 1`: `z < -1.8961503816218352e154`, as [`crate::ln_h`]).
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
/// [`log_ei_slice`](crate::log_ei_slice)): the one tolerance table, `conformance/src/tolerances.rs`.
///
/// # Example
/// `LogEI(0, 1; 0) = ln h(0) = -ln √(2π)` (closed form; `-0.9189385332046728` correctly
/// rounded), within 4 ulp of `max(|LogEI|, 1) = 1`:
/// ```
/// let want = -0.9189385332046728;
/// assert!((pbgi_fast::log_ei(0.0, 1.0, 0.0) - want).abs() <= 4.0 * f64::EPSILON);
/// ```
#[inline]
pub fn log_ei(mu: f64, sigma: f64, y: f64) -> f64 {
    fma_dispatch!(log_ei_body(mu: f64, sigma: f64, y: f64) -> f64)
}

/// [`log_ei`](crate::log_ei), compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn log_ei_body(mu: f64, sigma: f64, y: f64) -> f64 {
    if !(sigma > 0.0) || sigma == f64::INFINITY || !(y - mu).is_finite() {
        return log_ei_special(mu, sigma, y);
    }
    let s = Standardized::new(mu, sigma, y);
    if s.zhi < 0.0 {
        let x = -s.zhi;
        if x >= X_HUGE {
            return ln_h_neg_huge(x, || -s.zlo(), sigma.ln(), 1.0);
        }
        if sigma <= 1.0 {
            // σ·p(x) is a normal f64 (and Dekker's product exact) for σ ≥ 1e-280, x < 2^16;
            // beyond, the logarithms are taken apart (|LogEI| > 2^31 hides their roundings).
            return if sigma >= SIGMA_KERNEL_MIN && x < 65536.0 {
                ln_sigma_h_neg(x, -s.zlo(), sigma)
            } else {
                ln_h_neg_plus(x, -s.zlo(), sigma.ln())
            };
        }
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

/// [`log_ei`](crate::log_ei) for `σ ≤ 0`, `σ = ∞`, NaN, and `y - μ` outside f64's range.
#[cold]
fn log_ei_special(mu: f64, sigma: f64, y: f64) -> f64 {
    if mu.is_finite() && y.is_finite() && sigma.is_finite() && sigma >= 0.0 {
        // |y - μ| overflowed: LogEI(μ, σ; y) = ln 4 + LogEI(μ/4, σ/4; y/4) (homogeneity of EI;
        // the quarters are exact where they matter: a σ/4 that rounds makes |z| > 2^2000).
        if (y - mu).is_infinite() {
            return log_ei(0.25 * mu, 0.25 * sigma, 0.25 * y) + LN_4;
        }
    }
    ei(mu, sigma, y).ln()
}

/// `ln 4`.
const LN_4: f64 = 1.386_294_361_119_890_6;

/// Where `LogEI` is dominated by `-z²/2` (`z ≤ -2^500`, finite valid input): `(x, xlo, rest)`
/// with `LogEI = -(x + xlo)²/2 + rest` to all digits (`x + xlo = -z`; `rest = ln σ - 2·ln x -
/// ln √(2π)`, plus `ln 4` when `y - μ` overflowed and the problem was quartered). `None`
/// elsewhere. Lets callers cancel `-z²/2` against another huge term before rounding.
pub(crate) fn log_ei_far_left(mu: f64, sigma: f64, y: f64) -> Option<(f64, f64, f64)> {
    if !(mu.is_finite() && y.is_finite() && sigma > 0.0 && sigma.is_finite()) {
        return None;
    }
    let (mu, sigma, y, shift) = if (y - mu).is_finite() {
        (mu, sigma, y, 0.0)
    } else {
        (0.25 * mu, 0.25 * sigma, 0.25 * y, LN_4)
    };
    if !(sigma > 0.0) {
        return Some((f64::INFINITY, 0.0, 0.0));
    }
    let s = Standardized::new(mu, sigma, y);
    let x = -s.zhi;
    if !(x >= X_HUGE) {
        return None;
    }
    let xlo = if x < 1.3e300 { -s.zlo() } else { 0.0 };
    let xlo = if xlo.is_finite() { xlo } else { 0.0 };
    Some((x, xlo, sigma.ln() - (2.0 * x.ln() + LN_SQRT_2PI) + shift))
}
