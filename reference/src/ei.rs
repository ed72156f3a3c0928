//! Expected improvement `EI(μ, σ; y) = σ·h((y - μ)/σ)`, `max(y - μ, 0)` for `σ = 0`
//! (MATH.md, "Expected improvement").

use crate::certify::{exact, series_accuracy, ziv, Enclosure};
use crate::gaussian::{h_neg, h_neg_with_density};
use crate::input::{finite, non_negative};
use crate::interval::{down, exact_difference_f64, log2_abs, up, widen_exponent_range, Interval};
use crate::{Accuracy, Certified, Error};
use rug::Float;

/// Extra precision to carry `x = |d|/σ` with, so that its rounding costs no more than the
/// target: the relative sensitivity of `h(-x)` to `x` is about `x²` for large `x`, and the
/// Taylor form's interval evaluation amplifies the relative width of `x` by up to `2^23.2` at
/// `x = 4` and `2^40.4` at `x = 6` (both of its terms depend on `x`; proof note §4.1).
pub(crate) fn distance_bits(d: &Float, sigma: &Float) -> u32 {
    (2 * (log2_abs(d) - log2_abs(sigma))).clamp(0, 200) as u32 + 48
}

/// `x = |d|/σ` enclosed.
pub(crate) fn distance(d: &Float, sigma: &Float, wp: u32) -> Interval {
    let ad = d.as_abs();
    Interval {
        lo: down(wp, &*ad / sigma),
        hi: up(wp, &*ad / sigma),
    }
}

/// `σ·h(-|d|/σ)` enclosed: the lower-tail part of EI (`EI = max(d, 0) + σ·h(-|d|/σ)`).
pub(crate) fn tail_enclosure(d: &Float, sigma: &Float, p: u32) -> Interval {
    let x = distance(d, sigma, p + distance_bits(d, sigma));
    let h = h_neg(&x, p);
    Interval {
        lo: down(p, &h.lo * sigma),
        hi: up(p, &h.hi * sigma),
    }
}

/// [`tail_enclosure`] with the derivatives of `EI(μ, σ; y)` in `y` at the same point
/// (`d = y - μ` exact, `u = d/σ`), from one evaluation of the series:
/// `∂EI/∂y = Φ(u)` and `∂²EI/∂y² = φ(u)/σ`.
pub(crate) struct TailWithSlope {
    /// `σ·h(-|u|)`.
    pub tail: Interval,
    /// `Φ(u)`.
    pub cdf: Interval,
    /// `φ(u)`.
    pub density: Interval,
    /// `|u|`.
    pub distance: Interval,
}

/// [`TailWithSlope`] at target precision `p` (the tail's enclosure is that of
/// [`tail_enclosure`]).
pub(crate) fn tail_with_slope(d: &Float, sigma: &Float, p: u32) -> TailWithSlope {
    let x = distance(d, sigma, p + distance_bits(d, sigma));
    let t = h_neg_with_density(&x, p);
    let wp = p + 24;
    // Φ(u) = Q(|u|) for u ≤ 0, 1 - Q(u) for u > 0.
    let cdf = if d.is_sign_positive() && !d.is_zero() {
        Interval {
            lo: down(wp, 1u32 - &t.upper_tail.hi),
            hi: up(wp, 1u32 - &t.upper_tail.lo),
        }
    } else {
        t.upper_tail
    };
    TailWithSlope {
        tail: Interval {
            lo: down(p, &t.h.lo * sigma),
            hi: up(p, &t.h.hi * sigma),
        },
        cdf,
        density: t.phi,
        distance: x,
    }
}

/// `EI` enclosed for `σ > 0`, `d = y - μ` exact.
pub(crate) fn ei_enclosure(d: &Float, sigma: &Float, p: u32) -> Interval {
    let tail = tail_enclosure(d, sigma, p);
    if d.is_sign_positive() && !d.is_zero() {
        Interval {
            lo: down(p, d + &tail.lo),
            hi: up(p, d + &tail.hi),
        }
    } else {
        tail
    }
}

/// `y - μ`, exactly.
pub(crate) fn exact_difference(y: f64, mu: f64) -> Float {
    exact_difference_f64(y, mu)
}

/// `EI(μ, σ; y) = E[max(y - f, 0)]`, `f ~ N(μ, σ²)` (MATH.md, "Expected improvement").
///
/// # Domain
/// `mu`, `y` finite; `sigma ≥ 0` finite. `sigma = 0` gives `max(y - mu, 0)` exactly (correctly
/// rounded). Anything else is [`Error::InvalidInput`] naming the argument.
///
/// # Accuracy
/// `lower ≤ EI ≤ upper` is guaranteed (directed rounding throughout, see
/// `proofs-notes/reference-certification.md`); `value` is `EI` correctly rounded to f64.
/// Checked against mpmath in `tests/mpmath_data.rs`.
///
/// # Regimes
/// `EI = max(y - μ, 0) + σ·h(-|z|)`, free of cancellation for `z > 0`; `h(-x)` by its Taylor
/// series (`x ≤ 6`), the continued fraction of the repeated normal integrals (`x > 6`), or the
/// alternating asymptotic series with its rigorous remainder (large `x`); see `gaussian.rs`.
///
/// # Cost
/// About 30–60 µs at the default accuracy (table in `proofs-notes/reference-certification.md`).
pub fn ei(mu: f64, sigma: f64, y: f64) -> Result<Certified, Error> {
    ei_with(mu, sigma, y, &Accuracy::default())
}

/// [`ei`] with an explicit precision policy.
pub fn ei_with(mu: f64, sigma: f64, y: f64, acc: &Accuracy) -> Result<Certified, Error> {
    let (mu, y) = (finite("mu", mu)?, finite("y", y)?);
    let sigma = non_negative("sigma", sigma)?;
    widen_exponent_range();
    let d = exact_difference(y, mu);
    if sigma == 0.0 {
        let positive_part = if d.is_sign_positive() {
            d
        } else {
            Float::with_val(53, 0)
        };
        return ziv("ei", acc, |_| Interval::point(positive_part.clone()).into());
    }
    let sigma = exact(sigma);
    ziv("ei", &series_accuracy(acc), |p| {
        let iv = ei_enclosure(&d, &sigma, p);
        // EI > y - μ strictly (σ > 0): a lower end equal to y - μ is open.
        let lower_open = iv.lo == d;
        Enclosure { iv, lower_open }
    })
}
