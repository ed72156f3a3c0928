//! Interval arithmetic on MPFR floats with directed rounding.
//!
//! Every operation returns `[lo, hi]` with `lo` rounded toward −∞ and `hi` toward +∞, so the
//! exact result of the operation on any points of the operand intervals lies inside. MPFR's
//! functions are correctly rounded in the requested direction, which makes each bound rigorous.

use crate::arith::mpfr::{down, exponent, up};
use rug::float::{Constant, Round};
use rug::ops::{AddAssignRound, MulAssignRound};
use rug::Float;
use std::cmp::Ordering;

/// Closed interval `[lo, hi]` of extended reals (`lo ≤ hi`).
#[derive(Clone, Debug)]
pub(crate) struct Interval {
    pub lo: Float,
    pub hi: Float,
}

/// `log2 |x|` to within one unit, for precision heuristics (0 for zero / non-finite).
pub(crate) fn log2_abs(x: &Float) -> i64 {
    exponent(x).unwrap_or(0)
}

/// The exact sum of `terms`, with a precision large enough that no rounding occurs.
pub(crate) fn exact_sum(terms: &[&Float]) -> Float {
    let prec = exact_sum_precision(terms.iter().map(|t| (exponent(t), t.prec())), terms.len());
    let mut sum = Float::with_val(prec, 0);
    for t in terms {
        sum += *t;
    }
    sum
}

/// `y - mu` exactly: [`exact_sum`] of the exact floats `y` and `-mu` (the same precision, the
/// same two additions, hence the same float, zeros' signs included), without forming them.
pub(crate) fn exact_difference_f64(y: f64, mu: f64) -> Float {
    let prec = exact_sum_precision(
        [(f64_exponent(y), 53), (f64_exponent(mu), 53)].into_iter(),
        2,
    );
    if let Some(d) = difference_by_limbs(y, mu, prec) {
        return d;
    }
    let mut sum = Float::with_val(prec, 0);
    // s + (-mu) and s - mu are the same operation (MPFR's subtraction is the addition of the
    // negated operand, zeros included), exact at this precision.
    sum += y;
    sum -= mu;
    sum
}

/// The float `0 + y - mu` of [`exact_difference_f64`] at precision `prec ≤ 192` (finite `y`,
/// `mu`), from the three-limb forms of `|y|` and `|mu|`: the magnitude `|y| + |mu|` or the
/// difference of the larger and the smaller, rounded to `prec` bits — exact, since
/// `y - mu` is representable at that precision, so it is MPFR's exact sum — with the sign of
/// `y - mu`; a zero difference is `+0`, as MPFR's additions give it (round to nearest: `+0`
/// plus a zero of either sign is `+0`). `None` for `prec > 192` or non-finite input.
fn difference_by_limbs(y: f64, mu: f64, prec: u32) -> Option<Float> {
    use crate::arith::wide_float::{Direction, Wide};
    if prec > 192 || !y.is_finite() || !mu.is_finite() {
        return None;
    }
    let (a, b) = (Wide::from_f64_magnitude(y), Wide::from_f64_magnitude(mu));
    let (y_negative, mu_negative) = (y.is_sign_negative(), mu.is_sign_negative());
    let (magnitude, negative) = if y_negative != mu_negative {
        // y - mu = ±(|y| + |mu|), the sign of y.
        (a.add(b, prec, Direction::Down), y_negative)
    } else if a > b {
        (a.sub(b, prec, Direction::Down)?, y_negative)
    } else if b > a {
        (b.sub(a, prec, Direction::Down)?, !y_negative)
    } else {
        (Wide::ZERO, false)
    };
    let mut d = magnitude.to_float(prec);
    if negative && !magnitude.is_zero() {
        d = -d;
    }
    Some(d)
}

