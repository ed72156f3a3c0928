//! Non-negative binary floats of at most 192 bits with the MPFR operations the Taylor form of
//! `h(-x)` performs around its loop (products, sums, differences, quotients, rounding to a
//! shorter precision), each rounded toward −∞ or +∞ exactly as MPFR rounds it: the same results,
//! bit for bit, without allocation (three-limb integer arithmetic).
//!
//! A [`Wide`] is `m·2^(e-192)` with `m` a 192-bit integer (three limbs, least significant first)
//! whose top bit is set (`2^(e-1) ≤ value < 2^e`, MPFR's exponent convention and limb layout for
//! precisions `≤ 192`), or zero (`m = 0`). For a precision `p ≤ 192` the representable numbers are
//! those with the low `192 - p` bits of `m` clear.
//!
//! Every operation forms its exact result as `(M + g)·2^(e-192)`: `M` a normalized 192-bit
//! window (top bit set) and `0 ≤ g < 1` known only by whether it is zero (the bits below the
//! window, "sticky"), and rounds it with [`finish`]: with `u = 2^(192-p)` (the last place of `p`
//! bits, `u ≥ 1`), `RD_p = ⌊(M + g)/u⌋·u = ⌊M/u⌋·u` (mask) and
//! `RU_p = ⌈(M + g)/u⌉·u = (⌊M/u⌋ + [M mod u ≠ 0 or g ≠ 0])·u` (mask and carry; a carry out of
//! 192 bits is the next power of two). `M + g` has `M`'s exponent (`M + g < M + 1 ≤ 2^192`). A
//! correctly rounded result is unique, so it is MPFR's:
//!
//! * [`Wide::mul`]: the exact 384-bit product of the mantissas, `≥ 2^382`; its top 192 bits (or
//!   the 192 below its top bit) are `M`, the rest `g`.
//! * [`Wide::add`] (larger exponent first, `s` the exponent difference): `A·2^64 + ⌊B·2^(64-s)⌋`
//!   in four limbs, the bits of `B` shifted out making `f ≠ 0` (`B·2^(64-s) = ⌊·⌋ + f`); then
//!   normalized by [`from_exact`].
//! * [`Wide::sub`] (`a > b`): `A·2^64 - ⌊B·2^(64-s)⌋ - [f ≠ 0]`, plus `1 - f ∈ (0, 1)` when
//!   `f ≠ 0`. Bits are shifted out only for `s > 64`, where the difference exceeds
//!   `2^255 - 2^192`: whatever `f` is, it lies below the window.
//! * [`Wide::div`]: `⌊A·2^128/B⌋` (`⌊A·2^192/B⌋` for `p > 128`),
//!   at least `2^127` (`2^191`: at least `p` bits), by schoolbook division with 64-bit digits (each estimated from
//!   the divisor's top limb and corrected, Knuth's algorithm D), `f ≠ 0` iff the remainder is not
//!   zero.
//! * [`Wide::round`]: `M` the mantissa itself, `g = 0`.
//!
//! [`from_exact`] normalizes a 256-bit integer `N` plus `f ∈ [0, 1)`, `f ≠ 0` only where `N`
//! has at least `p` bits: shifted left by its leading zeros `z`, the top three limbs are `M`, and
//! `f·2^z < 2^z` lies below the last place (`z ≤ 256 - p`) with the shifted bits below `2^z`
//! clear, so the rounding of `M` plus "bits below" is that of the exact value.
//!
//! Proof note §4.1b and §9b; tested bit for bit against MPFR (`tests` below:
//! `products_match_mpfr_bit_for_bit`, `sums_and_differences_match_mpfr_bit_for_bit`,
//! `quotients_match_mpfr_bit_for_bit`, `roundings_match_mpfr_bit_for_bit`,
//! `conversions_round_trip`).

use crate::arith::short_float::{widening_mul, Short};
use rug::{Assign, Float};
use std::cmp::Ordering;

/// The direction of a rounding: toward −∞ or toward +∞.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Down,
    Up,
}

/// A non-negative float `m·2^(e-192)` (`m = 0` for zero, else `m ≥ 2^191`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wide {
    m: [u64; 3],
    e: i64,
}

const TOP: u64 = 1 << 63;

/// `RD_p` or `RU_p` of `(M + g)·2^(e-192)` (`M` = `m` with its top bit set, `0 ≤ g < 1`,
/// `g ≠ 0` iff `below`), `1 ≤ p ≤ 192`.
fn finish(m: [u64; 3], below: bool, e: i64, p: u32, dir: Direction) -> Wide {
    debug_assert!((1..=192).contains(&p) && m[2] & TOP != 0);
    let (mut high, mut low) = ((u128::from(m[2]) << 64) | u128::from(m[1]), m[0]);
    let cut = 192 - p;
    let carry = if cut < 64 {
        let mask = (1u64 << cut) - 1;
        let dropped = below || low & mask != 0;
        low &= !mask;
        if dir == Direction::Up && dropped {
            let (v, c) = low.overflowing_add(1 << cut);
            low = v;
            let (h, c2) = high.overflowing_add(u128::from(c));
            high = h;
            c2
        } else {
            false
        }
    } else {
        let mask = (1u128 << (cut - 64)) - 1;
        let dropped = below || low != 0 || high & mask != 0;
        low = 0;
        high &= !mask;
        if dir == Direction::Up && dropped {
            let (h, c) = high.overflowing_add(1 << (cut - 64));
            high = h;
            c
        } else {
            false
        }
    };
    if carry {
        return Wide {
            m: [0, 0, TOP],
            e: e + 1,
        };
    }
    Wide {
        m: [low, high as u64, (high >> 64) as u64],
        e,
    }
}

