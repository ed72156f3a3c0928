//! The MPFR primitives every other module of `arith` builds on: MPFR's exponent range widened
//! to its maximum (with the cache of limb blocks installed), a float's binary exponent, and one
//! value rounded toward −∞ or +∞.

use rug::float::Round;
use rug::ops::AssignRound;
use rug::Float;
use std::cmp::Ordering;

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
/// `φ(1e8) = exp(-5e15)` neither underflow nor overflow. Idempotent and cheap. Every certified
/// entry point calls it first, so it also installs the cache of MPFR's limb blocks
/// (`limb_memory.rs`, once per process).
pub fn widen_exponent_range() {
    use gmp_mpfr_sys::mpfr;
    crate::arith::limb_memory::install();
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
