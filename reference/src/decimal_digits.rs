//! Directed-rounding decimal digits of binary floats of at most 128 bits, with integer
//! arithmetic: the same digits and exponent as MPFR's `mpfr_get_str` (correctly rounded in the
//! requested direction), for the magnitudes certified bounds usually have.
//!
//! For `|x| = m·2^k` (`m < 2^128`) and `n ≤ 40` digits, with `E = ⌊log10 |x|⌋` and
//! `j = n - 1 - E ≥ 0`, the digits are `D = ⌊|x|·10^j⌋` (or `⌈·⌉`): `|x|·10^j = m·5^j·2^(k+j)`,
//! an exact integer product `m·5^j` shifted by `k + j` bits, the bits shifted out telling whether
//! the floor is exact. `E` is estimated in floating point and corrected until
//! `10^(n-1) ≤ ⌊|x|·10^j⌋ < 10^n` (which characterises `E` exactly); a ceiling equal to `10^n`
//! is the next power of ten, `1000…` with the exponent one higher, as MPFR writes it.
//! Anything else (longer mantissas, more digits, `|x| ≥ 10^(n-1)`, exponents beyond the fixed
//! buffer) is left to MPFR (`None`).
//!
//! Tested against `mpfr_get_str` (`tests` below, `digits_match_mpfr`).

use crate::short_float::Short;
use rug::float::Round;
use rug::Float;

/// Limbs of the fixed buffer for `m·5^j` (`j ≤ MAX_J`: `128 + 2.33·MAX_J` bits).
const LIMBS: usize = 20;
/// The largest `j` handled (`|x| ≥ 10^(n-1-MAX_J)`, about `1e-360` for 40 digits).
const MAX_J: i64 = 400;
/// `5^27`, the largest power of 5 in a `u64`.
const FIVE_27: u64 = 7_450_580_596_923_828_125;

/// A little-endian unsigned integer of at most [`LIMBS`] limbs.
struct Big {
    limbs: [u64; LIMBS],
    len: usize,
}

impl Big {
    fn from_u128(v: u128) -> Big {
        let mut limbs = [0u64; LIMBS];
        limbs[0] = v as u64;
        limbs[1] = (v >> 64) as u64;
        Big {
            limbs,
            len: if limbs[1] != 0 { 2 } else { 1 },
        }
    }

    /// `self·f` (exact; the buffer is large enough for every `m·5^j`, `j ≤ MAX_J`).
    fn mul_small(&mut self, f: u64) {
        let mut carry = 0u128;
        for limb in &mut self.limbs[..self.len] {
            let v = u128::from(*limb) * u128::from(f) + carry;
            *limb = v as u64;
            carry = v >> 64;
        }
        if carry != 0 {
            self.limbs[self.len] = carry as u64;
            self.len += 1;
        }
    }

    /// `⌊self/2^s⌋` in place, and whether bits were dropped (the quotient is inexact).
    fn shift_right(&mut self, s: u64) -> bool {
        let (words, bits) = ((s / 64) as usize, (s % 64) as u32);
        if words >= self.len {
            let inexact = self.limbs[..self.len].iter().any(|&l| l != 0);
            self.limbs = [0; LIMBS];
            self.len = 1;
            return inexact;
        }
        let mut inexact = self.limbs[..words].iter().any(|&l| l != 0);
        if bits != 0 {
            inexact |= self.limbs[words] << (64 - bits) != 0;
        }
        let new_len = self.len - words;
        for i in 0..new_len {
            let low = self.limbs[i + words];
            let high = if i + words + 1 < self.len {
                self.limbs[i + words + 1]
            } else {
                0
            };
            self.limbs[i] = if bits == 0 {
                low
            } else {
                (low >> bits) | (high << (64 - bits))
            };
        }
        for limb in &mut self.limbs[new_len..self.len] {
            *limb = 0;
        }
        self.len = new_len;
        while self.len > 1 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
        inexact
    }

    /// `self·2^s` in place, if it fits the buffer.
    fn shift_left(&mut self, s: u64) -> Option<()> {
        let (words, bits) = ((s / 64) as usize, (s % 64) as u32);
        if self.len + words + 1 > LIMBS {
            return None;
        }
        let old = self.limbs;
        self.limbs = [0; LIMBS];
        for i in 0..self.len {
            self.limbs[i + words] |= if bits == 0 { old[i] } else { old[i] << bits };
            if bits != 0 {
                self.limbs[i + words + 1] |= old[i] >> (64 - bits);
            }
        }
        self.len += words + 1;
        while self.len > 1 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
        Some(())
    }