/// The masks keeping the top `p` bits of a mantissa `[m0, m1, m2]` (`1 ≤ p ≤ 192`), as
/// (the mask of `m0`, the mask of `m2·2^64 + m1`): what [`finish`] keeps when it rounds down.
pub(crate) fn keep_masks(p: u32) -> (u64, u128) {
    debug_assert!((1..=192).contains(&p));
    let cut = 192 - p;
    if cut < 64 {
        (!0u64 << cut, !0u128)
    } else {
        (0, !0u128 << (cut - 64))
    }
}

/// [`finish`] toward −∞ with the masks of [`keep_masks`]: the bits below the window and below
/// the last place are dropped, nothing is added.
#[inline(always)]
fn finish_down(m: [u64; 3], e: i64, keep: (u64, u128)) -> Wide {
    let high = ((u128::from(m[2]) << 64) | u128::from(m[1])) & keep.1;
    Wide {
        m: [m[0] & keep.0, high as u64, (high >> 64) as u64],
        e,
    }
}

/// A 256-bit integer as (high, low) halves.
type U256 = (u128, u128);

/// `RD_p` or `RU_p` of `(N + f)·2^e0` (`N` the 256-bit integer `n`, `0 ≤ f < 1`, `f ≠ 0` iff
/// `sticky`, which only where `N` has at least `p` bits), `1 ≤ p ≤ 192`.
fn from_exact(n: U256, sticky: bool, e0: i64, p: u32, dir: Direction) -> Wide {
    let (hi, lo) = n;
    let zeros = if hi != 0 {
        hi.leading_zeros()
    } else if lo != 0 {
        128 + lo.leading_zeros()
    } else {
        debug_assert!(!sticky);
        return Wide::ZERO;
    };
    debug_assert!(!sticky || 256 - zeros >= p);
    // N·2^zeros: its top bit at 255.
    let (hi, lo) = match zeros {
        0 => (hi, lo),
        1..=127 => ((hi << zeros) | (lo >> (128 - zeros)), lo << zeros),
        _ => (lo << (zeros - 128), 0),
    };
    finish(
        [(lo >> 64) as u64, hi as u64, (hi >> 64) as u64],
        lo as u64 != 0 || sticky,
        e0 + 256 - i64::from(zeros),
        p,
        dir,
    )
}

/// `⌊n/2^k⌋` (`k ≥ 0`) and whether bits were shifted out (`n/2^k` not an integer).
fn shift_right(n: U256, k: i64) -> (U256, bool) {
    let (hi, lo) = n;
    match k {
        0 => (n, false),
        1..=127 => (
            (hi >> k, (lo >> k) | (hi << (128 - k))),
            lo << (128 - k) != 0,
        ),
        128 => ((0, hi), lo != 0),
        129..=255 => ((0, hi >> (k - 128)), lo != 0 || hi << (256 - k) != 0),
        _ => ((0, 0), hi != 0 || lo != 0),
    }
}

/// Adds `2^bit` to `m` (`bit < 192`); whether it carries out of 192 bits.
fn increment_at(m: &mut [u64; 3], bit: u32) -> bool {
    let (mut i, mut add) = ((bit / 64) as usize, 1u64 << (bit % 64));
    while i < 3 {
        let (v, carry) = m[i].overflowing_add(add);
        m[i] = v;
        if !carry {
            return false;
        }
        add = 1;
        i += 1;
    }
    true
}

impl Wide {
    /// Zero.
    pub const ZERO: Wide = Wide { m: [0; 3], e: 0 };
    /// One.
    pub const ONE: Wide = Wide {
        m: [0, 0, TOP],
        e: 1,
    };

    pub fn is_zero(self) -> bool {
        self.m[2] == 0
    }

    /// MPFR's exponent: `2^(e-1) ≤ value < 2^e`; `None` for zero.
    pub fn exponent(self) -> Option<i64> {
        (!self.is_zero()).then_some(self.e)
    }

    /// `(m, e)`: the number is `m·2^(e-192)`, `m` least significant limb first.
    pub fn limbs(self) -> ([u64; 3], i64) {
        (self.m, self.e)
    }

    /// `self·2^k`, exactly.
    pub fn times_pow2(self, k: i64) -> Wide {
        if self.is_zero() {
            self
        } else {
            Wide {
                m: self.m,
                e: self.e + k,
            }
        }
    }

    /// `1 + 2^(1-p)`, the float just above 1 at precision `p` (`1 ≤ p ≤ 192`).
    pub fn one_plus_ulp(p: u32) -> Wide {
        Wide::ONE.next_up(p)
    }

    /// The same number read from an MPFR float, if it is zero or a positive regular float of
    /// precision `≤ 192` (else `None`: negative, infinite, NaN or longer mantissas).
    pub fn from_float(x: &Float) -> Option<Wide> {
        if x.is_sign_negative() && !x.is_zero() {
            return None;
        }
        Wide::magnitude_of(x)
    }

    /// `|x|` read from an MPFR float, if `x` is zero or a regular float of precision `≤ 192`.
    pub fn magnitude_of(x: &Float) -> Option<Wide> {
        if x.is_zero() {
            return Some(Wide::ZERO);
        }
        if !x.is_normal() || x.prec() > 192 {
            return None;
        }
        // SAFETY: `x` is a regular mpfr_t of precision ≤ 192, so its limb array holds
        // ⌈prec/64⌉ ∈ {1, 2, 3} limbs, least significant first, the top bit of the last one set.
        unsafe {
            let raw = &*x.as_raw();
            let n = (raw.prec as usize).div_ceil(64);
            let d = raw.d.as_ptr();
            let mut m = [0u64; 3];
            for k in 0..n {
                m[3 - n + k] = *d.add(k);
            }
            Some(Wide { m, e: raw.exp })
        }
    }

