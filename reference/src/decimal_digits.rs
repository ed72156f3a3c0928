//! Directed-rounding decimal digits of binary floats of at most 128 bits, with integer
//! arithmetic: the same digits and exponent as MPFR's `mpfr_get_str` (correctly rounded in the
//! requested direction), for the magnitudes certified bounds usually have.
//!
//! For `|x| = m·2^k` (`m < 2^128`) and `n ≤ 40` digits, with `E = ⌊log10 |x|⌋` and
//! `j = n - 1 - E ≥ 0`, the digits are `D = ⌊|x|·10^j⌋` (or `⌈·⌉`): `|x|·10^j = m·5^j·2^(k+j)`,
//! an exact integer product `m·5^j` shifted by `k + j` bits, the bits shifted out telling whether
//! the floor is exact (for `j ≤ 55` and a right shift, `m·5^j` is one 256-bit product of two
//! `u128`; otherwise it is formed limb by limb). `E` is estimated in floating point and corrected until
//! `10^(n-1) ≤ ⌊|x|·10^j⌋ < 10^n` (which characterises `E` exactly); a ceiling equal to `10^n`
//! is the next power of ten, `1000…` with the exponent one higher, as MPFR writes it.
//! Anything else (longer mantissas, more digits, `|x| ≥ 10^(n-1)`, exponents beyond the fixed
//! buffer) is left to MPFR (`None`).
//!
//! The digits are written as `[-]d.ddd…e[-]N` straight into the caller's buffer
//! ([`push_decimal`]); MPFR's digits, where this module does not apply, are laid out the same way.
//!
//! Tested against `mpfr_get_str` (`tests` below: `digits_match_mpfr` for the digits,
//! `text_is_mpfr_digits_laid_out` for the text).

use crate::short_float::{widening_mul, Short};
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

/// `"00"`, `"01"`, …, `"99"`: two decimal digits per lookup.
const PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// The four digits of `v < 10^4` into `out[..4]`.
fn write_4(v: u32, out: &mut [u8]) {
    let (high, low) = ((v / 100) as usize, (v % 100) as usize);
    out[..2].copy_from_slice(&PAIRS[2 * high..2 * high + 2]);
    out[2..4].copy_from_slice(&PAIRS[2 * low..2 * low + 2]);
}

/// The nineteen digits of `v < 10^19` (leading zeros kept) into `out` (`3 + 8 + 8` digits:
/// one division by `10^16` and one by `10^8` in 64 bits, then 32-bit pairs).
fn write_19(v: u64, out: &mut [u8; 19]) {
    const TEN_8: u64 = 100_000_000;
    const TEN_16: u64 = TEN_8 * TEN_8;
    let (top, rest) = ((v / TEN_16) as u32, v % TEN_16);
    let (middle, low) = ((rest / TEN_8) as u32, (rest % TEN_8) as u32);
    out[0] = b'0' + (top / 100) as u8;
    let pair = 2 * (top % 100) as usize;
    out[1..3].copy_from_slice(&PAIRS[pair..pair + 2]);
    write_4(middle / 10_000, &mut out[3..7]);
    write_4(middle % 10_000, &mut out[7..11]);
    write_4(low / 10_000, &mut out[11..15]);
    write_4(low % 10_000, &mut out[15..19]);
}

/// The decimal digits of a three-limb integer below `10^40`, exactly `n ≤ 40` of them (leading
/// zeros kept), in ASCII at the end of the returned buffer (`buf[57 - n..]`).
fn digits_of(value: &[u64; 3]) -> [u8; 57] {
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
        let at = 57 - 19 * (c + 1);
        let slot: &mut [u8; 19] = (&mut buf[at..at + 19]).try_into().expect("19 bytes");
        write_19(*chunk, slot);
    }
    buf
}

/// `5^j` for `j ≤ 55` (`5^55 < 2^128`), formed at compile time.
const POW5: [u128; 56] = {
    let mut table = [1u128; 56];
    let mut j = 1;
    while j < 56 {
        table[j] = table[j - 1] * 5;
        j += 1;
    }
    table
};

