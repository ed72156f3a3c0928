//! Expected improvement `EI(μ, σ; y) = σ·h((y - μ)/σ)`, `max(y - μ, 0)` for `σ = 0`
//! (MATH.md, "Expected improvement").

use crate::arith::interval::{exact_difference_f64, log2_abs, Interval};
use crate::arith::mpfr::{down, up, widen_exponent_range};
use crate::arith::wide_float::{Direction, Wide};
use crate::certified::{Accuracy, Certified, Error};
use crate::certify::{exact, first_precision, series_accuracy, ziv, Enclosure};
use crate::gaussian::{h_neg, h_neg_wide, h_neg_with_density};
use crate::h_centres::scaled_h_neg_of_distance;
use crate::input::{finite, non_negative};
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
/// (`arith/wide_float.rs`), hence the same enclosure; `None` otherwise.
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

/// The largest `enclosure_bits` the front door [`ei_by_centres`] serves: its enclosures have
/// relative width at most `2^-116` (proof note §4.5), the margin keeping the Ziv loop's
/// fallback rare.
pub(crate) const CENTRED_BITS: u32 = 110;

/// `|y - μ|` exactly as a [`Wide`] and whether `y > μ`, for finite `y`, `μ` whose difference
/// has at most 192 bits; `None` otherwise. Both are multiples of `2^(min(e_y, e_μ) - 53)` (`e`
/// MPFR's exponents: `2^(e-1) ≤ |v| < 2^e`; a subnormal's last bit is no lower) and the
/// difference is below `2^(max(e_y, e_μ) + 1)`, so it has at most
/// `max - min + 54` bits: at most 192 and the sum or difference of the magnitudes at 192 bits
/// is exact.
fn exact_distance(y: f64, mu: f64) -> Option<(Wide, bool)> {
    let (a, b) = (Wide::from_f64_magnitude(y), Wide::from_f64_magnitude(mu));
    if let (Some(ea), Some(eb)) = (a.exponent(), b.exponent()) {
        if ea.max(eb) - ea.min(eb) + 54 > 192 {
            return None;
        }
    }
    Some(if y.is_sign_negative() != mu.is_sign_negative() {
        // y - μ = ±(|y| + |μ|), the sign of y (a sum of zeros is zero).
        let sum = a.add(b, 192, Direction::Down);
        (sum, !y.is_sign_negative() && !sum.is_zero())
    } else if a > b {
        (a.sub(b, 192, Direction::Down)?, !y.is_sign_negative())
    } else if b > a {
        (b.sub(a, 192, Direction::Down)?, y.is_sign_negative())
    } else {
        (Wide::ZERO, false)
    })
}

/// `EI` for `σ > 0` enclosed from the centred expansions of `h(-x)`
/// ([`scaled_h_neg_of_distance`]) where they apply: `y - μ` of at most 192 bits
/// ([`exact_distance`]) and `x = |y - μ|/σ ≤ 8`; `None` otherwise. The enclosure is
/// `[RD(max(d, 0) + σh_lo), RU(max(d, 0) + σh_hi)]` (`σ·h(-x) ∈ [σh_lo, σh_hi]`, 128 bits; the
/// sum rounded outward at 128 bits on [`Wide`] floats; `x` rounded both ways to a multiple of
/// `2^-126`), of
/// relative width at most `2^-116` (proof note §4.5).
pub(crate) fn ei_centred(y: f64, mu: f64, sigma: f64) -> Option<(Wide, Wide)> {
    let (ad, positive) = exact_distance(y, mu)?;
    let (mut lo, mut hi) = scaled_h_neg_of_distance(ad, sigma)?;
    if positive {
        lo = ad.add(lo, 128, Direction::Down);
        hi = ad.add(hi, 128, Direction::Up);
    }
    Some((lo, hi))
}

/// `EI` for `σ > 0` from [`ei_centred`] where it decides it: `enclosure_bits ≤ 110`, and the
/// enclosure rounds to one normal double and meets the width target; `None` otherwise (the
/// Ziv loop then runs). Correct rounding is unique, so the value is the Ziv loop's; the bounds
/// are these 128-bit ones (relative width at most `2^-116`). The work counter records the Ziv
/// loop's first precision, where the loop would have settled. Proof note §4.5; checked against
/// the Ziv loop at 200 bits by `tests::centred_front_door_is_the_ziv_loop`.
fn ei_by_centres(y: f64, mu: f64, sigma: f64, acc: &Accuracy) -> Option<Certified> {
    if acc.enclosure_bits > CENTRED_BITS {
        return None;
    }
    let (lo, hi) = ei_centred(y, mu, sigma)?;
    // Both ends round to the same normal double (RNE is monotone), and the width test of
    // `certify::is_tight` (width = RU_64(hi - lo), width·2^bits ≤ lo) holds.
    let value = lo.to_f64_nearest()?;
    if value == 0.0 || hi.to_f64_nearest()? != value || !tight(lo, hi, acc.enclosure_bits) {
        return None;
    }
    crate::work::working(first_precision(&series_accuracy(acc)));
    Some(Certified {
        value,
        lower: lo.to_float(128),
        upper: hi.to_float(128),
    })
}