    /// This number as an MPFR float of precision `prec` (`prec ≤ 192`, and the number must be
    /// representable at it: the low `192 - prec` bits of the mantissa clear).
    pub fn to_float(self, prec: u32) -> Float {
        let mut f = Float::new(prec);
        self.store(&mut f);
        f
    }

    /// Writes this number into `f`, keeping `f`'s precision (`≤ 192`, the number representable
    /// at it, as for [`Wide::to_float`]): no allocation.
    pub fn store(self, f: &mut Float) {
        let prec = f.prec();
        debug_assert!((1..=192).contains(&prec) && self.round(prec, Direction::Down) == self);
        if self.is_zero() {
            f.assign(0u32);
            return;
        }
        // SAFETY: `f` is a valid mpfr_t of precision `prec ≤ 192` (⌈prec/64⌉ limbs allocated);
        // writing a normalized mantissa whose bits below the precision are clear, the positive
        // sign and an exponent inside the (widened) exponent range makes it the regular float
        // `m·2^(e-192)`, as MPFR's own setters would.
        unsafe {
            let raw = &mut *f.as_raw_mut();
            let n = (prec as usize).div_ceil(64);
            let d = raw.d.as_ptr();
            for k in 0..n {
                *d.add(k) = self.m[3 - n + k];
            }
            raw.sign = 1;
            raw.exp = self.e;
        }
    }

    /// `RD_p(n·2^e0)` or `RU_p(n·2^e0)` for a 192-bit integer `n` (limbs least significant
    /// first), `1 ≤ p ≤ 192`.
    pub fn from_integer(n: [u64; 3], e0: i64, p: u32, dir: Direction) -> Wide {
        let n = (
            u128::from(n[2]),
            (u128::from(n[1]) << 64) | u128::from(n[0]),
        );
        from_exact(n, false, e0, p, dir)
    }

