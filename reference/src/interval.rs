//! Interval arithmetic on MPFR floats with directed rounding.
//!
//! Every operation returns `[lo, hi]` with `lo` rounded toward −∞ and `hi` toward +∞, so the
//! exact result of the operation on any points of the operand intervals lies inside. MPFR's
//! functions are correctly rounded in the requested direction, which makes each bound rigorous.

use rug::float::{Constant, Round};
use rug::ops::AssignRound;
use rug::Float;
use std::cmp::Ordering;

/// Closed interval `[lo, hi]` of extended reals (`lo ≤ hi`).
#[derive(Clone, Debug)]
pub(crate) struct Interval {
    pub lo: Float,
    pub hi: Float,
}

/// `val` rounded toward −∞ at `prec` bits.
pub(crate) fn down<T>(prec: u32, val: T) -> Float
where
    Float: AssignRound<T, Round = Round, Ordering = Ordering>,
{
    Float::with_val_round(prec, val, Round::Down).0
}

/// `val` rounded toward +∞ at `prec` bits.
pub(crate) fn up<T>(prec: u32, val: T) -> Float
where
    Float: AssignRound<T, Round = Round, Ordering = Ordering>,
{
    Float::with_val_round(prec, val, Round::Up).0
}

/// Widens MPFR's exponent range (per-thread state) to its maximum, so that values such as
/// `φ(1e8) = exp(-5e15)` neither underflow nor overflow. Idempotent and cheap.
pub(crate) fn widen_exponent_range() {
    use gmp_mpfr_sys::mpfr;
    // SAFETY: these calls only read/write MPFR's thread-local exponent bounds; every Float
    // in this crate is created after the call, so none is outside the new (wider) range.
    unsafe {
        let (emin, emax) = (mpfr::get_emin_min(), mpfr::get_emax_max());
        if mpfr::get_emin() != emin {
            mpfr::set_emin(emin);
        }
        if mpfr::get_emax() != emax {
            mpfr::set_emax(emax);
        }
    }
}

/// Binary exponent `e` of a regular (finite, non-zero) float, `2^(e-1) ≤ |x| < 2^e`.
/// Read from MPFR directly: rug's `get_exp` is limited to `i32`.
pub(crate) fn exponent(x: &Float) -> Option<i64> {
    if x.is_normal() {
        // SAFETY: `x` is a valid, initialised mpfr_t.
        Some(unsafe { gmp_mpfr_sys::mpfr::get_exp(x.as_raw()) } as i64)
    } else {
        None
    }
}

/// `log2 |x|` to within one unit, for precision heuristics (0 for zero / non-finite).
pub(crate) fn log2_abs(x: &Float) -> i64 {
    exponent(x).unwrap_or(0)
}

/// The exact sum of `terms`, with a precision large enough that no rounding occurs.
pub(crate) fn exact_sum(terms: &[&Float]) -> Float {
    let mut top = i64::MIN;
    let mut bottom = i64::MAX;
    for t in terms {
        if let Some(e) = exponent(t) {
            top = top.max(e);
            bottom = bottom.min(e - i64::from(t.prec()));
        }
    }
    let prec = if top == i64::MIN {
        64
    } else {
        // Every term is a multiple of 2^bottom and the sum is below terms.len()·2^top.
        let span = top - bottom + 2 + 64 - (terms.len() as u64).leading_zeros() as i64;
        // Callers sum doubles, midpoints of doubles, costs and bisection points of magnitude
        // above 2^-1200 (`pbgi.rs`), so the span stays near 2^12 bits; a larger one would not
        // be exact.
        debug_assert!(span <= 1 << 16, "exact_sum over a {span}-bit span");
        u32::try_from(span.max(64)).unwrap_or(u32::MAX)
    };
    crate::work::exact(prec);
    let mut sum = Float::with_val(prec.min(rug::float::prec_max()), 0);
    for t in terms {
        sum += *t;
    }
    sum
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

    /// `exp` is increasing.
    pub fn exp(&self, p: u32) -> Interval {
        Interval {
            lo: down(p, self.lo.exp_ref()),
            hi: up(p, self.hi.exp_ref()),
        }
    }

    /// `ln` is increasing; a lower end ≤ 0 gives `-inf` (or NaN, never certified) there.
    pub fn ln(&self, p: u32) -> Interval {
        let lo = if self.lo.is_sign_negative() || self.lo.is_zero() {
            Float::with_val(p, f64::NEG_INFINITY)
        } else {
            down(p, self.lo.ln_ref())
        };
        Interval {
            lo,
            hi: up(p, self.hi.ln_ref()),
        }
    }
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
