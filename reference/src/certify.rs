//! From enclosures to [`Certified`] results: the Ziv loop and correct rounding to f64.

use crate::arith::interval::Interval;
use crate::arith::mpfr::{down, exponent, up};
use crate::arith::wide_float::{nearest_f64, Direction, Wide};
use crate::certified::{Accuracy, Certified, Error};
use rug::float::Round;
use rug::Float;

/// The enclosure rounds to a single f64 (round to nearest, ties to even). Rounding is
/// monotone, so `RNE(lo) = RNE(hi)` implies `RNE(exact) = RNE(lo)` for every exact value in
/// `[lo, hi]`, including one lying exactly on a midpoint between two doubles.
pub(crate) fn rounds_to_one_f64(iv: &Interval) -> Option<f64> {
    let (lo, hi) = match (nearest_f64(&iv.lo), nearest_f64(&iv.hi)) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => (iv.lo.to_f64(), iv.hi.to_f64()),
    };
    (lo == hi && !lo.is_nan()).then(|| signed_zero(lo, iv))
}

/// `v`, or for a zero `v` the zero of the exact value's sign: `-0` only when the exact value
/// is certainly negative (`upper < 0`), `+0` otherwise. The ends of an enclosure do not carry
/// that sign: a lower end `down(0 - 0)` is `-0` in MPFR (as in IEEE arithmetic rounding down).
fn signed_zero(v: f64, iv: &Interval) -> f64 {
    match v == 0.0 {
        true if iv.hi < 0 => -0.0,
        true => 0.0,
        false => v,
    }
}

/// The enclosure meets the relative-width target `2^-bits`, or is a point, or is as tight as
/// MPFR's exponent range allows (the exact value underflows MPFR: `[0, tiny]`).
pub(crate) fn is_tight(iv: &Interval, bits: u32) -> bool {
    if iv.is_point() {
        return true;
    }
    if !iv.lo.is_finite() || !iv.hi.is_finite() {
        return false;
    }
    if iv.lo.is_zero() && exponent(&iv.hi).is_some_and(|e| e < i64::from(i32::MIN)) {
        return true;
    }
    if iv.lo.is_sign_negative() != iv.hi.is_sign_negative() || iv.lo.is_zero() || iv.hi.is_zero() {
        return false;
    }
    // The same question on the three-limb forms of the ends' magnitudes (at most 192 bits):
    // width = RU_64(hi - lo) is RU_64 of the larger magnitude minus the smaller one (`lo < hi`
    // of one sign), and `width·2^bits ≤ |smallest|` is decided exactly (see below).
    if let (Some(a), Some(b), true) = (
        Wide::magnitude_of(&iv.lo),
        Wide::magnitude_of(&iv.hi),
        bits < 1 << 30,
    ) {
        let (small, large) = if a < b { (a, b) } else { (b, a) };
        if let Some(width) = large.sub(small, 64, Direction::Up) {
            return width.times_pow2(i64::from(bits)) <= small;
        }
    }
    let mut width = up(64, &iv.hi - &iv.lo);
    let smallest = if iv.lo.cmp_abs(&iv.hi) == Some(std::cmp::Ordering::Less) {
        &iv.lo
    } else {
        &iv.hi
    };
    // width ≤ RD_64(|smallest|)·2^-bits ⟺ width·2^bits ≤ RD_64(|smallest|) ⟺ width·2^bits ≤
    // |smallest|: scaling by 2^bits is exact far inside MPFR's exponent range (checked here;
    // the range is widened to about ±2^62), width·2^bits is a 64-bit float, and RD_64(v) is
    // the largest 64-bit float ≤ v. No rounding of |smallest| is needed.
    let far_inside = |x: &Float| exponent(x).is_some_and(|e| e.abs() < 1 << 40);
    if bits < 1 << 30 && width.is_sign_positive() && far_inside(&width) && far_inside(smallest) {
        width <<= bits;
        return width.cmp_abs(smallest) != Some(std::cmp::Ordering::Greater);
    }
    let scale = down(64, smallest.abs_ref()) >> bits;
    width <= scale
}

/// An enclosure whose lower end may be excluded: `lower < exact ≤ upper` when `lower_open`.
/// Needed where the exact value is known to exceed a bound that may sit exactly on a rounding
/// midpoint (`EI > y - μ` when the tail `σ·h(-z)` is below the working precision).
pub(crate) struct Enclosure {
    pub iv: Interval,
    pub lower_open: bool,
}