    /// `|x|` for a finite f64 `x`, exactly.
    pub fn from_f64_magnitude(x: f64) -> Wide {
        let bits = x.to_bits();
        let (biased, fraction) = ((bits >> 52) & 0x7ff, bits & ((1 << 52) - 1));
        // |x| = m·2^q: m with the hidden bit for normal numbers, the fraction for subnormals.
        let (m, q) = if biased == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1 << 52), biased as i64 - 1075)
        };
        if m == 0 {
            return Wide::ZERO;
        }
        // m·2^zeros has its top bit at 63: |x| = (m·2^zeros·2^128)·2^(q - zeros + 64 - 192).
        let zeros = m.leading_zeros();
        Wide {
            m: [0, 0, m << zeros],
            e: q - i64::from(zeros) + 64,
        }
    }

    /// The same number as a [`Short`].
    pub fn from_short(s: Short) -> Wide {
        let (m, e) = s.parts();
        Wide {
            m: [0, m as u64, (m >> 64) as u64],
            e,
        }
    }

    /// The same number as a [`Short`], if its mantissa fits in 128 bits.
    pub fn to_short(self) -> Option<Short> {
        if self.is_zero() {
            return Some(Short::ZERO);
        }
        if self.m[0] != 0 {
            return None;
        }
        Short::from_parts(
            (u128::from(self.m[2]) << 64) | u128::from(self.m[1]),
            self.e,
        )
    }

    /// `RD_p(self)` or `RU_p(self)` (`1 ≤ p ≤ 192`).
    pub fn round(self, p: u32, dir: Direction) -> Wide {
        if self.is_zero() {
            return self;
        }
        finish(self.m, false, self.e, p, dir)
    }

    /// The next float above `self` at precision `p` (`self > 0` representable at `p`).
    pub fn next_up(self, p: u32) -> Wide {
        debug_assert!(!self.is_zero());
        let mut m = self.m;
        if increment_at(&mut m, 192 - p) {
            Wide {
                m: [0, 0, TOP],
                e: self.e + 1,
            }
        } else {
            Wide { m, e: self.e }
        }
    }

    /// `self·o` rounded to `p` bits in direction `dir` (`1 ≤ p ≤ 192`).
    pub fn mul(self, o: Wide, p: u32, dir: Direction) -> Wide {
        if self.is_zero() || o.is_zero() {
            return Wide::ZERO;
        }
        let mut prod = [0u64; 6];
        if self.m[0] == 0 && o.m[0] == 0 {
            // Both mantissas within 128 bits: one 256-bit product.
            let (high, low) = widening_mul(
                self.short_mantissa_unchecked(),
                o.short_mantissa_unchecked(),
            );
            prod = [
                0,
                0,
                low as u64,
                (low >> 64) as u64,
                high as u64,
                (high >> 64) as u64,
            ];
        } else {
            for i in 0..3 {
                let mut carry = 0u128;
                for j in 0..3 {
                    let v = u128::from(self.m[i]) * u128::from(o.m[j])
                        + u128::from(prod[i + j])
                        + carry;
                    prod[i + j] = v as u64;
                    carry = v >> 64;
                }
                prod[i + 3] = carry as u64;
            }
        }
        // The product is at least 2^382: its top bit is bit 383 or 382.
        let e = self.e + o.e;
        if prod[5] & TOP != 0 {
            let below = prod[0] | prod[1] | prod[2] != 0;
            finish([prod[3], prod[4], prod[5]], below, e, p, dir)
        } else {
            let m = [
                (prod[3] << 1) | (prod[2] >> 63),
                (prod[4] << 1) | (prod[3] >> 63),
                (prod[5] << 1) | (prod[4] >> 63),
            ];
            let below = (prod[2] << 1) | prod[1] | prod[0] != 0;
            finish(m, below, e - 1, p, dir)
        }
    }

    /// The mantissa's top two limbs as `u128`.
    fn short_mantissa_unchecked(self) -> u128 {
        (u128::from(self.m[2]) << 64) | u128::from(self.m[1])
    }

    /// The mantissa times `2^64` as a 256-bit integer.
    fn as_u256(self) -> U256 {
        (self.short_mantissa_unchecked(), u128::from(self.m[0]) << 64)
    }

    /// `A·2^64` and `⌊B·2^(64-s)⌋` (`s = a.e - b.e ≥ 0`) as 256-bit integers, and whether bits
    /// of `B` were shifted out; both operands non-zero.
    fn aligned(a: Wide, b: Wide) -> (U256, U256, bool) {
        let (small, lost) = shift_right(b.as_u256(), a.e - b.e);
        (a.as_u256(), small, lost)
    }

    /// MPFR's exponent of a positive number (`2^(e-1) ≤ value < 2^e`; meaningless for zero).
    #[inline(always)]
    pub fn exponent_positive(self) -> i64 {
        self.e
    }

    /// [`Wide::mul`] toward −∞ of two positive numbers, the precision given as
    /// `keep = keep_masks(p)` (formed once by a caller that repeats the operation): the same
    /// exact product and window, no test for zero and no flag for the bits below it (rounding
    /// down drops them).
    #[inline(always)]
    pub fn mul_down_positive(self, o: Wide, keep: (u64, u128)) -> Wide {
        debug_assert!(self.m[2] & TOP != 0 && o.m[2] & TOP != 0);
        let mut prod = [0u64; 6];
        for i in 0..3 {
            let mut carry = 0u128;
            for j in 0..3 {
                let v =
                    u128::from(self.m[i]) * u128::from(o.m[j]) + u128::from(prod[i + j]) + carry;
                prod[i + j] = v as u64;
                carry = v >> 64;
            }
            prod[i + 3] = carry as u64;
        }
        let e = self.e + o.e;
        if prod[5] & TOP != 0 {
            finish_down([prod[3], prod[4], prod[5]], e, keep)
        } else {
            let m = [
                (prod[3] << 1) | (prod[2] >> 63),
                (prod[4] << 1) | (prod[3] >> 63),
                (prod[5] << 1) | (prod[4] >> 63),
            ];
            finish_down(m, e - 1, keep)
        }
    }

    /// [`Wide::add`] toward −∞ of two positive numbers, the precision given as
    /// `keep = keep_masks(p)`: the same aligned sum and window, no test for zero and no flag for
    /// the bits below it.
    #[inline(always)]
    pub fn add_down_positive(self, o: Wide, keep: (u64, u128)) -> Wide {
        debug_assert!(self.m[2] & TOP != 0 && o.m[2] & TOP != 0);
        let (a, b) = if o.e > self.e { (o, self) } else { (self, o) };
        let ((a_hi, a_lo), (b_hi, b_lo), _) = Wide::aligned(a, b);
        let (lo, c) = a_lo.overflowing_add(b_lo);
        let (hi, c1) = a_hi.overflowing_add(b_hi);
        let (hi, c2) = hi.overflowing_add(u128::from(c));
        if c1 || c2 {
            let (hi, lo) = ((hi >> 1) | (1 << 127), (lo >> 1) | (hi << 127));
            let m = [(lo >> 64) as u64, hi as u64, (hi >> 64) as u64];
            return finish_down(m, a.e + 1, keep);
        }
        let m = [(lo >> 64) as u64, hi as u64, (hi >> 64) as u64];
        finish_down(m, a.e, keep)
    }

    /// `self + o` rounded to `p` bits in direction `dir` (`1 ≤ p ≤ 192`).
    pub fn add(self, o: Wide, p: u32, dir: Direction) -> Wide {
        let (a, b) = if self.is_zero() || (!o.is_zero() && o.e > self.e) {
            (o, self)
        } else {
            (self, o)
        };
        if b.is_zero() {
            return a.round(p, dir);
        }
        let ((a_hi, a_lo), (b_hi, b_lo), sticky) = Wide::aligned(a, b);
        let (lo, c) = a_lo.overflowing_add(b_lo);
        let (hi, c1) = a_hi.overflowing_add(b_hi);
        let (hi, c2) = hi.overflowing_add(u128::from(c));
        if c1 || c2 {
            // 2^256 + sum: one bit more, the lowest one joining the bits below the window.
            let (hi, lo, out) = ((hi >> 1) | (1 << 127), (lo >> 1) | (hi << 127), lo & 1);
            let below = lo as u64 != 0 || out != 0 || sticky;
            let m = [(lo >> 64) as u64, hi as u64, (hi >> 64) as u64];
            return finish(m, below, a.e + 1, p, dir);
        }
        // The sum's top bit is A's (bit 255).
        let m = [(lo >> 64) as u64, hi as u64, (hi >> 64) as u64];
        finish(m, lo as u64 != 0 || sticky, a.e, p, dir)
    }

    /// `self - o` rounded to `p` bits in direction `dir` (`1 ≤ p ≤ 192`), if `self > o` (else
    /// `None`: the difference is not positive).
    pub fn sub(self, o: Wide, p: u32, dir: Direction) -> Option<Wide> {
        if self <= o {
            return None;
        }
        if o.is_zero() {
            return Some(self.round(p, dir));
        }
        let ((a_hi, a_lo), (b_hi, b_lo), sticky) = Wide::aligned(self, o);
        // A - ⌊B⌋ - [f ≠ 0], positive.
        let (lo, c) = a_lo.overflowing_sub(b_lo);
        let (lo, c1) = lo.overflowing_sub(u128::from(sticky));
        let hi = a_hi - b_hi - u128::from(c || c1);
        Some(from_exact((hi, lo), sticky, self.e - 256, p, dir))
    }

    /// `self/o` rounded to `p` bits in direction `dir` (`1 ≤ p ≤ 192`), `None` for `o = 0`.
    pub fn div(self, o: Wide, p: u32, dir: Direction) -> Option<Wide> {
        if self.is_zero() && !o.is_zero() {
            return Some(Wide::ZERO);
        }
        let (n, sticky, e0) = self.quotient(o, p)?;
        Some(from_exact(n, sticky, e0, p, dir))
    }

    /// `(RD_p(self/o), RU_p(self/o))` from one division (`1 ≤ p ≤ 192`), `None` for `o = 0`.
    pub fn div_both(self, o: Wide, p: u32) -> Option<(Wide, Wide)> {
        if self.is_zero() && !o.is_zero() {
            return Some((Wide::ZERO, Wide::ZERO));
        }
        let (n, sticky, e0) = self.quotient(o, p)?;
        Some((
            from_exact(n, sticky, e0, p, Direction::Down),
            from_exact(n, sticky, e0, p, Direction::Up),
        ))
    }

    /// The quotient of non-zero `self` and `o` as `(N, f ≠ 0, e0)`, `self/o = (N + f)·2^e0` with
    /// `N` of at least `p` bits (`None` for a zero operand).
    fn quotient(self, o: Wide, p: u32) -> Option<(U256, bool, i64)> {
        if o.is_zero() || self.is_zero() {
            return None;
        }
        let as_192 = |w: Wide| {
            (
                u128::from(w.m[2]),
                (u128::from(w.m[1]) << 64) | u128::from(w.m[0]),
            )
        };
        let (a, b) = (as_192(self), as_192(o));
        // A·2^128/B = [A ≥ B]·2^128 + R·2^128/B with R = A mod B < B (A < 2B).
        let (top, r) = if a >= b {
            (1u128, sub_256(a, b))
        } else {
            (0, a)
        };
        let (d1, r) = divide_digit(r, b);
        let (d0, r) = divide_digit(r, b);
        if p <= 128 {
            // ⌊A·2^128/B⌋ ≥ 2^127 has at least p bits.
            let n = (top, (u128::from(d1) << 64) | u128::from(d0));
            return Some((n, r != (0, 0), self.e - o.e - 128));
        }
        // One more digit: ⌊A·2^192/B⌋ ≥ 2^191 fills the window.
        let (d, r) = divide_digit(r, b);
        let n = (
            (top << 64) | u128::from(d1),
            (u128::from(d0) << 64) | u128::from(d),
        );
        Some((n, r != (0, 0), self.e - o.e - 192))
    }

    /// `self` rounded to the nearest f64 (ties to even, MPFR's `get_d` in round-to-nearest), if
    /// that is a normal f64 (else `None`).
    pub fn to_f64_nearest(self) -> Option<f64> {
        if self.is_zero() {
            return Some(0.0);
        }
        // The top 53 bits, the next one (half a unit) and whether anything below it is set.
        let mut top = self.m[2] >> 11;
        let half = self.m[2] & (1 << 10) != 0;
        let rest = self.m[2] & ((1 << 10) - 1) != 0 || self.m[1] != 0 || self.m[0] != 0;
        let mut e = self.e;
        if half && (rest || top & 1 != 0) {
            top += 1;
            if top == 1 << 53 {
                top = 1 << 52;
                e += 1;
            }
        }
        let biased = e - 1 + 1023;
        if !(1..=2046).contains(&biased) {
            return None;
        }
        Some(f64::from_bits(
            ((biased as u64) << 52) | (top & ((1 << 52) - 1)),
        ))
    }

    /// `RU_53(self)` as an f64, if it is a normal f64 (else `None`).
    pub fn to_f64_up(self) -> Option<f64> {
        if self.is_zero() {
            return Some(0.0);
        }
        let r = self.round(53, Direction::Up);
        let biased = r.e - 1 + 1023;
        if !(1..=2046).contains(&biased) {
            return None;
        }
        let fraction = (r.m[2] >> 11) & ((1 << 52) - 1);
        Some(f64::from_bits(((biased as u64) << 52) | fraction))
    }
}

