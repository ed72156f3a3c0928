//! Non-negative binary floats of at most 128 bits with the two MPFR operations the Taylor
//! series of `h(-x)` repeats, rounded toward −∞ exactly as MPFR rounds them: the same results,
//! bit for bit, at a fraction of the cost (no allocation, no dispatch on precision, two-limb
//! integer arithmetic).
//!
//! A [`Short`] is `m·2^(e-128)` with `m` a `u128` whose top bit is set (`2^(e-1) ≤ value < 2^e`,
//! MPFR's exponent convention and limb layout for precisions `≤ 128`), or zero (`m = 0`). For a
//! precision `p ≤ 128` the representable numbers are those with the low `128 - p` bits of `m`
//! clear. Rounding a positive real toward −∞ to `p` bits is truncation: `RD_p(v) = ⌊v/u⌋·u` with
//! `u` the unit in the last place at `v`'s exponent.
//!
//! * [`Short::mul_down`]: `RD_p(a·b)`. The 256-bit product `P = m_a·m_b` is exact; with its top
//!   128 bits `H` (shifted left once, taking the next bit, when `P < 2^255`), `⌊P/2^128⌋ = H` and
//!   masking `H` to `p` bits is `⌊·/u⌋·u` of the exact product (a floor of a floor by a power of
//!   two is the floor of the quotient).
//! * [`Short::add_down`]: `RD_p(a + b)` for `a ≥ b ≥ 0` in exponent: the smaller operand's
//!   mantissa shifted right by the exponent difference `s` (bits shifted out are dropped:
//!   `⌊m_a + m_b/2^s⌋ = m_a + ⌊m_b/2^s⌋`, `m_a` an integer), a carry out shifts once more, then
//!   the mask: again nested floors by powers of two.
//!
//! Proof note §4.1b; tested bit for bit against MPFR (`tests` below:
//! `products_match_mpfr_bit_for_bit`, `sums_match_mpfr_bit_for_bit`, `floats_round_trip`).

use rug::{Assign, Float};

/// A non-negative float `m·2^(e-128)` (`m = 0` for zero, else `m ≥ 2^127`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Short {
    m: u128,
    e: i64,
}

const TOP: u128 = 1 << 127;

/// The mask keeping the top `p` bits of a mantissa (`1 ≤ p ≤ 128`).
pub(crate) fn mask(p: u32) -> u128 {
    !0u128 << (128 - p)
}

/// The exact 256-bit product of two `u128`, as (high, low) halves.
pub(crate) fn widening_mul(a: u128, b: u128) -> (u128, u128) {
    const LOW: u128 = u64::MAX as u128;
    let (a1, a0, b1, b0) = (a >> 64, a & LOW, b >> 64, b & LOW);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // Sum of the three contributions to bits 64..128 (below 3·2^64: no overflow).
    let mid = (p00 >> 64) + (p01 & LOW) + (p10 & LOW);
    let low = (p00 & LOW) | (mid << 64);
    let high = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (high, low)
}

impl Short {
    /// Zero.
    pub const ZERO: Short = Short { m: 0, e: 0 };

    /// MPFR's exponent: `2^(e-1) ≤ value < 2^e`; `None` for zero (as
    /// [`crate::arith::mpfr::exponent`]).
    pub fn exponent(self) -> Option<i64> {
        (self.m != 0).then_some(self.e)
    }

    /// The positive number `m·2^(e-128)`, if `m ≥ 2^127` (normalized).
    pub fn from_parts(m: u128, e: i64) -> Option<Short> {
        (m & TOP != 0).then_some(Short { m, e })
    }

    /// `(m, e)`: the number is `m·2^(e-128)`.
    pub fn parts(self) -> (u128, i64) {
        (self.m, self.e)
    }

    /// The same number read from an MPFR float, if it is zero or a positive regular float of
    /// precision `≤ 128` (else `None`: negative, infinite, NaN or longer mantissas).
    pub fn from_float(x: &Float) -> Option<Short> {
        if x.is_sign_negative() && !x.is_zero() {
            return None;
        }
        Short::magnitude_of(x)
    }

    /// `|x|` read from an MPFR float, if `x` is zero or a regular float of precision `≤ 128`.
    pub fn magnitude_of(x: &Float) -> Option<Short> {
        if x.is_zero() {
            return Some(Short::ZERO);
        }
        if !x.is_normal() || x.prec() > 128 {
            return None;
        }
        // SAFETY: `x` is a regular mpfr_t of precision ≤ 128, so its limb array holds
        // ⌈prec/64⌉ ∈ {1, 2} limbs, least significant first, the top bit of the last one set.
        let (m, e) = unsafe {
            let raw = &*x.as_raw();
            let d = raw.d.as_ptr();
            let m = if raw.prec <= 64 {
                u128::from(*d) << 64
            } else {
                (u128::from(*d.add(1)) << 64) | u128::from(*d)
            };
            (m, raw.exp)
        };
        Some(Short { m, e })
    }