/// The width test of `certify::is_tight`, `RU_64(hi - lo)·2^bits ≤ lo`, for `0 < lo ≤ hi`
/// (`bits < 128`). Where both ends have one exponent `e` and at most 128 bits, they are
/// `ml·2^(e-128)` and `mh·2^(e-128)` with integers `ml ≤ mh`, and `hi - lo = w·2^(e-128)`,
/// `w = mh - ml`; for `w < 2^64`, `RU_64(w) = w` and `w·2^bits ≤ ml ⟺ w ≤ ⌊ml/2^bits⌋` (`w` an
/// integer). Otherwise the difference is formed by `Wide::sub`, as `is_tight` forms it.
fn tight(lo: Wide, hi: Wide, bits: u32) -> bool {
    let ((ml, el), (mh, eh)) = (lo.limbs(), hi.limbs());
    if el == eh && ml[0] == 0 && mh[0] == 0 && bits < 128 {
        let ml = (u128::from(ml[2]) << 64) | u128::from(ml[1]);
        let mh = (u128::from(mh[2]) << 64) | u128::from(mh[1]);
        let w = mh - ml;
        if w < 1 << 64 {
            return w <= ml >> bits;
        }
    }
    match hi.sub(lo, 64, Direction::Up) {
        Some(width) => width.times_pow2(i64::from(bits)) <= lo,
        None => true,
    }
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
/// `EI = max(y - μ, 0) + σ·h(-|z|)`, free of cancellation for `z > 0`; `h(-x)` for `x ≤ 8` at
/// the default accuracy by centred Taylor expansions on fixed-point integers (`h_centres.rs`),
/// else in a Ziv loop by its Taylor series (`x ≤ 6`), the continued fraction of the repeated
/// normal integrals (`x > 6`), or the alternating asymptotic series with its rigorous
/// remainder (large `x`); see `gaussian.rs`.
///
/// # Cost
/// About 1–2 µs for `|z| ≤ 8` at the default accuracy, 30–60 µs beyond (table in
/// `proofs-notes/reference-certification.md`).
///
/// # Example
/// `EI(0, 1; 0) = h(0) = 1/√(2π)` (MATH.md, "Sanity values"), correctly rounded:
/// ```
/// let r = pbgi_reference::ei(0.0, 1.0, 0.0).unwrap();
/// assert_eq!(r.value, 0.3989422804014327);
/// ```
pub fn ei(mu: f64, sigma: f64, y: f64) -> Result<Certified, Error> {
    ei_with(mu, sigma, y, &Accuracy::default())
}

/// [`ei`] with an explicit precision policy.
pub fn ei_with(mu: f64, sigma: f64, y: f64, acc: &Accuracy) -> Result<Certified, Error> {
    let (mu, y) = (finite("mu", mu)?, finite("y", y)?);
    let sigma = non_negative("sigma", sigma)?;
    widen_exponent_range();
    if sigma > 0.0 {
        if let Some(c) = ei_by_centres(y, mu, sigma, acc) {
            return Ok(c);
        }
    }
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

    /// The front door's result against the Ziv loop's at 200 bits (which the front door does
    /// not serve): the same value bit for bit, the new enclosure contains the 200-bit one and
    /// has relative width at most `2^-116`, on 100 000 BO-like points (`σ = 10^U(-2, 2)`,
    /// `μ = U(-1, 1)`, `z ~ N(0, 2²)`, `y = μ + zσ`) and stress sets: scales from `10^-300` to
    /// `10^300`, `y = μ`, `|z|` at, just below and just above 6 and 8, `|y - μ|` needing more than
    /// 192 bits, subnormal results. The front door answers on all but a few of the points it
    /// may take (`|d|` within 192 bits, `x ≤ 8`, a normal result).
    #[test]
    fn centred_front_door_is_the_ziv_loop() {
        widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(73);
        let forced = Accuracy {
            enclosure_bits: 200,
            ..Accuracy::default()
        };
        let mut points = crate::test_points::bo_like_and_scaled(&mut rng, 100_000, 20_000);
        for i in 0..2_000 {
            // |y - μ| spanning more than 192 bits, or tiny results.
            let sigma = rng.gen_range(0.5..2.0);
            let (mu, y) = if i % 2 == 0 {
                (rng.gen_range(-1.0..1.0) * 1e-60, rng.gen_range(-3.0..3.0))
            } else {
                let s = 1e-310;
                points.push((0.0, s, rng.gen_range(-3.0..3.0) * s));
                continue;
            };
            points.push((mu, sigma, y));
            points.push((y, sigma, mu));
        }
        let (mut eligible, mut answered) = (0usize, 0usize);
        let mut widest = Float::with_val(64, 0);
        for &(mu, sigma, y) in &points {
            let new = ei(mu, sigma, y).unwrap();
            let old = ei_with(mu, sigma, y, &forced).unwrap();
            let at = format!("ei({mu:e}, {sigma:e}, {y:e})");
            assert_eq!(new.value.to_bits(), old.value.to_bits(), "{at}");
            assert!(new.lower <= old.lower && old.upper <= new.upper, "{at}");
            let width = Float::with_val(64, &new.upper - &new.lower) / &new.lower;
            let d = exact_difference(y, mu);
            let centred = ei_by_centres(y, mu, sigma, &Accuracy::default());
            if let Some(c) = &centred {
                assert_eq!(c.value.to_bits(), new.value.to_bits());
                assert!(width <= Float::with_val(64, 1) >> 116u32, "{at}: {width}");
                if width > widest {
                    widest = width;
                }
            } else {
                assert!(width <= Float::with_val(64, 1) >> 100u32, "{at}: {width}");
            }
            let x = Float::with_val(300, &*d.as_abs()) / sigma;
            if d.prec() <= 192 && x <= 8 && old.value.is_normal() {
                eligible += 1;
                answered += usize::from(centred.is_some());
            }
        }
        println!(
            "answered {answered} of {eligible}; widest 2^{:.2}",
            widest.log2().to_f64()
        );
        assert!(answered * 10_000 >= eligible * 9_999 && eligible > 100_000);
    }

    /// [`exact_distance`] is `|y - μ|` and the sign of `exact_difference`'s exact float, on
    /// signed zeros, subnormals, the extremes and random doubles of nearby and distant
    /// exponents, all pairs; it declines only where the exponents differ by more than 138.
    #[test]
    fn exact_distance_is_the_exact_difference() {
        widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(74);
        let mut values = crate::test_points::EDGE_DOUBLES.to_vec();
        for _ in 0..300 {
            let e = rng.gen_range(-60..60);
            values.push(rng.gen_range(-2.0..2.0) * 2f64.powi(e));
            values.push(f64::from_bits(rng.gen::<u64>() & !(1 << 62)));
        }
        let exponent = |v: f64| Wide::from_f64_magnitude(v).exponent();
        for &y in &values {
            for &mu in &values {
                let d = exact_difference(y, mu);
                match exact_distance(y, mu) {
                    Some((m, positive)) => {
                        assert_eq!(m.to_float(192), *d.as_abs(), "{y:e} - {mu:e}");
                        assert_eq!(positive, d > 0, "{y:e} - {mu:e}");
                    }
                    None => {
                        let (a, b) = (exponent(y).unwrap(), exponent(mu).unwrap());
                        assert!((a - b).abs() > 138, "{y:e} - {mu:e} declined");
                    }
                }
            }
        }
    }

    /// [`tight`] decides as `certify::is_tight`, on 200 000 intervals of 128-bit ends whose
    /// relative widths straddle `2^-bits` (`bits` from 1 to 127), including ends on both sides
    /// of a power of two.
    #[test]
    fn tight_is_is_tight() {
        widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(75);
        let mut decided = [0u32; 2];
        for i in 0..200_000 {
            let bits = rng.gen_range(1..128u32);
            let e = rng.gen_range(-200..200i32);
            let lo = if i % 7 == 0 {
                let mut v = Float::with_val(128, 1) << e;
                v.next_down();
                for _ in 0..rng.gen_range(0..4) {
                    v.next_down();
                }
                v
            } else {
                Float::with_val(128, rng.gen::<u128>() | (1 << 127)) << (e - 128)
            };
            let scale = Float::with_val(128, &lo >> bits);
            let w = Float::with_val(128, &scale * rng.gen_range(0.5..1.5f64));
            let w = if i % 5 == 0 {
                Float::with_val(
                    128,
                    &scale + rng.gen_range(-3..4i32) * (Float::with_val(128, &lo) >> 127u32),
                )
            } else {
                w
            };
            let hi = up(128, &lo + &w.abs());
            let (a, b) = (
                Wide::from_float(&lo).unwrap(),
                Wide::from_float(&hi).unwrap(),
            );
            let expected = crate::certify::is_tight(
                &Interval {
                    lo: lo.clone(),
                    hi: hi.clone(),
                },
                bits,
            );
            assert_eq!(tight(a, b, bits), expected, "[{lo}, {hi}], {bits}");
            decided[usize::from(expected)] += 1;
        }
        assert!(decided.iter().all(|&n| n > 10_000), "{decided:?}");
    }
}