/// `a - b` (`a ≥ b`).
fn sub_256(a: U256, b: U256) -> U256 {
    let (lo, borrow) = a.1.overflowing_sub(b.1);
    (a.0 - b.0 - u128::from(borrow), lo)
}

/// `(⌊r·2^64/b⌋, r·2^64 mod b)` for 192-bit `r < b`, `b ≥ 2^191` (one digit of schoolbook
/// division: the estimate from the top two limbs of `r·2^64` and the divisor's top limb is at
/// most 2 above the digit, Knuth's theorem B, and is corrected against the whole divisor).
fn divide_digit(r: U256, b: U256) -> (u64, U256) {
    let num = ((r.0 << 64) | (r.1 >> 64), r.1 << 64);
    let (b2, b1, b0) = (b.0 as u64, (b.1 >> 64) as u64, b.1 as u64);
    let mut q = if r.0 as u64 >= b2 {
        u64::MAX
    } else {
        (num.0 / u128::from(b2)) as u64
    };
    let t0 = u128::from(q) * u128::from(b0);
    let t1 = u128::from(q) * u128::from(b1) + (t0 >> 64);
    let t2 = u128::from(q) * u128::from(b2) + (t1 >> 64);
    let mut prod = (t2, (t1 << 64) | (t0 & u128::from(u64::MAX)));
    while prod > num {
        q -= 1;
        prod = sub_256(prod, b);
    }
    (q, sub_256(num, prod))
}