    /// The value, if below `2^192` (as three limbs).
    fn small(&self) -> Option<[u64; 3]> {
        (self.len <= 3).then(|| [self.limbs[0], self.limbs[1], self.limbs[2]])
    }
}

/// `10^e` as three limbs, `e ≤ 40`, formed at compile time.
const POW10: [[u64; 3]; 41] = {
    let mut table = [[0u64; 3]; 41];
    table[0][0] = 1;
    let mut e = 1;
    while e <= 40 {
        let mut carry = 0u128;
        let mut i = 0;
        while i < 3 {
            let v = table[e - 1][i] as u128 * 10 + carry;
            table[e][i] = v as u64;
            carry = v >> 64;
            i += 1;
        }
        e += 1;
    }
    table
};

/// Compares three-limb integers.
fn cmp3(a: &[u64; 3], b: &[u64; 3]) -> std::cmp::Ordering {
    (a[2], a[1], a[0]).cmp(&(b[2], b[1], b[0]))
}

/// `a + 1` (three limbs; never overflows below `2^192 - 1`).
fn increment(a: &mut [u64; 3]) {
    for limb in a.iter_mut() {
        let (v, carry) = limb.overflowing_add(1);
        *limb = v;
        if !carry {
            return;
        }
    }
}

/// The decimal digits of a three-limb integer below `10^40`, exactly `n` of them (leading zeros
/// kept), appended to `out`.
fn push_digits(value: &[u64; 3], n: usize, out: &mut String) {
    const TEN_19: u64 = 10_000_000_000_000_000_000;
    // value = high·10^38 + middle·10^19 + low, by long division by 10^19 twice.
    let mut limbs = *value;
    let mut chunks = [0u64; 3];
    for chunk in chunks.iter_mut().take(2) {
        let mut rem = 0u128;
        for limb in limbs.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*limb);
            *limb = (cur / u128::from(TEN_19)) as u64;
            rem = cur % u128::from(TEN_19);
        }
        *chunk = rem as u64;
    }
    chunks[2] = limbs[0];
    let mut buf = [b'0'; 57];
    for (c, chunk) in chunks.iter().enumerate() {
        let mut v = *chunk;
        for i in 0..19 {
            buf[57 - 19 * c - 1 - i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf[57 - n..]).unwrap_or_default());
}

/// `⌊m·2^k·10^j⌋` as three limbs and whether it is inexact, if it is below `2^192` and the
/// buffer holds the computation.
fn scaled_floor(m: u128, k: i64, j: i64) -> Option<([u64; 3], bool)> {
    if !(0..=MAX_J).contains(&j) {
        return None;
    }
    let mut big = Big::from_u128(m);
    let mut left = j;
    while left >= 27 {
        big.mul_small(FIVE_27);
        left -= 27;
    }
    big.mul_small(5u64.pow(left as u32));
    let shift = k + j;
    let inexact = if shift >= 0 {
        big.shift_left(shift as u64)?;
        false
    } else {
        big.shift_right(shift.unsigned_abs())
    };
    Some((big.small()?, inexact))
}