    /// This number as an MPFR float of precision `prec` (`prec ≤ 128`, and the number must be
    /// representable at it: the low `128 - prec` bits of the mantissa clear).
    pub fn to_float(self, prec: u32) -> Float {
        let mut f = Float::new(prec);
        self.store(&mut f);
        f
    }

    /// Writes this number into `f`, keeping `f`'s precision (`≤ 128`, and the number must be
    /// representable at it, as for [`Short::to_float`]): no allocation.
    pub fn store(self, f: &mut Float) {
        let prec = f.prec();
        debug_assert!((1..=128).contains(&prec) && self.m & !mask(prec) == 0);
        if self.m == 0 {
            f.assign(0u32);
            return;
        }
        // SAFETY: `f` is a valid mpfr_t of precision `prec ≤ 128` (⌈prec/64⌉ limbs allocated);
        // writing a normalized mantissa whose bits below the precision are clear, the positive
        // sign and an exponent inside the (widened) exponent range makes it the regular float
        // `m·2^(e-128)`, as MPFR's own setters would.
        unsafe {
            let raw = &mut *f.as_raw_mut();
            let d = raw.d.as_ptr();
            if prec <= 64 {
                *d = (self.m >> 64) as u64;
            } else {
                *d = self.m as u64;
                *d.add(1) = (self.m >> 64) as u64;
            }
            raw.sign = 1;
            raw.exp = self.e;
        }
    }

    /// `RD_p(self·o)` (`1 ≤ p ≤ 128`).
    pub fn mul_down(self, o: Short, p: u32) -> Short {
        if self.m == 0 || o.m == 0 {
            return Short::ZERO;
        }
        self.mul_down_positive(o, mask(p))
    }

    /// [`Short::mul_down`] of two positive numbers, the precision given as `keep = mask(p)`
    /// (computed once by a caller that repeats the operation): no test for zero.
    #[inline(always)]
    pub fn mul_down_positive(self, o: Short, keep: u128) -> Short {
        debug_assert!(self.m & TOP != 0 && o.m & TOP != 0);
        let (high, low) = widening_mul(self.m, o.m);
        let (m, e) = if high & TOP != 0 {
            (high, self.e + o.e)
        } else {
            ((high << 1) | (low >> 127), self.e + o.e - 1)
        };
        Short { m: m & keep, e }
    }

    /// `RD_p(self + o)` (`1 ≤ p ≤ 128`).
    pub fn add_down(self, o: Short, p: u32) -> Short {
        let (a, b) = if self.m == 0 || (o.m != 0 && o.e > self.e) {
            (o, self)
        } else {
            (self, o)
        };
        if a.m == 0 {
            return Short::ZERO;
        }
        let shift = a.e - b.e;
        let shifted = if b.m == 0 || shift >= 128 {
            0
        } else {
            b.m >> shift
        };
        let (sum, carry) = a.m.overflowing_add(shifted);
        let (m, e) = if carry {
            ((sum >> 1) | TOP, a.e + 1)
        } else {
            (sum, a.e)
        };
        Short { m: m & mask(p), e }
    }

    /// [`Short::add_down`] of two positive numbers, the precision given as `keep = mask(p)`:
    /// no test for zero. The same steps: the operand of larger exponent `a`, the other's
    /// mantissa shifted right by the exponent difference (0 past 127), a carry shifting once
    /// more, then the mask.
    #[inline(always)]
    pub fn add_down_positive(self, o: Short, keep: u128) -> Short {
        debug_assert!(self.m & TOP != 0 && o.m & TOP != 0);
        // Each order in its own branch (no selection of the operands).
        if o.e > self.e {
            Short::add_down_ordered(o, self, keep)
        } else {
            Short::add_down_ordered(self, o, keep)
        }
    }