impl PartialOrd for Wide {
    fn partial_cmp(&self, o: &Wide) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Wide {
    /// The order of the numbers (non-negative: zero first, then by exponent, then mantissa).
    fn cmp(&self, o: &Wide) -> Ordering {
        match (self.is_zero(), o.is_zero()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.e.cmp(&o.e).then(
                (self.short_mantissa_unchecked(), self.m[0])
                    .cmp(&(o.short_mantissa_unchecked(), o.m[0])),
            ),
        }
    }
}

/// `x.to_f64()` (round to nearest, ties to even) from the three-limb form of `|x|`
/// ([`Wide::to_f64_nearest`], the same double) where `x` has at most 192 bits and rounds to a
/// normal double or zero; `None` otherwise. Rounding to nearest is symmetric, so the sign is
/// applied after.
pub(crate) fn nearest_f64(x: &Float) -> Option<f64> {
    let v = Wide::magnitude_of(x)?.to_f64_nearest()?;
    Some(if x.is_sign_negative() { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::mpfr::{down, up, widen_exponent_range};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rug::float::Round;

    /// Clears the bits of `m` below bit `cut` (`cut < 192`).
    fn clear_below(m: &mut [u64; 3], cut: u32) {
        for (i, limb) in m.iter_mut().enumerate() {
            let start = 64 * i as u32;
            if start + 64 <= cut {
                *limb = 0;
            } else if start < cut {
                *limb &= !0u64 << (cut - start);
            }
        }
    }

    /// Bitwise equality of two MPFR floats: same precision, same value and sign.
    fn same(a: &Float, b: &Float) -> bool {
        a.prec() == b.prec() && a.is_sign_negative() == b.is_sign_negative() && a == b
    }

    /// A random positive float of precision `prec`: random mantissa bits (often runs of ones or
    /// zeros, to provoke carries, exact cases and powers of two), exponent in `[-e_span, e_span]`.
    fn random_float(rng: &mut ChaCha8Rng, prec: u32, e_span: i64) -> Float {
        let mut m = [0u64; 3];
        match rng.gen_range(0..5) {
            0 => m = [rng.gen(), rng.gen(), rng.gen()],
            1 => m = [!0; 3],
            2 => m[2] = TOP,
            3 => {
                m = [
                    0,
                    rng.gen::<u64>() >> rng.gen_range(0..64),
                    rng.gen::<u64>() >> rng.gen_range(1..64),
                ]
            }
            _ => {
                let ones = rng.gen_range(1..192);
                m = [!0; 3];
                clear_below(&mut m, 192 - ones);
            }
        }
        m[2] |= TOP;
        clear_below(&mut m, 192 - prec);
        let e = rng.gen_range(-e_span..=e_span);
        Wide { m, e }.to_float(prec)
    }

    fn precisions(rng: &mut ChaCha8Rng) -> u32 {
        match rng.gen_range(0..6) {
            0 => 127,
            1 => 128,
            2 => 192,
            3 => 64,
            4 => rng.gen_range(1..=192),
            _ => rng.gen_range(125..=160),
        }
    }

    fn round_of(d: Direction) -> Round {
        match d {
            Direction::Down => Round::Down,
            Direction::Up => Round::Up,
        }
    }

    fn wide(x: &Float) -> Wide {
        Wide::from_float(x).unwrap()
    }

    /// `from_float` and `to_float` are inverse on positive floats and zero of every precision
    /// `≤ 192` (the value built independently from its mantissa's limbs), the exponent is
    /// MPFR's, the order is MPFR's, the [`Short`] conversions agree with `Short`'s own, and
    /// `from_f64_magnitude` is MPFR's exact `|x|` of a double (zeros, subnormals, extremes and
    /// 20 000 random bit patterns).
    #[test]
    fn conversions_round_trip() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        for _ in 0..20_000 {
            let prec = precisions(&mut rng);
            let f = random_float(&mut rng, prec, 1 << 20);
            let w = wide(&f);
            // The value from the limbs by MPFR arithmetic, exactly.
            let mut v = Float::with_val(256, 0);
            for (i, &limb) in w.m.iter().enumerate() {
                v += Float::with_val(64, limb) << (64 * i as u32);
            }
            v <<= 100u32;
            let scaled = Float::with_val(256, &f << (292 - w.e) as i32);
            assert_eq!(v, scaled, "{f} at {prec}");
            assert_eq!(w.exponent(), crate::arith::mpfr::exponent(&f));
            assert!(same(&w.to_float(prec), &f), "{f} at {prec}");
            let mut g = Float::with_val(prec, -3.5);
            w.store(&mut g);
            assert!(same(&g, &f));
            if prec <= 128 {
                let s = Short::from_float(&f).unwrap();
                assert_eq!(w.to_short(), Some(s));
                assert_eq!(Wide::from_short(s), w);
            }
            let (pg, ph) = (precisions(&mut rng), precisions(&mut rng));
            let g = random_float(&mut rng, pg, 3);
            let h = random_float(&mut rng, ph, 3);
            assert_eq!(wide(&g).cmp(&wide(&h)), g.partial_cmp(&h).unwrap());
            assert_eq!(wide(&g).cmp(&wide(&g)), Ordering::Equal);
        }
        // from_f64_magnitude: |x| exactly, normal and subnormal doubles, zeros, extremes.
        for x in crate::test_points::EDGE_DOUBLES
            .into_iter()
            .chain((0..20_000).map(|_| {
                f64::from_bits(
                    rng.gen::<u64>() & !(0x7ff << 52) | (rng.gen_range(0..2047u64) << 52),
                )
            }))
        {
            let w = Wide::from_f64_magnitude(x);
            assert!(
                same(&w.to_float(53), &Float::with_val(53, x.abs())),
                "{x:e}"
            );
        }
        assert_eq!(Wide::from_float(&Float::new(150)), Some(Wide::ZERO));
        assert!(same(&Wide::ZERO.to_float(150), &Float::new(150)));
        assert_eq!(Wide::from_float(&Float::with_val(193, 1)), None);
        assert_eq!(Wide::from_float(&Float::with_val(64, -1)), None);
        assert!(same(&Wide::ONE.to_float(1), &Float::with_val(1, 1)));
        for p in 1..=192 {
            let mut next = Float::with_val(p, 1);
            next.next_up();
            assert!(
                same(&Wide::one_plus_ulp(p).to_float(p), &next),
                "1 + ulp at {p}"
            );
            assert!(same(&Wide::ONE.next_up(p).to_float(p), &next));
        }
    }

    /// `round` and `next_up` are MPFR's rounding of a float to a shorter precision in both
    /// directions and its `next_up`, bit for bit; `from_integer` is MPFR's rounding of an
    /// integer times a power of two; `to_f64_up` and `to_f64_nearest` are MPFR's conversions to
    /// f64 rounded up and to nearest (ties included).
    #[test]
    fn roundings_match_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(32);
        for _ in 0..100_000 {
            let (pa, p) = (precisions(&mut rng), precisions(&mut rng));
            let a = random_float(&mut rng, pa, 1000);
            for dir in [Direction::Down, Direction::Up] {
                let expected = Float::with_val_round(p, &a, round_of(dir)).0;
                let got = wide(&a).round(p, dir);
                assert!(same(&got.to_float(p), &expected), "{a} to {p} {dir:?}");
                let mut next = expected.clone();
                next.next_up();
                assert!(
                    same(&got.next_up(p).to_float(p), &next),
                    "next_up {expected}"
                );
            }
            // from_integer: the 192-bit integer of a's limbs times 2^e0.
            let (limbs, _) = wide(&a).limbs();
            let e0 = rng.gen_range(-400..400i32);
            let mut exact = Float::with_val(192, 0);
            for (i, &limb) in limbs.iter().enumerate() {
                exact += Float::with_val(64, limb) << (64 * i as u32);
            }
            exact <<= e0;
            for dir in [Direction::Down, Direction::Up] {
                let expected = Float::with_val_round(p, &exact, round_of(dir)).0;
                let got = Wide::from_integer(limbs, i64::from(e0), p, dir).to_float(p);
                assert!(same(&got, &expected), "{exact} to {p} {dir:?}");
            }
            let expected = a.to_f64_round(Round::Up);
            if let Some(got) = wide(&a).to_f64_up() {
                assert_eq!(got, expected, "{a} to f64");
            } else {
                assert!(!expected.is_normal() || expected.abs() >= 2f64.powi(1020));
            }
            let b = random_float(&mut rng, pa, 10);
            assert_eq!(wide(&b).to_f64_up(), Some(b.to_f64_round(Round::Up)));
            assert_eq!(
                wide(&b).to_f64_nearest(),
                Some(b.to_f64()),
                "{b} to nearest f64"
            );
            // Ties: a double plus exactly half its unit (exact at 54 bits), and neighbours.
            let d = Float::with_val(53, rng.gen_range(0.5..8.0f64));
            let mut tie = Float::with_val(54, &d)
                + (Float::with_val(54, 1) >> (54 - d.get_exp().unwrap()) as u32);
            let ulp = Float::with_val(54, 1) << (d.get_exp().unwrap() - 53);
            assert!(Float::with_val(54, &tie - &d) * 2u32 == ulp, "not a tie");
            for _ in 0..3 {
                let t = Float::with_val(192, &tie);
                assert_eq!(wide(&t).to_f64_nearest(), Some(t.to_f64()), "tie {t}");
                tie.next_up();
            }
        }
    }

    /// `mul` equals MPFR's product rounded down and up, bit for bit, on random and adversarial
    /// operands (all-ones mantissas, single bits, runs of ones and zeros) of precisions up to
    /// 192 at random target precisions, squares and zero operands included.
    #[test]
    fn products_match_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(33);
        for i in 0..200_000 {
            let (pa, pb, p) = (
                precisions(&mut rng),
                precisions(&mut rng),
                precisions(&mut rng),
            );
            let a = random_float(&mut rng, pa, 4000);
            let b = match i % 10 {
                0 => a.clone(),
                1 => Float::new(pb),
                _ => random_float(&mut rng, pb, 4000),
            };
            for dir in [Direction::Down, Direction::Up] {
                let expected = Float::with_val_round(p, &a * &b, round_of(dir)).0;
                let got = wide(&a).mul(wide(&b), p, dir).to_float(p);
                assert!(
                    same(&got, &expected),
                    "{a} × {b} at {p} {dir:?}: {got} ≠ {expected}"
                );
                if dir == Direction::Down && !b.is_zero() {
                    let got = wide(&a)
                        .mul_down_positive(wide(&b), keep_masks(p))
                        .to_float(p);
                    assert!(
                        same(&got, &expected),
                        "{a} × {b} at {p} (positive): {got} ≠ {expected}"
                    );
                }
            }
        }
    }

