//! Expected improvement `EI(μ, σ; y) = σ·h((y - μ)/σ)`, `max(y - μ, 0)` for `σ = 0`
//! (MATH.md, "Expected improvement").

use crate::certify::{exact, series_accuracy, ziv, Enclosure};
use crate::gaussian::{h_neg, h_neg_wide, h_neg_with_density};
use crate::input::{finite, non_negative};
use crate::interval::{down, exact_difference_f64, log2_abs, up, widen_exponent_range, Interval};
use crate::wide_float::{Direction, Wide};
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
    tail_enclosure_wide(d, sigma, p).unwrap_or_else(|| tail_enclosure_mpfr(d, sigma, p))
}

/// [`tail_enclosure`] by MPFR's operations.
fn tail_enclosure_mpfr(d: &Float, sigma: &Float, p: u32) -> Interval {
    let x = distance(d, sigma, p + distance_bits(d, sigma));
    let h = h_neg(&x, p);
    Interval {
        lo: down(p, &h.lo * sigma),
        hi: up(p, &h.hi * sigma),
    }
}

/// [`tail_enclosure`] on [`Wide`] floats where `|d|`, `σ` and `x` have at most 192 bits and
/// `h(-x)` takes the Taylor form on them ([`h_neg_wide`]): `x = |d|/σ` rounded both ways at the
/// same precision, the same `h(-x)` and the same products by `σ`, each rounded as MPFR rounds it
/// (`wide_float.rs`), hence the same enclosure; `None` otherwise.
fn tail_enclosure_wide(d: &Float, sigma: &Float, p: u32) -> Option<Interval> {
    let wp = p + distance_bits(d, sigma);
    if wp > 192 || p > 192 {
        return None;
    }
    let (ad, s) = (Wide::from_float(&d.as_abs())?, Wide::from_float(sigma)?);
    let x = ad.div_both(s, wp)?;
    let (lo, hi, _) = h_neg_wide(x.0, x.1, p)?;
    Some(Interval {
        lo: lo.mul(s, p, Direction::Down).to_float(p),
        hi: hi.mul(s, p, Direction::Up).to_float(p),
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The tail on three-limb floats is MPFR's, bit for bit (both ends, value, sign and
    /// precision), on random `y`, `μ`, `σ` with `|y - μ|/σ` from 0 to 8 (and `y = μ`, tiny and
    /// huge scales, `y` and `μ` of distant magnitudes), at the precisions of the Ziv loop; and it
    /// answers on nearly every point it can (Taylor form at `p = 103`, `|y - μ|/σ ≤ 5.5`).
    #[test]
    fn wide_tail_is_the_mpfr_tail_bit_for_bit() {
        widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(51);
        let same = |a: &Float, b: &Float| {
            a.prec() == b.prec() && a.is_sign_negative() == b.is_sign_negative() && a == b
        };
        let (mut eligible, mut answered) = (0, 0);
        for i in 0..20_000 {
            let scale = 10f64.powi(rng.gen_range(-30..30));
            let sigma = rng.gen_range(0.01..10.0) * scale;
            let mu = rng.gen_range(-10.0..10.0) * scale * if i % 10 == 0 { 1e-20 } else { 1.0 };
            let z = match i % 7 {
                0 => 0.0,
                1 => rng.gen_range(-1e-6..1e-6),
                _ => rng.gen_range(-8.0..8.0),
            };
            let y = mu + z * sigma;
            let d = exact_difference(y, mu);
            let s = exact(sigma);
            for p in [53, 103, 128, 160, 206] {
                let wide = tail_enclosure_wide(&d, &s, p);
                let mpfr = tail_enclosure_mpfr(&d, &s, p);
                if let Some(w) = &wide {
                    assert!(
                        same(&w.lo, &mpfr.lo) && same(&w.hi, &mpfr.hi),
                        "y = {y:e}, mu = {mu:e}, sigma = {sigma:e}, p = {p}"
                    );
                }
                let t = tail_enclosure(&d, &s, p);
                assert!(same(&t.lo, &mpfr.lo) && same(&t.hi, &mpfr.hi));
                let x = (y - mu).abs() / sigma;
                if p == 103 && x > 1e-3 && x < 5.5 && d.prec() <= 128 {
                    eligible += 1;
                    answered += usize::from(wide.is_some());
                }
            }
        }
        assert!(
            answered * 100 >= eligible * 99,
            "answered {answered} of {eligible}"
        );
    }
}