impl From<Interval> for Enclosure {
    fn from(iv: Interval) -> Self {
        Enclosure {
            iv,
            lower_open: false,
        }
    }
}

/// The double that every real just above `x` rounds to (RNE): the upper neighbour when `x` is
/// exactly a midpoint between two doubles, else `RNE(x)`.
fn rounding_just_above(x: &Float) -> f64 {
    let (below, above) = (x.to_f64_round(Round::Down), x.to_f64_round(Round::Up));
    if below == above {
        return x.to_f64();
    }
    let two_1024 = Float::with_val(53, 1) << 1024u32;
    let point = |v: f64| {
        if v.is_infinite() {
            if v > 0.0 {
                two_1024.clone()
            } else {
                -two_1024.clone()
            }
        } else {
            exact(v)
        }
    };
    let mut mid = Float::with_val(2200, &point(below) + &point(above));
    mid >>= 1;
    if mid == *x {
        above
    } else {
        x.to_f64()
    }
}

/// Converts a final enclosure into a [`Certified`] if it is decided and tight.
pub(crate) fn finish(iv: &Interval, acc: &Accuracy) -> Option<Certified> {
    finish_enclosure(
        &Enclosure {
            iv: iv.clone(),
            lower_open: false,
        },
        acc,
    )
}

/// [`finish`] for an enclosure whose lower end may be open.
pub(crate) fn finish_enclosure(e: &Enclosure, acc: &Accuracy) -> Option<Certified> {
    let value = settled_value(e, acc)?;
    Some(Certified {
        value,
        lower: e.iv.lo.clone(),
        upper: e.iv.hi.clone(),
    })
}

/// [`finish_enclosure`] taking the enclosure, so that its ends become the result's without a
/// copy; the enclosure back if it is not decided or not tight.
fn finish_owned(e: Enclosure, acc: &Accuracy) -> Result<Certified, Enclosure> {
    match settled_value(&e, acc) {
        Some(value) => Ok(Certified {
            value,
            lower: e.iv.lo,
            upper: e.iv.hi,
        }),
        None => Err(e),
    }
}

/// The correctly rounded value if the enclosure decides it and is tight.
fn settled_value(e: &Enclosure, acc: &Accuracy) -> Option<f64> {
    let iv = &e.iv;
    let value = if e.lower_open && !iv.is_point() {
        let v = rounding_just_above(&iv.lo);
        (v == iv.hi.to_f64() && !v.is_nan()).then(|| signed_zero(v, iv))?
    } else {
        rounds_to_one_f64(iv)?
    };
    is_tight(iv, acc.enclosure_bits).then_some(value)
}

/// The precision policy of the Ziv loops of EI, LogEI and `ln Φ` (and `h`, `ln h` through
/// them): the first working precision is `enclosure_bits + 3` when that is below `start_bits`
/// (103 bits by default), so that their series run at 127 bits (24 guard bits), inside MPFR's
/// two-limb fast paths (precisions below 128), where they settle on all but about 0.5% of
/// BO-like inputs (EI: 3 in 500, the others go on at twice the precision). Functions whose
/// formulas lose more bits (gradients, LogEIPC, PBGI's comparisons) keep `start_bits`.
pub(crate) fn series_accuracy(acc: &Accuracy) -> Accuracy {
    Accuracy {
        start_bits: acc.start_bits.min(acc.enclosure_bits.saturating_add(3)),
        ..*acc
    }
}

/// The first working precision of [`ziv`] under `acc`: `start_bits`, at least 32 and at most
/// `max_bits` (or 32).
pub(crate) fn first_precision(acc: &Accuracy) -> u32 {
    acc.start_bits.max(32).min(acc.max_bits.max(32))
}

/// Ziv loop: evaluates `enclose(p)` at increasing working precision `p` until the enclosure
/// rounds to one f64 and is tight, or the cap `acc.max_bits` is passed.
pub(crate) fn ziv(
    function: &'static str,
    acc: &Accuracy,
    mut enclose: impl FnMut(u32) -> Enclosure,
) -> Result<Certified, Error> {
    let mut p = first_precision(acc);
    loop {
        crate::work::working(p);
        if let Ok(c) = finish_owned(enclose(p), acc) {
            return Ok(c);
        }
        if p >= acc.max_bits {
            return Err(Error::PrecisionExhausted {
                function,
                max_bits: acc.max_bits,
            });
        }
        p = p.saturating_mul(2).min(acc.max_bits);
    }
}