    /// `add` and `sub` equal MPFR's sum and difference rounded down and up, bit for bit: equal
    /// exponents, exponent gaps across 0..450 (every shift of the smaller mantissa, and past
    /// the buffer), carries (all-ones mantissas), cancellation to a few bits (operands one unit
    /// apart, equal leading bits), results at powers of two, zero operands, both orders; and
    /// `sub` declines exactly when the difference is not positive.
    #[test]
    fn sums_and_differences_match_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(34);
        for i in 0..200_000 {
            let (pa, pb, p) = (
                precisions(&mut rng),
                precisions(&mut rng),
                precisions(&mut rng),
            );
            let a = random_float(&mut rng, pa, 4);
            let b = match i % 5 {
                0 => random_float(&mut rng, pb, 4),
                1 => {
                    // Close to a: cancellation.
                    let mut b = Float::with_val(pb, &a);
                    for _ in 0..rng.gen_range(0..3) {
                        if rng.gen() {
                            b.next_up();
                        } else {
                            b.next_down();
                        }
                    }
                    b
                }
                2 => {
                    let mut b = Float::with_val(pb.max(pa), &a);
                    let delta = random_float(&mut rng, 64, 0) >> rng.gen_range(100..300u32);
                    b += delta;
                    Float::with_val_round(pb, &b, Round::Down).0
                }
                _ => {
                    let gap = rng.gen_range(0..450u32);
                    Float::with_val(pb, &random_float(&mut rng, pb, 0) >> gap) << 4u32
                }
            };
            let b = if i % 997 == 0 { Float::new(pb) } else { b };
            let a = if i % 991 == 0 { Float::new(pa) } else { a };
            for (x, y) in [(&a, &b), (&b, &a)] {
                for dir in [Direction::Down, Direction::Up] {
                    let expected = Float::with_val_round(p, x + y, round_of(dir)).0;
                    let got = wide(x).add(wide(y), p, dir).to_float(p);
                    assert!(same(&got, &expected), "{x} + {y} at {p} {dir:?}");
                    if dir == Direction::Down && !x.is_zero() && !y.is_zero() {
                        let got = wide(x)
                            .add_down_positive(wide(y), keep_masks(p))
                            .to_float(p);
                        assert!(same(&got, &expected), "{x} + {y} at {p} (positive)");
                    }
                    let difference = Float::with_val_round(p, x - y, round_of(dir)).0;
                    match wide(x).sub(wide(y), p, dir) {
                        Some(got) => assert!(
                            same(&got.to_float(p), &difference),
                            "{x} - {y} at {p} {dir:?}: {} ≠ {difference}",
                            got.to_float(p)
                        ),
                        None => assert!(x <= y, "{x} - {y} declined"),
                    }
                }
            }
        }
    }

    /// `div` equals MPFR's quotient rounded down and up, bit for bit, on operands of precisions
    /// up to 192 at target precisions up to 192 (equal mantissas, all-ones, powers of two,
    /// runs of ones and zeros, exact quotients, zero dividends), `div_both` is the pair of them,
    /// and both decline a zero divisor.
    #[test]
    fn quotients_match_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(35);
        for i in 0..200_000 {
            let (pa, pb) = (precisions(&mut rng), precisions(&mut rng));
            let p = precisions(&mut rng);
            let b = random_float(&mut rng, pb, 300);
            let a = match i % 4 {
                0 => Float::with_val(pa, &b),
                1 => {
                    // An exact quotient: a = b·c with c of 8 bits (exact at pb + 8 ≤ 192 bits).
                    let c = random_float(&mut rng, 8, 5);
                    down((pb + 8).min(192), &b * &c)
                }
                _ => random_float(&mut rng, pa, 300),
            };
            let a = if i % 1009 == 0 { Float::new(pa) } else { a };
            let both = wide(&a).div_both(wide(&b), p).unwrap();
            assert_eq!(
                Some(both),
                wide(&a).div(wide(&b), p, Direction::Down).zip(wide(&a).div(
                    wide(&b),
                    p,
                    Direction::Up
                ))
            );
            for dir in [Direction::Down, Direction::Up] {
                let expected = Float::with_val_round(p, &a / &b, round_of(dir)).0;
                let got = wide(&a).div(wide(&b), p, dir).unwrap().to_float(p);
                assert!(
                    same(&got, &expected),
                    "{a} / {b} at {p} {dir:?}: {got} ≠ {expected}"
                );
            }
        }
        assert_eq!(Wide::ONE.div(Wide::ZERO, 64, Direction::Down), None);
        assert_eq!(Wide::ONE.div_both(Wide::ZERO, 64), None);
        assert!(same(
            &Wide::ONE
                .div(wide(&up(3, Float::with_val(53, 3))), 100, Direction::Up)
                .unwrap()
                .to_float(100),
            &up(100, Float::with_val(100, 1) / 3u32)
        ));
    }
}