/// MPFR's `mpfr_get_str(x, 10, digits, rnd)` as `(string, exp)`: the string is `[-]d1d2…dn`,
/// `x ≈ 0.d1d2…dn × 10^exp`, rounded toward −∞ if `round` is [`Round::Down`], else toward +∞
/// (as [`crate::certify::decimal`] asks MPFR), for a regular `x` of precision `≤ 128`,
/// `2 ≤ digits ≤ 40` and `|x|` inside the range this module handles; else `None` (the caller
/// asks MPFR).
pub(crate) fn directed_digits(x: &Float, digits: usize, round: Round) -> Option<(String, i64)> {
    if !(2..=40).contains(&digits) || !x.is_normal() {
        return None;
    }
    let negative = x.is_sign_negative();
    let magnitude = Short::magnitude_of(x)?;
    let (m, e) = magnitude.parts();
    // |x| = m·2^k.
    let k = e - 128;
    // Away from zero in magnitude: toward +∞ for a positive x, toward −∞ for a negative one.
    let ceiling = (round != Round::Down) != negative;
    let n = digits as u32;
    let (lower_limit, upper_limit) = (POW10[digits - 1], POW10[digits]);
    // E = ⌊log10 |x|⌋, estimated from log2 |x| ∈ [e - 1, e), then corrected.
    let log2 = ((m >> 64) as f64).log2() - 64.0 + e as f64;
    let mut big_e = (log2 * std::f64::consts::LOG10_2).floor() as i64;
    let (floor, inexact) = loop {
        let j = i64::from(n) - 1 - big_e;
        let (d, inexact) = scaled_floor(m, k, j)?;
        if cmp3(&d, &lower_limit).is_lt() {
            big_e -= 1;
        } else if cmp3(&d, &upper_limit).is_ge() {
            big_e += 1;
        } else {
            break (d, inexact);
        }
    };
    let mut d = floor;
    let mut exp = big_e + 1;
    if ceiling && inexact {
        increment(&mut d);
        if cmp3(&d, &upper_limit).is_ge() {
            d = lower_limit;
            exp += 1;
        }
    }
    let mut out = String::with_capacity(digits + 24);
    if negative {
        out.push('-');
    }
    push_digits(&d, digits, &mut out);
    Some((out, exp))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interval::{down, up, widen_exponent_range};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rug::ops::Pow;

    /// `mpfr_get_str(x, 10, digits, RNDD or RNDU)` itself.
    fn mpfr_digits(x: &Float, digits: usize, round: Round) -> (String, i64) {
        use gmp_mpfr_sys::mpfr;
        let rnd = if round == Round::Down {
            mpfr::rnd_t::RNDD
        } else {
            mpfr::rnd_t::RNDU
        };
        let mut exp: mpfr::exp_t = 0;
        // SAFETY: as in `certify::decimal`.
        unsafe {
            let ptr = mpfr::get_str(std::ptr::null_mut(), &mut exp, 10, digits, x.as_raw(), rnd);
            let owned = std::ffi::CStr::from_ptr(ptr).to_string_lossy().into_owned();
            mpfr::free_str(ptr);
            (owned, exp)
        }
    }

    /// Checks one value in both directions at several digit counts; returns how many of them
    /// this module handled (the rest went to MPFR).
    fn check(x: &Float) -> usize {
        let mut handled = 0;
        for digits in [2, 3, 17, 20, 39, 40, 41] {
            for round in [Round::Down, Round::Up] {
                if let Some(got) = directed_digits(x, digits, round) {
                    let expected = mpfr_digits(x, digits, round);
                    assert_eq!(
                        got,
                        expected,
                        "x = {x:?} (prec {}), {digits} digits, {round:?}",
                        x.prec()
                    );
                    handled += 1;
                }
            }
        }
        handled
    }

    /// The digits and exponent are MPFR's `mpfr_get_str`'s, in both directions and for both
    /// signs, at 2 to 41 digits: random mantissas of every precision up to 130 bits over
    /// binary exponents ±1400 (most of them handled here, the rest left to MPFR), powers of ten
    /// and their neighbours (exact ones, with no rounding, and rounded at 53 to 128 bits), runs
    /// of nines that carry into the next power of ten, small integers and halves, f64 extremes.
    #[test]
    fn digits_match_mpfr() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut handled = 0usize;
        let mut values = Vec::new();
        for _ in 0..20_000 {
            let prec = rng.gen_range(2..=130);
            let bits: u128 = rng.gen::<u128>() | 1 << 127;
            let mut f = Float::with_val(prec, bits);
            f >>= 128u32;
            let e: i32 = rng.gen_range(-1400..=1400);
            if e >= 0 {
                f <<= e as u32;
            } else {
                f >>= (-e) as u32;
            }
            values.push(f);
        }
        for k in -360..=80 {
            for prec in [53, 64, 103, 127, 128] {
                let ten = Float::with_val(prec + 400, 10);
                let p = Float::with_val(prec + 400, (&ten).pow(k));
                let mut lo = down(prec, &p);
                let mut hi = up(prec, &p);
                values.push(lo.clone());
                values.push(hi.clone());
                lo.next_down();
                hi.next_up();
                values.push(lo);
                values.push(hi);
                // 0.999…9 × 10^k (45 nines) and 1.000…01 × 10^k.
                let nines =
                    Float::with_val(prec + 400, 1) - Float::with_val(prec + 400, (&ten).pow(-45));
                values.push(down(prec, &nines * &p));
                values.push(up(prec, &nines * &p));
            }
        }
        for i in 1..=2000u32 {
            values.push(Float::with_val(64, i));
            values.push(Float::with_val(64, i) >> 1u32);
            values.push(Float::with_val(103, i) / 7u32);
        }
        for v in [
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-300,
            1e300,
            0.1,
            1.0 / 3.0,
        ] {
            values.push(Float::with_val(53, v));
        }
        let total = values.len();
        for x in values {
            handled += check(&x);
            handled += check(&Float::with_val(x.prec(), -&x));
        }
        // Over a third of the cases are handled here (the others have more than 40 digits,
        // mantissas over 128 bits, or exponents out of range); the test would be void otherwise.
        assert!(
            handled * 3 > total * 28,
            "only {handled} handled of {}",
            total * 28
        );
    }
}