    /// [`Short::add_down_positive`] with `a`'s exponent at least `b`'s.
    #[inline(always)]
    fn add_down_ordered(a: Short, b: Short, keep: u128) -> Short {
        let shift = (a.e - b.e) as u64;
        let shifted = if shift >= 128 { 0 } else { b.m >> shift };
        let (sum, carry) = a.m.overflowing_add(shifted);
        let (m, e) = if carry {
            ((sum >> 1) | TOP, a.e + 1)
        } else {
            (sum, a.e)
        };
        Short { m: m & keep, e }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::mpfr::{down, widen_exponent_range};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Bitwise equality of two MPFR floats: same precision, same value (zeros compared with
    /// their sign).
    fn same(a: &Float, b: &Float) -> bool {
        a.prec() == b.prec()
            && a.is_sign_negative() == b.is_sign_negative()
            && (a == b || (a.is_nan() && b.is_nan()))
    }

    /// A random positive float of precision `prec`: random mantissa bits (often runs of ones or
    /// zeros, to provoke carries and exact cases), exponent in `[-e_span, e_span]`.
    fn random_float(rng: &mut ChaCha8Rng, prec: u32, e_span: i32) -> Float {
        let bits: u128 = match rng.gen_range(0..4) {
            0 => rng.gen(),
            1 => !0u128,
            2 => TOP | (rng.gen::<u128>() >> rng.gen_range(1..128)),
            _ => !0u128 << rng.gen_range(0..128),
        } | TOP;
        let m = bits & mask(prec);
        let e = rng.gen_range(-e_span..=e_span);
        let mut f = Float::with_val(prec, 0);
        // m·2^(e-128), exactly (m has at most prec significant bits).
        let hi = Float::with_val(prec, (m >> 64) as u64) << 64u32;
        f += &hi;
        f += (m & u64::MAX as u128) as u64;
        assert_eq!(f, Float::with_val(256, &hi) + (m & u64::MAX as u128) as u64);
        if e >= 128 {
            f << (e - 128) as u32
        } else {
            f >> (128 - e) as u32
        }
    }

    fn precisions(rng: &mut ChaCha8Rng) -> u32 {
        match rng.gen_range(0..5) {
            0 => 127,
            1 => 128,
            2 => 64,
            3 => rng.gen_range(1..=128),
            _ => rng.gen_range(60..=70),
        }
    }

    /// `from_float` and `to_float` are inverse on positive floats and zero of every precision
    /// `≤ 128`, and the exponent is MPFR's.
    #[test]
    fn floats_round_trip() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..20_000 {
            let prec = precisions(&mut rng);
            let f = random_float(&mut rng, prec, 1 << 20);
            let s = Short::from_float(&f).unwrap();
            assert_eq!(s.exponent(), crate::arith::mpfr::exponent(&f));
            assert!(same(&s.to_float(prec), &f), "{f} at {prec}");
            // Written over another value (negative, other exponent) of the same precision.
            let mut g = Float::with_val(prec, -3.5);
            s.store(&mut g);
            assert!(same(&g, &f), "{f} stored at {prec}");
        }
        let mut g = Float::with_val(100, -1);
        Short::ZERO.store(&mut g);
        assert!(same(&g, &Float::new(100)), "zero stored over -1");
        let zero = Float::new(100);
        assert_eq!(Short::from_float(&zero), Some(Short::ZERO));
        assert!(same(&Short::ZERO.to_float(100), &zero));
        assert_eq!(Short::from_float(&Float::with_val(129, 1)), None);
        assert_eq!(Short::from_float(&Float::with_val(64, -1)), None);
    }

    /// `mul_down` equals MPFR's product rounded toward −∞, bit for bit, on random and
    /// adversarial operands (all-ones mantissas, single bits, mixed precisions) at random target
    /// precisions `≤ 128`, including zero operands.
    #[test]
    fn products_match_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for i in 0..200_000 {
            let (pa, pb, p) = (
                precisions(&mut rng),
                precisions(&mut rng),
                precisions(&mut rng),
            );
            let a = random_float(&mut rng, pa, 4000);
            let b = if i % 1000 == 0 {
                Float::new(pb)
            } else {
                random_float(&mut rng, pb, 4000)
            };
            let expected = down(p, &a * &b);
            let (sa, sb) = (
                Short::from_float(&a).unwrap(),
                Short::from_float(&b).unwrap(),
            );
            let got = sa.mul_down(sb, p).to_float(p);
            assert!(
                same(&got, &expected),
                "{a} × {b} at {p}: {got} ≠ {expected}"
            );
            if !b.is_zero() {
                let got = sa.mul_down_positive(sb, mask(p)).to_float(p);
                assert!(
                    same(&got, &expected),
                    "{a} × {b} at {p} (positive): {got} ≠ {expected}"
                );
            }
        }
    }

    /// `add_down` equals MPFR's sum rounded toward −∞, bit for bit: operands of random and
    /// equal exponents, exponent gaps across 0..260 (every shift of the smaller mantissa, and
    /// past the end), carries (all-ones mantissas), zero operands, both orders.
    #[test]
    fn sums_match_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for i in 0..200_000 {
            let (pa, pb, p) = (
                precisions(&mut rng),
                precisions(&mut rng),
                precisions(&mut rng),
            );
            let a = random_float(&mut rng, pa, 8);
            let b = match i % 3 {
                0 => random_float(&mut rng, pb, 8),
                _ => {
                    let gap = rng.gen_range(0..260u32);
                    Float::with_val(pb, &random_float(&mut rng, pb, 0) >> gap) << 8u32
                }
            };
            let b = if i % 997 == 0 { Float::new(pb) } else { b };
            let a = if i % 991 == 0 { Float::new(pa) } else { a };
            for (x, y) in [(&a, &b), (&b, &a)] {
                let expected = down(p, x + y);
                let (sx, sy) = (Short::from_float(x).unwrap(), Short::from_float(y).unwrap());
                let got = sx.add_down(sy, p).to_float(p);
                assert!(
                    same(&got, &expected),
                    "{x} + {y} at {p}: {got} ≠ {expected}"
                );
                if !x.is_zero() && !y.is_zero() {
                    let got = sx.add_down_positive(sy, mask(p)).to_float(p);
                    assert!(
                        same(&got, &expected),
                        "{x} + {y} at {p} (positive): {got} ≠ {expected}"
                    );
                }
            }
        }
    }
}