/// The certified result for `-v` from the one for a **strictly positive** quantity `v`: the
/// enclosure mirrored, and a value that rounds to `+0` becomes `-0` (the exact `-v` is
/// negative even when it lies below every double, or below MPFR's range).
pub(crate) fn negated(c: Certified) -> Certified {
    Certified {
        value: -c.value,
        lower: -c.upper,
        upper: -c.lower,
    }
}

/// An f64 as an exact MPFR float.
pub(crate) fn exact(x: f64) -> Float {
    Float::with_val(53, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The width test of [`is_tight`] before it compared `width·2^bits` with `|smallest|`.
    fn is_tight_by_scale(iv: &Interval, bits: u32) -> bool {
        let width = up(64, &iv.hi - &iv.lo);
        let smallest = if iv.lo.cmp_abs(&iv.hi) == Some(std::cmp::Ordering::Less) {
            &iv.lo
        } else {
            &iv.hi
        };
        width <= (down(64, smallest.abs_ref()) >> bits)
    }

    /// [`is_tight`] decides as the rounded scale `RD_64(|smallest|)·2^-bits` did, on intervals
    /// of both signs whose width lies at, just below and just above that scale (and the
    /// width computed from 53- to 300-bit ends: up to 192 bits by the three-limb form, beyond by
    /// MPFR), `bits` from 1 to 1100, magnitudes from `2^-3000` to `2^3000`.
    #[test]
    fn width_test_is_the_rounded_scale_test() {
        use rand::{Rng, SeedableRng};
        crate::arith::mpfr::widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let mut decided = [0u32; 2];
        for _ in 0..200_000 {
            let prec = rng.gen_range(53..300u32);
            let bits = rng.gen_range(1..1100u32);
            let e = rng.gen_range(-3000..3000i32);
            let mut lo = Float::with_val(prec, rng.gen_range(1.0..2.0f64)) << e;
            if rng.gen_bool(0.5) {
                lo = -lo;
            }
            // A width near |lo|·2^-bits, nudged by a few units of its own last place.
            let scale = Float::with_val(prec, lo.abs_ref()) >> bits;
            let nudge = Float::with_val(64, rng.gen_range(-8i32..8)) >> (bits + prec);
            let mut w = Float::with_val(prec + 80, &scale * rng.gen_range(0.999..1.001f64));
            w += Float::with_val(64, &nudge * &scale) << bits;
            let hi = up(prec, &lo + &w.abs());
            let iv = Interval { lo, hi };
            if iv.is_point() {
                continue;
            }
            let tight = is_tight(&iv, bits);
            assert_eq!(
                tight,
                is_tight_by_scale(&iv, bits),
                "[{}, {}], bits {bits}",
                iv.lo,
                iv.hi
            );
            decided[usize::from(tight)] += 1;
        }
        // Both answers, many times each (the widths straddle the threshold).
        assert!(decided.iter().all(|&n| n > 10_000), "{decided:?}");
    }

    /// `nearest_f64` is MPFR's `to_f64` (round to nearest, ties to even) wherever it answers,
    /// and answers on every float of at most 192 bits that rounds to a normal double or zero:
    /// both signs, precisions 1 to 192, magnitudes from `2^-1100` to `2^1100` (subnormal and
    /// infinite results decline), exact ties between two doubles.
    #[test]
    fn nearest_double_is_mpfrs() {
        use rand::{Rng, SeedableRng};
        crate::arith::mpfr::widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
        for i in 0..200_000 {
            let prec = rng.gen_range(1..=192u32);
            let e = rng.gen_range(-1100..1100i32);
            let mut x = Float::with_val(prec, rng.gen_range(1.0..2.0f64)) << e;
            if i % 3 == 0 {
                // A double plus half its unit, at 54 bits and more.
                let d = Float::with_val(53, rng.gen_range(1.0..2.0f64)) << e;
                x = Float::with_val(prec.max(54), &d + &(Float::with_val(53, 1) << (e - 53)));
            }
            if rng.gen_bool(0.5) {
                x = -x;
            }
            let expected = x.to_f64();
            match nearest_f64(&x) {
                Some(v) => assert_eq!(v.to_bits(), expected.to_bits(), "{x}"),
                None => assert!(!expected.is_normal(), "{x} declined"),
            }
        }
        assert_eq!(nearest_f64(&Float::new(60)), Some(0.0));
        assert_eq!(nearest_f64(&Float::with_val(193, 1)), None);
    }
}