/// `⌊m·2^k·10^j⌋` as three limbs and whether it is inexact, if it is below `2^192` and the
/// buffer holds the computation. `|x|·10^j = m·5^j·2^(k+j)`: for `j ≤ 55` and `k + j < 0` (every
/// `|x|` from about `10^-16` to `2^128`) the product `m·5^j` is one 256-bit product of two
/// `u128` ([`floor_shifted_product`]); otherwise it is formed limb by limb ([`scaled_floor_big`]).
fn scaled_floor(m: u128, k: i64, j: i64) -> Option<([u64; 3], bool)> {
    let shift = k + j;
    if (0..POW5.len() as i64).contains(&j) && shift < 0 {
        return floor_shifted_product(m, POW5[j as usize], shift.unsigned_abs());
    }
    scaled_floor_big(m, k, j)
}

/// `⌊a·b/2^s⌋` as three limbs and whether it is inexact (bits shifted out), if it is below
/// `2^192`.
fn floor_shifted_product(a: u128, b: u128, s: u64) -> Option<([u64; 3], bool)> {
    // a·b = high·2^128 + low, exactly.
    let (high, low) = widening_mul(a, b);
    let (quotient_high, quotient_low, inexact) = match s {
        0 => (high, low, false),
        1..=127 => (
            high >> s,
            (low >> s) | (high << (128 - s)),
            low << (128 - s) != 0,
        ),
        128 => (0, high, low != 0),
        129..=255 => (0, high >> (s - 128), low != 0 || high << (256 - s) != 0),
        _ => (0, 0, high != 0 || low != 0),
    };
    if quotient_high >> 64 != 0 {
        return None;
    }
    Some((
        [
            quotient_low as u64,
            (quotient_low >> 64) as u64,
            quotient_high as u64,
        ],
        inexact,
    ))
}