/// MPFR's exponent of the float `x` (`2^(e-1) ≤ |x| < 2^e`), `None` for zero or non-finite
/// `x` (as [`exponent`] of `Float::with_val(53, x)`).
fn f64_exponent(x: f64) -> Option<i64> {
    if x == 0.0 || !x.is_finite() {
        return None;
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    Some(if biased == 0 {
        // Subnormal: m·2^-1074 with 2^(len-1) ≤ m < 2^len.
        let m = bits & ((1 << 52) - 1);
        i64::from(64 - m.leading_zeros()) - 1074
    } else {
        biased - 1022
    })
}

/// The precision of [`exact_sum`] for terms of these exponents and precisions (`count` terms).
fn exact_sum_precision(terms: impl Iterator<Item = (Option<i64>, u32)>, count: usize) -> u32 {
    let mut top = i64::MIN;
    let mut bottom = i64::MAX;
    for (e, prec) in terms {
        if let Some(e) = e {
            top = top.max(e);
            bottom = bottom.min(e - i64::from(prec));
        }
    }
    let prec = if top == i64::MIN {
        64
    } else {
        // Every term is a multiple of 2^bottom and the sum is below count·2^top.
        let span = top - bottom + 2 + 64 - (count as u64).leading_zeros() as i64;
        // Callers sum doubles, midpoints of doubles, costs and bisection points of magnitude
        // above 2^-1200 (`pbgi.rs`), so the span stays near 2^12 bits; a larger one would not
        // be exact.
        debug_assert!(span <= 1 << 16, "exact_sum over a {span}-bit span");
        u32::try_from(span.max(64)).unwrap_or(u32::MAX)
    };
    crate::work::exact(prec);
    prec.min(rug::float::prec_max())
}

/// The exact midpoint of `a` and `b`.
pub(crate) fn exact_midpoint(a: &Float, b: &Float) -> Float {
    let mut m = exact_sum(&[a, b]);
    m >>= 1;
    m
}

impl Interval {
    pub fn point(x: Float) -> Self {
        Interval {
            lo: x.clone(),
            hi: x,
        }
    }

    pub fn is_point(&self) -> bool {
        self.lo == self.hi
    }

    pub fn add(&self, o: &Interval, p: u32) -> Interval {
        Interval {
            lo: down(p, &self.lo + &o.lo),
            hi: up(p, &self.hi + &o.hi),
        }
    }

    pub fn sub(&self, o: &Interval, p: u32) -> Interval {
        Interval {
            lo: down(p, &self.lo - &o.hi),
            hi: up(p, &self.hi - &o.lo),
        }
    }

    /// Product of two intervals of non-negative numbers.
    pub fn mul_nonneg(&self, o: &Interval, p: u32) -> Interval {
        Interval {
            lo: down(p, &self.lo * &o.lo),
            hi: up(p, &self.hi * &o.hi),
        }
    }

    /// Quotient of a non-negative interval by a positive one.
    pub fn div_nonneg(&self, o: &Interval, p: u32) -> Interval {
        Interval {
            lo: down(p, &self.lo / &o.hi),
            hi: up(p, &self.hi / &o.lo),
        }
    }

    /// `exp` is increasing. One exponential: `lo' = RD(exp(lo))`, and for
    /// `0 ≤ δ = hi - lo ≤ 1`, `exp(hi) = exp(lo)·e^δ ≤ ⌈lo'⌉·(1 + 2δ)` where `⌈lo'⌉` is `lo'`
    /// if the rounding was exact, else the next float above it (`exp(lo) < next_up(lo')` by the
    /// definition of rounding down), and `e^δ ≤ 1 + 2δ` on `[0, 1]` (convexity, `e < 3`).
    /// Wider intervals take two exponentials (proof note §2).
    pub fn exp(&self, p: u32) -> Interval {
        // MPFR's RD_p(exp(lo)), by fixed-point arithmetic where that settles it (`fixed_exp.rs`).
        let (lo, dir) = match crate::arith::fixed_exp::exp_down(&self.lo, p) {
            Some(lo) => (lo, Ordering::Less),
            None => Float::with_val_round(p, self.lo.exp_ref(), Round::Down),
        };
        let delta = up(64, &self.hi - &self.lo);
        if !(delta.is_finite() && delta <= 1) {
            return Interval {
                lo,
                hi: up(p, self.hi.exp_ref()),
            };
        }
        let mut hi = lo.clone();
        if dir != Ordering::Equal {
            hi.next_up();
        }
        if !delta.is_zero() {
            // 1 + 2δ at the working precision (at 64 bits it would round up to 1 + 2^-63).
            let mut growth = Float::with_val(p.max(64), &delta);
            growth <<= 1u32;
            growth.add_assign_round(1u32, Round::Up);
            hi.mul_assign_round(&growth, Round::Up);
        }
        Interval { lo, hi }
    }

    /// `ln` is increasing; a lower end ≤ 0 gives `-inf` (or NaN, never certified) there. One
    /// logarithm: `lo' = RD(ln(lo))`, and `ln(hi) = ln(lo) + ln(1 + (hi - lo)/lo) ≤ ⌈lo'⌉ +
    /// (hi - lo)/lo` (`⌈lo'⌉` as in [`Interval::exp`]) for finite `0 < lo ≤ hi` with
    /// `(hi - lo)/lo ≤ 2^-8`; wider intervals take two logarithms (proof note §2).
    pub fn ln(&self, p: u32) -> Interval {
        if self.lo.is_sign_negative() || self.lo.is_zero() {
            return Interval {
                lo: Float::with_val(p, f64::NEG_INFINITY),
                hi: up(p, self.hi.ln_ref()),
            };
        }
        let (lo, dir) = ln_down(&self.lo, p);
        if !(self.lo.is_finite() && self.hi.is_finite()) {
            return Interval {
                lo,
                hi: up(p, self.hi.ln_ref()),
            };
        }
        let mut hi = lo.clone();
        if dir != Ordering::Equal {
            hi.next_up();
        }
        if self.hi != self.lo {
            let relative = up(64, &up(64, &self.hi - &self.lo) / &self.lo);
            // A wide interval: (hi - lo)/lo would overstate ln(hi); take the second logarithm.
            if relative > Float::with_val(64, 1) >> 8u32 {
                return Interval {
                    lo,
                    hi: up(p, self.hi.ln_ref()),
                };
            }
            hi.add_assign_round(&relative, Round::Up);
        }
        Interval { lo, hi }
    }
}

impl Interval {
    /// `ln(1 + x)` (increasing). One transcendental for `0 ≤ lo ≤ hi`, `hi - lo ≤ 2^-8`:
    /// `lo' = RD(log1p(lo))`, and `log1p(hi) = log1p(lo) + ln(1 + (hi - lo)/(1 + lo)) ≤ ⌈lo'⌉ +
    /// (hi - lo)` (`ln(1 + t) ≤ t`, `1 + lo ≥ 1`; `⌈lo'⌉` as in [`Interval::exp`]); otherwise two
    /// (proof note §2).
    pub fn ln_1p(&self, p: u32) -> Interval {
        // MPFR's RD_p(log1p(lo)), by fixed-point arithmetic where that settles it.
        let (lo, dir) = match crate::arith::fixed_ln::ln_1p_down(&self.lo, p) {
            Some(lo) => (lo, Ordering::Less),
            None => Float::with_val_round(p, self.lo.ln_1p_ref(), Round::Down),
        };
        let width = up(64, &self.hi - &self.lo);
        let narrow = width.is_finite() && width <= Float::with_val(64, 1) >> 8u32;
        if self.lo.is_sign_negative() || !self.hi.is_finite() || !narrow {
            return Interval {
                lo,
                hi: up(p, self.hi.ln_1p_ref()),
            };
        }
        let mut hi = lo.clone();
        if dir != Ordering::Equal {
            hi.next_up();
        }
        if !width.is_zero() {
            hi.add_assign_round(&width, Round::Up);
        }
        Interval { lo, hi }
    }
}

/// MPFR's `RD_p(ln x)` with its ternary value, by fixed-point arithmetic where that settles it
/// (`fixed_ln.rs`: the same float, bit for bit).
fn ln_down(x: &Float, p: u32) -> (Float, Ordering) {
    match crate::arith::fixed_ln::ln_down(x, p) {
        Some(lo) => (lo, Ordering::Less),
        None => Float::with_val_round(p, x.ln_ref(), Round::Down),
    }
}

/// `ln x` enclosed for an exact `x > 0` (one logarithm, [`Interval::ln`]).
pub(crate) fn ln_point(x: &Float, p: u32) -> Interval {
    let (lo, dir) = ln_down(x, p);
    let mut hi = lo.clone();
    if dir != Ordering::Equal {
        hi.next_up();
    }
    Interval { lo, hi }
}

/// `π` enclosed at `p` bits.
pub(crate) fn pi(p: u32) -> Interval {
    Interval {
        lo: down(p, Constant::Pi),
        hi: up(p, Constant::Pi),
    }
}

/// `√(2π)` enclosed at `p` bits (cached per thread and precision: it is needed in every
/// evaluation of `φ`).
pub(crate) fn sqrt_2pi(p: u32) -> Interval {
    cached(p, 0, || {
        let two_pi = pi(p);
        let lo = down(p, (two_pi.lo << 1u32).sqrt_ref());
        let hi = up(p, (two_pi.hi << 1u32).sqrt_ref());
        Interval { lo, hi }
    })
}

/// Runs `f` on [`sqrt_2pi`]`(p)` borrowed from the per-thread cache (no copy of the two
/// floats: `φ` is evaluated once per call of EI).
pub(crate) fn with_sqrt_2pi<T>(p: u32, f: impl FnOnce(&Interval) -> T) -> T {
    SQRT_2PI.with(|cache| {
        if let Some(at) = cache.borrow().iter().position(|(q, _)| *q == p) {
            return f(&cache.borrow()[at].1);
        }
        let iv = sqrt_2pi(p);
        let mut cache = cache.borrow_mut();
        if cache.len() >= 16 {
            cache.remove(0);
        }
        cache.push((p, iv));
        f(&cache[cache.len() - 1].1)
    })
}

thread_local! {
    /// [`sqrt_2pi`] per precision, for [`with_sqrt_2pi`].
    static SQRT_2PI: std::cell::RefCell<Vec<(u32, Interval)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `ln √(2π)` enclosed at `p` bits (cached like [`sqrt_2pi`]).
pub(crate) fn ln_sqrt_2pi(p: u32) -> Interval {
    cached(p, 1, || sqrt_2pi(p).ln(p))
}

/// Per-thread cache of constant enclosures, keyed by (precision, constant).
fn cached(p: u32, which: u8, compute: impl FnOnce() -> Interval) -> Interval {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static CACHE: RefCell<HashMap<(u32, u8), Interval>> = RefCell::new(HashMap::new());
    }
    if let Some(iv) = CACHE.with(|c| c.borrow().get(&(p, which)).cloned()) {
        return iv;
    }
    let iv = compute();
    CACHE.with(|c| c.borrow_mut().insert((p, which), iv.clone()));
    iv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::mpfr::widen_exponent_range;

    /// `exact_difference_f64(y, mu)` is `exact_sum` of the exact floats `y` and `-mu` bit for bit
    /// (value, precision, the sign of a zero), over zeros of both signs, subnormals, the
    /// extremes of f64 and random doubles of every magnitude.
    #[test]
    fn exact_difference_is_the_exact_sum_bit_for_bit() {
        use rand::{Rng, SeedableRng};
        widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut values = crate::test_points::EDGE_DOUBLES.to_vec();
        values.extend((0..300).map(|_| {
            f64::from_bits(
                rng.gen::<u64>() & !(0x7ffu64 << 52) | (u64::from(rng.gen_range(0u32..2047)) << 52),
            )
        }));
        values.extend((0..300).map(|_| rng.gen_range(-4.0..4.0)));
        for &y in &values {
            for &mu in &values {
                let a = exact_difference_f64(y, mu);
                let b = exact_sum(&[&Float::with_val(53, y), &Float::with_val(53, -mu)]);
                assert!(
                    a.prec() == b.prec() && a == b && a.is_sign_negative() == b.is_sign_negative(),
                    "y = {y:e}, mu = {mu:e}: {a} at {} ≠ {b} at {}",
                    a.prec(),
                    b.prec()
                );
            }
        }
    }

    /// Intervals `[a, a + w]` at `p` bits over magnitudes and widths from a point to 1 (and
    /// wider, which takes the two-function branch).
    fn cases(p: u32) -> Vec<Interval> {
        let mut out = Vec::new();
        for a in [
            -700.5, -30.25, -1.0, -1e-9, 0.0, 1e-300, 1e-9, 0.3, 1.0, 2.5, 700.0, 1e5,
        ] {
            for w in [0.0, 1e-40, 1e-12, 0.25, 1.0, 3.0] {
                let lo = Float::with_val(p, a);
                let hi = up(p, &lo + w);
                out.push(Interval { lo, hi });
            }
        }
        out
    }

    /// The one-exponential enclosure contains `[RD(exp lo), RU(exp hi)]` at 300 more bits and
    /// its upper end exceeds the lower by at most `2^(3-p)` relative plus `2δ`.
    #[test]
    fn exp_with_one_exponential_encloses_both_ends() {
        for p in [53, 64, 128, 152, 300] {
            for iv in cases(p) {
                let e = iv.exp(p);
                let (lo, hi) = (down(p + 300, iv.lo.exp_ref()), up(p + 300, iv.hi.exp_ref()));
                assert!(
                    e.lo <= lo && hi <= e.hi,
                    "exp [{}, {}] at {p}: [{}, {}]",
                    iv.lo,
                    iv.hi,
                    e.lo,
                    e.hi
                );
                // Tight: e.hi ≤ exp(hi)·(1 + 2δ)·(1 + 2^(3-p)) (e.hi/exp(hi) ≤ (1 + 2δ)/e^δ,
                // plus three roundings).
                let delta = up(p + 300, &iv.hi - &iv.lo);
                if delta <= 1 && hi.is_finite() && !hi.is_zero() {
                    // (1 + 2δ)·(1 + 2^(3-p)): δ is rounded up to 64 bits inside.
                    let two_delta = up(p + 300, &delta * 2u32);
                    let grow = up(p + 300, &two_delta + 1u32);
                    let unit = Float::with_val(64, 1) >> (p - 3);
                    let rounding = up(p + 300, &unit + 1u32);
                    let bound = up(p + 300, &up(p + 300, &hi * &grow) * &rounding);
                    assert!(e.hi <= bound, "exp [{}, {}] at {p}: too wide", iv.lo, iv.hi);
                }
            }
        }
    }

    /// The one-logarithm enclosure contains `[RD(ln lo), RU(ln hi)]` at 300 more bits.
    #[test]
    fn ln_with_one_logarithm_encloses_both_ends() {
        for p in [53, 64, 128, 152, 300] {
            for iv in cases(p).into_iter().filter(|iv| iv.lo > 0) {
                let l = iv.ln(p);
                let (lo, hi) = (down(p + 300, iv.lo.ln_ref()), up(p + 300, iv.hi.ln_ref()));
                assert!(
                    l.lo <= lo && hi <= l.hi,
                    "ln [{}, {}] at {p}: [{}, {}]",
                    iv.lo,
                    iv.hi,
                    l.lo,
                    l.hi
                );
                // Tight: the upper end exceeds ln(hi) by at most (hi - lo)/lo plus a few units.
                let excess = up(p + 300, &l.hi - &hi);
                let magnitude = Float::with_val(64, hi.abs_ref());
                let unit = if magnitude > 1 {
                    magnitude >> (p - 3)
                } else {
                    Float::with_val(64, 1) >> (p - 3)
                };
                let spread = up(p + 300, &up(p + 300, &iv.hi - &iv.lo) / &iv.lo);
                let allowed = up(p + 300, &spread + &unit);
                assert!(
                    excess <= allowed,
                    "ln [{}, {}] at {p}: too wide",
                    iv.lo,
                    iv.hi
                );
                if iv.is_point() {
                    let p1 = ln_point(&iv.lo, p);
                    assert!(p1.lo == l.lo && p1.hi == l.hi);
                }
            }
        }
    }

    /// `ln(1 + x)` with one transcendental contains both ends computed at 300 more bits, and
    /// its upper end exceeds `log1p(hi)` by at most the width plus a few units; on the same
    /// cases (`x ≥ 0`) and on `[0, tiny]` (a tail below the working precision).
    #[test]
    fn ln_1p_with_one_logarithm_encloses_both_ends() {
        for p in [53, 64, 128, 152, 300] {
            let mut all = cases(p);
            all.push(Interval {
                lo: Float::with_val(p, 0),
                hi: Float::with_val(p, 1) >> 5000u32,
            });
            for iv in all.into_iter().filter(|iv| iv.lo >= 0) {
                let l = iv.ln_1p(p);
                let (lo, hi) = (
                    down(p + 300, iv.lo.ln_1p_ref()),
                    up(p + 300, iv.hi.ln_1p_ref()),
                );
                assert!(
                    l.lo <= lo && hi <= l.hi,
                    "log1p [{}, {}] at {p}: [{}, {}]",
                    iv.lo,
                    iv.hi,
                    l.lo,
                    l.hi
                );
                let excess = up(p + 300, &l.hi - &hi);
                let magnitude = Float::with_val(64, hi.abs_ref());
                let floor = Float::with_val(64, 1) >> 5000u32;
                let unit = magnitude.max(&floor) >> (p - 3);
                let allowed = up(p + 300, &up(p + 300, &iv.hi - &iv.lo) + &unit);
                assert!(
                    excess <= allowed,
                    "log1p [{}, {}] at {p}: too wide",
                    iv.lo,
                    iv.hi
                );
            }
        }
    }
}