/// [`scaled_floor`] limb by limb, in a buffer of [`LIMBS`] limbs (`j ≤ MAX_J`).
fn scaled_floor_big(m: u128, k: i64, j: i64) -> Option<([u64; 3], bool)> {
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

/// The digits of a decimal rendering: `x ≈ ±0.d1d2…dn × 10^exp`, as `mpfr_get_str` gives them.
pub(crate) struct Digits {
    /// `x < 0`.
    pub negative: bool,
    /// `d1…dn` in ASCII at the end: `buf[57 - n..]`.
    buf: [u8; 57],
    n: usize,
    /// The decimal exponent of `0.d1d2…dn`.
    pub exp: i64,
}

impl Digits {
    /// `d1d2…dn`, ASCII.
    pub fn digits(&self) -> &[u8] {
        &self.buf[57 - self.n..]
    }
}

/// MPFR's `mpfr_get_str(x, 10, digits, rnd)`: the digits `d1d2…dn` and `exp` with
/// `x ≈ ±0.d1d2…dn × 10^exp`, rounded toward −∞ if `round` is [`Round::Down`], else toward +∞
/// (as [`push_decimal`] asks MPFR), for a regular `x` of precision `≤ 128`, `2 ≤ digits ≤ 40`
/// and `|x|` inside the range this module handles; else `None` (the caller asks MPFR).
pub(crate) fn directed_digits(x: &Float, digits: usize, round: Round) -> Option<Digits> {
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
    // E = ⌊log10 |x|⌋, estimated from log2 |x| ∈ [e - 1, e) (the top 64 bits of m suffice for
    // an estimate), then corrected.
    let log2 = ((m >> 64) as u64 as f64).log2() - 64.0 + e as f64;
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
    Some(Digits {
        negative,
        buf: digits_of(&d),
        n: digits,
        exp,
    })
}

/// Appends `x` with `digits` significant digits, rounded toward −∞ if `round` is
/// [`Round::Down`], else toward +∞ (`mpfr_get_str` is correctly rounded in that direction;
/// `digits` below 2 are read as 2), as `[-]d.ddd…e[-]N` (ASCII; trailing zeros kept): `inf`,
/// `-inf`, `0` as such. The digits come from [`directed_digits`] where it applies, else from
/// MPFR (read directly: rug's formatter reserves memory in proportion to the exponent).
pub(crate) fn push_decimal(x: &Float, digits: usize, round: Round, out: &mut Vec<u8>) {
    use gmp_mpfr_sys::mpfr;
    if x.is_infinite() {
        out.extend_from_slice(if x.is_sign_negative() {
            b"-inf"
        } else {
            b"inf"
        });
        return;
    }
    if x.is_zero() {
        out.push(b'0');
        return;
    }
    let digits = digits.max(2);
    if let Some(d) = directed_digits(x, digits, round) {
        push_scientific(d.negative, d.digits(), d.exp, out);
        return;
    }
    let rnd = if round == Round::Down {
        mpfr::rnd_t::RNDD
    } else {
        mpfr::rnd_t::RNDU
    };
    let mut exp: mpfr::exp_t = 0;
    // SAFETY: `x` is a valid regular mpfr_t; with a null buffer MPFR allocates the string
    // (`[-]d1d2…`, NUL-terminated), which is copied and released with `mpfr_free_str`.
    unsafe {
        let ptr = mpfr::get_str(std::ptr::null_mut(), &mut exp, 10, digits, x.as_raw(), rnd);
        let text = std::ffi::CStr::from_ptr(ptr).to_bytes();
        let (negative, mantissa) = match text.strip_prefix(b"-") {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        push_scientific(negative, mantissa, exp, out);
        mpfr::free_str(ptr);
    }
}

/// [`push_decimal`]'s text as a string.
pub(crate) fn decimal(x: &Float, digits: usize, round: Round) -> String {
    let mut out = Vec::with_capacity(digits.max(2) + 24);
    push_decimal(x, digits, round, &mut out);
    // Only ASCII was written (digits, `.`, `e`, `-`, `inf`): the conversion cannot fail.
    String::from_utf8(out).unwrap_or_default()
}

/// The digits `d1d2…` with exponent `exp` (`±0.d1d2… × 10^exp`) as `[-]d1.d2…e(exp-1)`.
fn push_scientific(negative: bool, digits: &[u8], exp: i64, out: &mut Vec<u8>) {
    // Sign, digits, point, `e` and an exponent of at most 40 characters.
    out.reserve(digits.len() + 43);
    if negative {
        out.push(b'-');
    }
    out.push(digits[0]);
    out.push(b'.');
    out.extend_from_slice(&digits[1..]);
    out.push(b'e');
    push_integer(out, i128::from(exp) - 1);
}

/// Appends the decimal digits of `v` (with `-` if negative), as `v.to_string()` writes them.
fn push_integer(out: &mut Vec<u8>, v: i128) {
    if v < 0 {
        out.push(b'-');
    }
    let mut magnitude = v.unsigned_abs();
    let mut digits = [0u8; 40];
    let mut at = digits.len();
    // Digits beyond 64 bits in 128-bit arithmetic (never for a bound's exponent), the rest in
    // 64-bit arithmetic, the usual case.
    while magnitude > u128::from(u64::MAX) {
        at -= 1;
        digits[at] = b'0' + (magnitude % 10) as u8;
        magnitude /= 10;
    }
    let mut small = magnitude as u64;
    loop {
        at -= 1;
        digits[at] = b'0' + (small % 10) as u8;
        small /= 10;
        if small == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
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
                    let sign = if got.negative { "-" } else { "" };
                    let text = std::str::from_utf8(got.digits()).unwrap();
                    let expected = mpfr_digits(x, digits, round);
                    assert_eq!(
                        (format!("{sign}{text}"), got.exp),
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

    /// Random mantissas of every precision up to 130 bits over binary exponents ±1400, powers
    /// of ten and their neighbours (exact ones, with no rounding, and rounded at 53 to 128
    /// bits), runs of nines that carry into the next power of ten, small integers and halves,
    /// f64 extremes, and numbers whose decimal expansion ends at the 39th to 42nd significant
    /// digit (odd `M < 2^128` over `2^s`: the digits of `M·5^s`, the last one a 5), so that the
    /// 41st digit is the last nonzero one or there is none: exact bounds and bounds a single
    /// digit away from exact.
    fn test_values() -> Vec<Float> {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
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
        let mut ending = 0;
        while ending < 4000 {
            let bits = rng.gen_range(1..=128u32);
            let m = (rng.gen::<u128>() >> (128 - bits)) | 1 | (1 << (bits - 1));
            let s = rng.gen_range(0..=60u32);
            let digits = (rug::Integer::from(m) * rug::Integer::from(5).pow(s))
                .to_string()
                .len();
            if (39..=42).contains(&digits) {
                let x = Float::with_val(128, m) >> s;
                values.push(x);
                ending += 1;
            }
        }
        values
    }

    /// The digits and exponent are MPFR's `mpfr_get_str`'s, in both directions and for both
    /// signs, at 2 to 41 digits, on [`test_values`] (most of them handled here, the rest left
    /// to MPFR).
    #[test]
    fn digits_match_mpfr() {
        widen_exponent_range();
        let values = test_values();
        let mut handled = 0usize;
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

    /// [`push_decimal`]'s text is MPFR's `mpfr_get_str` digits laid out as `d1.d2…e(exp-1)`
    /// (formatted here independently), at 1 to 60 digits and in both directions, for both signs
    /// of [`test_values`], MPFR's exponent extremes, infinities and zeros.
    #[test]
    fn text_is_mpfr_digits_laid_out() {
        widen_exponent_range();
        let mut values = test_values();
        let mut tiny = Float::with_val(64, 1);
        tiny >>= 4_000_000_000u32;
        values.push(tiny.clone());
        values.push(Float::with_val(64, 1) / &tiny);
        for x in values {
            for x in [x.clone(), Float::with_val(x.prec(), -&x)] {
                for digits in [1, 2, 3, 17, 40, 41, 60] {
                    for round in [Round::Down, Round::Up] {
                        let (mantissa, exp) = mpfr_digits(&x, digits.max(2), round);
                        let (sign, d) = match mantissa.strip_prefix('-') {
                            Some(d) => ("-", d),
                            None => ("", mantissa.as_str()),
                        };
                        let expected = format!("{sign}{}.{}e{}", &d[..1], &d[1..], exp - 1);
                        let mut got = Vec::new();
                        push_decimal(&x, digits, round, &mut got);
                        assert_eq!(String::from_utf8(got).unwrap(), expected, "x = {x:?}");
                    }
                }
            }
        }
        for (x, text) in [
            (Float::with_val(53, f64::INFINITY), "inf"),
            (Float::with_val(53, f64::NEG_INFINITY), "-inf"),
            (Float::with_val(53, 0.0), "0"),
            (Float::with_val(53, -0.0), "0"),
        ] {
            for round in [Round::Down, Round::Up] {
                let mut got = b"prefix ".to_vec();
                push_decimal(&x, 40, round, &mut got);
                assert_eq!(got, format!("prefix {text}").as_bytes());
            }
        }
    }

    #[test]
    fn decimal_exponents_are_written_as_to_string_writes_them() {
        for v in [
            0i128,
            1,
            -1,
            9,
            10,
            -10,
            99,
            100,
            -2171472421,
            i128::from(i64::MAX),
            i128::from(i64::MIN),
            i128::MAX,
            i128::MIN,
        ] {
            let mut out = Vec::new();
            push_integer(&mut out, v);
            assert_eq!(out, v.to_string().as_bytes());
        }
    }

    /// The 19-digit chunks are `format!("{:019}")`'s, on chunk boundaries, powers of ten and
    /// their neighbours and random values.
    #[test]
    fn nineteen_digit_chunks() {
        let mut rng = ChaCha8Rng::seed_from_u64(19);
        let mut values = vec![0u64, 9_999_999_999_999_999_999];
        for k in 0..19 {
            let p = 10u64.pow(k);
            values.extend([p - 1, p, p + 1]);
        }
        values.extend((0..100_000).map(|_| rng.gen_range(0..10_000_000_000_000_000_000u64)));
        for v in values {
            let mut out = [0u8; 19];
            write_19(v, &mut out);
            assert_eq!(std::str::from_utf8(&out).unwrap(), format!("{v:019}"));
        }
    }

    /// The 256-bit product path of [`scaled_floor`] gives the limb-by-limb one's result (value,
    /// inexactness, or none beyond `2^192`): random mantissas of every length, `j` from 0 to 55,
    /// shifts from 0 to 300 bits.
    #[test]
    fn product_path_is_the_limb_path() {
        let mut rng = ChaCha8Rng::seed_from_u64(256);
        let mut compared = [0usize; 2];
        for _ in 0..300_000 {
            let bits = rng.gen_range(1..=128u32);
            let m = (rng.gen::<u128>() >> (128 - bits)) | 1u128 << (bits - 1);
            let j = rng.gen_range(0..=55i64);
            let s = rng.gen_range(0..=300i64);
            let k = -s - j;
            let fast = floor_shifted_product(m, POW5[j as usize], s as u64);
            assert_eq!(fast, scaled_floor_big(m, k, j), "m = {m}, j = {j}, s = {s}");
            compared[usize::from(fast.is_some())] += 1;
        }
        // Both outcomes (a quotient beyond 2^192 needs a long product and a short shift).
        assert!(compared[0] > 1_000 && compared[1] > 100_000, "{compared:?}");
        assert_eq!(POW5[55], 5u128.pow(55));
    }
}
