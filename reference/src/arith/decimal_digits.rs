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
//! For 21 to 40 digits and `20 ≤ j ≤ 55` (at 40 digits, `|x|` from about `10^-16` to `10^19`:
//! nearly every bound `pbgi eval` prints), [`split_digits`] forms the same digits as two halves
//! below `10^20`, `⌊|x|·10^(j-20)⌋` and the last twenty digits of `D`, from two 256-bit products,
//! and writes them with 64-bit arithmetic only.
//!
//! The digits are written as `[-]d.ddd…e[-]N` straight into the caller's buffer
//! ([`push_decimal`]); MPFR's digits, where this module does not apply, are laid out the same way.
//!
//! Tested against `mpfr_get_str` (`tests` below: `digits_match_mpfr` for the digits,
//! `split_digits_match_mpfr` for the two halves, `text_is_mpfr_digits_laid_out` for the text).

use crate::arith::short_float::{widening_mul, Short};
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

/// `10^k` for `k ≤ 20` (`10^20 < 2^67`).
const POW10_20: [u128; 21] = {
    let mut table = [1u128; 21];
    let mut k = 1;
    while k < 21 {
        table[k] = table[k - 1] * 10;
        k += 1;
    }
    table
};

/// `10^20`, the unit of the upper half of a split rendering.
const TEN_20: u128 = POW10_20[20];

/// The digits of `|x| = m·2^(e-128)` (`2^127 ≤ m < 2^128`) with `n` significant digits,
/// `21 ≤ n ≤ 40`, rounded toward zero, or away from zero if `away`, as two halves: `|x| ≈
/// (q·10^20 + r)·10^(exp-n)` (`q` the first `n - 20` digits, `10^(n-21) ≤ q < 10^(n-20)`, `r` the
/// last twenty, `r < 10^20`), exactly `mpfr_get_str`'s digits and exponent (`0.d1d2…dn ×
/// 10^exp`); `None` unless `10^(-56+n) ≤ |x| < 10^(n-20)` roughly (`20 ≤ j ≤ 55` below) and
/// `|x|·10^j` is not an integer times a positive power of two.
///
/// With `E = ⌊log10 |x|⌋` and `j = n - 1 - E`, the digits are `D = ⌊|x|·10^j⌋` (or its ceiling)
/// and `q = ⌊D/10^20⌋ = ⌊|x|·10^(j-20)⌋` (`⌊⌊a⌋/b⌋ = ⌊a/b⌋` for an integer `b`): each is one
/// 256-bit product `m·5^i` shifted right by `-(k + i)` bits (`|x|·10^i = m·5^i·2^(k+i)`, `k = e -
/// 128`, `5^i < 2^128` tabulated), the bits shifted out of `D`'s telling whether it is exact.
/// `E` is estimated as `⌊(e - 1)·log10 2⌋` (`|x| ≥ 2^(e-1)`) and corrected until `10^(n-21) ≤ q <
/// 10^(n-20)`, which holds exactly when `10^(n-1) ≤ D < 10^n`, i.e. for the true `E`. Then
/// `r = D - q·10^20 < 10^20` is exact in 128-bit arithmetic modulo `2^128` (from `D`'s low 128
/// bits). Rounding away from zero adds one to an inexact `D`, carrying from `r` into `q` and, at
/// `D = 10^n`, giving `10^(n-1)` with the exponent one higher, as MPFR writes it.
fn split_digits(m: u128, e: i64, n: usize, away: bool) -> Option<(u128, u128, i64)> {
    let k = e - 128;
    let (q_lower, q_upper) = (POW10_20[n - 21], POW10_20[n - 20]);
    // ⌊(e - 1)·log10 2⌋ for |e| < 1650 (78913/2^18 approximates log10 2); only an estimate here.
    let mut big_e = ((e - 1) * 78_913) >> 18;
    let (q, j) = loop {
        let j = n as i64 - 1 - big_e;
        // Right shifts of `D` and `q` below 256 bits.
        if !(20..=55).contains(&j) || k + j > 0 || 20 - k - j >= 256 {
            return None;
        }
        // q = ⌊m·5^(j-20)/2^(20-k-j)⌋, a shift of at least 20 bits.
        let (high, low) = widening_mul(m, POW5[(j - 20) as usize]);
        let (q, q_wide, _) = shift_right_256(high, low, (20 - k - j) as u32);
        if q_wide || q >= q_upper {
            big_e += 1;
        } else if q < q_lower {
            big_e -= 1;
        } else {
            break (q, j);
        }
    };
    let (high, low) = widening_mul(m, POW5[j as usize]);
    let (d_low, _, inexact) = shift_right_256(high, low, (-(k + j)) as u32);
    let (mut q, mut r, mut exp) = (q, d_low.wrapping_sub(q.wrapping_mul(TEN_20)), big_e + 1);
    if away && inexact {
        r += 1;
        if r == TEN_20 {
            r = 0;
            q += 1;
            if q == q_upper {
                q = q_lower;
                exp += 1;
            }
        }
    }
    Some((q, r, exp))
}

/// `⌊(high·2^128 + low)/2^s⌋` modulo `2^128`, whether it is `2^128` or more, and whether it is
/// inexact (bits shifted out), for `s < 256`.
#[inline(always)]
fn shift_right_256(high: u128, low: u128, s: u32) -> (u128, bool, bool) {
    match s {
        0 => (low, high != 0, false),
        1..=63 => (
            (low >> s) | (high << (128 - s)),
            high >> s != 0,
            low << (128 - s) != 0,
        ),
        // The usual case: with `t = s - 64`, the quotient's low 128 bits are the limbs
        // `h0:l1` (of `high = h1:h0`, `low = l1:l0`) shifted right by `t` with `h1`'s low bits
        // coming in, in 64-bit shifts only (`(x << 1) << (63 - t)` is `x << (64 - t)` modulo
        // `2^64`, also for `t = 0`).
        64..=127 => {
            let t = s - 64;
            let (h1, h0) = ((high >> 64) as u64, high as u64);
            let (l1, l0) = ((low >> 64) as u64, low as u64);
            let quotient_low = (l1 >> t) | ((h0 << 1) << (63 - t));
            let quotient_high = (h0 >> t) | ((h1 << 1) << (63 - t));
            (
                (u128::from(quotient_high) << 64) | u128::from(quotient_low),
                h1 >> t != 0,
                l0 != 0 || (l1 << 1) << (63 - t) != 0,
            )
        }
        _ => (
            high >> (s - 128),
            false,
            low != 0 || (s > 128 && high << (256 - s) != 0),
        ),
    }
}

/// The twenty digits of `v < 10^20` (leading zeros kept) into `out`: `v = a·10^10 + b` with
/// `a = ⌊⌊v/2^10⌋/5^10⌋` in 64-bit arithmetic (`⌊v/2^10⌋ < 2^57`), then ten digits of each.
#[inline(always)]
fn write_20(v: u128, out: &mut [u8]) {
    const TEN_10: u64 = 10_000_000_000;
    let a = ((v >> 10) as u64) / 9_765_625;
    let b = (v - u128::from(a) * u128::from(TEN_10)) as u64;
    write_10(a, &mut out[..10]);
    write_10(b, &mut out[10..20]);
}

/// The ten digits of `v < 10^10` (leading zeros kept) into `out[..10]`.
#[inline(always)]
fn write_10(v: u64, out: &mut [u8]) {
    const TEN_8: u64 = 100_000_000;
    let (top, low) = ((v / TEN_8) as usize, (v % TEN_8) as u32);
    out[..2].copy_from_slice(&PAIRS[2 * top..2 * top + 2]);
    write_4(low / 10_000, &mut out[2..6]);
    write_4(low % 10_000, &mut out[6..10]);
}

/// [`push_decimal`] for `21 ≤ digits ≤ 40` and a regular `x` of at most 128 bits whose digits
/// [`split_digits`] gives; `None` (nothing written) otherwise.
fn push_split_decimal(x: &Float, digits: usize, round: Round, out: &mut Vec<u8>) -> Option<()> {
    if !(21..=40).contains(&digits) || !x.is_normal() {
        return None;
    }
    let negative = x.is_sign_negative();
    let (m, e) = Short::magnitude_of(x)?.parts();
    // Away from zero in magnitude: toward +∞ for a positive x, toward −∞ for a negative one.
    let away = (round != Round::Down) != negative;
    let (q, r, exp) = split_digits(m, e, digits, away)?;
    lay_out_split(q, r, exp, negative, digits, out);
    Some(())
}

/// Appends the text of `±(q·10^20 + r)·10^(exp - digits)` (`digits` significant digits, `q` the
/// first `digits - 20` of them, as [`split_digits`] gives them) as `[-]d.ddd…e[-]N`; returns the
/// offset of `r`'s twenty digits from the start of the text.
fn lay_out_split(
    q: u128,
    r: u128,
    exp: i64,
    negative: bool,
    digits: usize,
    out: &mut Vec<u8>,
) -> usize {
    // The text is laid out in `buf`: the forty digits of `q` and `r` at 20..60, so that the
    // `digits` significant ones are `buf[60 - digits..60]`; the first of them moves one place
    // left for the point, the sign before it; `e` and the exponent after them.
    let mut buf = [0u8; 72];
    write_20(q, &mut buf[20..40]);
    write_20(r, &mut buf[40..60]);
    let first = 60 - digits;
    buf[first - 1] = buf[first];
    buf[first] = b'.';
    let mut start = first - 1;
    if negative {
        start -= 1;
        buf[start] = b'-';
    }
    buf[60] = b'e';
    // The exponent `exp - 1` is `E` or `E + 1`, `-36 ≤ E ≤ 19` here: at most two digits.
    let written = exp - 1;
    let mut end = 61;
    if written < 0 {
        buf[end] = b'-';
        end += 1;
    }
    let magnitude = written.unsigned_abs() as usize;
    if magnitude >= 10 {
        buf[end..end + 2].copy_from_slice(&PAIRS[2 * magnitude..2 * magnitude + 2]);
        end += 2;
    } else {
        buf[end] = b'0' + magnitude as u8;
        end += 1;
    }
    out.extend_from_slice(&buf[start..end]);
    40 - start
}

/// The last twenty digits `r` of `|x| = m·2^(e-128)` at `n` digits (`21 ≤ n ≤ 40`), rounded
/// toward zero, or away from zero if `away`, given that its first `n - 20` digits are `q` and its
/// decimal exponent `exp` (those of [`split_digits`] for a number near `|x|`: the other end of
/// an enclosure); `None` if they are not, or `|x|` is outside [`split_digits`]' range, or
/// rounding away carries into `q`.
///
/// With `j = n - exp` (`= n - 1 - E`), `D = ⌊|x|·10^j⌋ = ⌊m·5^j/2^s⌋` (`s = -(k + j)`, `k = e -
/// 128`) is formed whole (below `2^256`) and `r = D - q·10^20` in 256-bit arithmetic: `0 ≤ r <
/// 10^20` says that `q = ⌊D/10^20⌋`, hence (`10^(n-21) ≤ q < 10^(n-20)`, as `split_digits` gives
/// it) `10^(n-1) ≤ D < 10^n`, which characterises `E`: the digits and exponent are
/// `split_digits`' own for `|x|`. Rounding away from zero adds one to an inexact `D`.
fn last_digits_given(m: u128, e: i64, n: usize, away: bool, q: u128, exp: i64) -> Option<u128> {
    let k = e - 128;
    let j = n as i64 - exp;
    if !(20..=55).contains(&j) || k + j > 0 || -(k + j) >= 256 {
        return None;
    }
    let s = (-(k + j)) as u32;
    let (high, low) = widening_mul(m, POW5[j as usize]);
    let (d_low, _, inexact) = shift_right_256(high, low, s);
    let d_high = if s < 128 { high >> s } else { 0 };
    let (q_high, q_low) = widening_mul(q, TEN_20);
    let (r, borrow) = d_low.overflowing_sub(q_low);
    if d_high.wrapping_sub(q_high).wrapping_sub(u128::from(borrow)) != 0 || r >= TEN_20 {
        return None;
    }
    match away && inexact {
        true if r + 1 == TEN_20 => None,
        true => Some(r + 1),
        false => Some(r),
    }
}

/// Appends [`push_decimal`]'s text of `lower` rounded toward −∞, `separator`, and its text of
/// `upper` rounded toward +∞ (the same bytes); returns where `upper`'s text begins. The ends of a
/// tight enclosure (of one sign, relative width far below `10^-20`) usually share their first
/// `digits - 20` digits and their exponent: where [`split_digits`] gives `lower`'s and
/// [`last_digits_given`] finds that `upper` has the same, `upper`'s text is `lower`'s with its
/// last twenty digits replaced.
pub(crate) fn push_decimal_pair(
    lower: &Float,
    upper: &Float,
    digits: usize,
    separator: u8,
    out: &mut Vec<u8>,
) -> usize {
    if let Some(at) = push_split_pair(lower, upper, digits, separator, out) {
        return at;
    }
    push_decimal(lower, digits, Round::Down, out);
    out.push(separator);
    let at = out.len();
    push_decimal(upper, digits, Round::Up, out);
    at
}

/// [`push_decimal_pair`] where the ends share their first digits; `None` (nothing written)
/// otherwise.
fn push_split_pair(
    lower: &Float,
    upper: &Float,
    digits: usize,
    separator: u8,
    out: &mut Vec<u8>,
) -> Option<usize> {
    if !(21..=40).contains(&digits)
        || !lower.is_normal()
        || !upper.is_normal()
        || lower.is_sign_negative() != upper.is_sign_negative()
    {
        return None;
    }
    let negative = lower.is_sign_negative();
    let (m_lower, e_lower) = Short::magnitude_of(lower)?.parts();
    let (m_upper, e_upper) = Short::magnitude_of(upper)?.parts();
    // Toward −∞ is away from zero for a negative lower end; toward +∞ for a positive upper end.
    let (q, r_lower, exp) = split_digits(m_lower, e_lower, digits, negative)?;
    let r_upper = last_digits_given(m_upper, e_upper, digits, !negative, q, exp)?;
    let start = out.len();
    let r_at = lay_out_split(q, r_lower, exp, negative, digits, out);
    out.push(separator);
    let at = out.len();
    out.extend_from_within(start..at - 1);
    write_20(r_upper, &mut out[at + r_at..at + r_at + 20]);
    Some(at)
}

/// Appends `x` with `digits` significant digits, rounded toward −∞ if `round` is
/// [`Round::Down`], else toward +∞ (`mpfr_get_str` is correctly rounded in that direction;
/// `digits` below 2 are read as 2), as `[-]d.ddd…e[-]N` (ASCII; trailing zeros kept): `inf`,
/// `-inf`, `0` as such. The digits come from [`split_digits`] where it applies (21 to 40 digits,
/// `|x|` from about `10^-16` to `10^19` at 40 digits), else from [`directed_digits`] where it
/// applies, else from MPFR (read directly: rug's formatter reserves memory in proportion to the
/// exponent; only this last case depends on MPFR's exponent range, which it widens first).
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
    if push_split_decimal(x, digits, round, out).is_some() {
        return;
    }
    if let Some(d) = directed_digits(x, digits, round) {
        push_scientific(d.negative, d.digits(), d.exp, out);
        return;
    }
    // MPFR's conversion works within the thread's exponent range, which must hold `x`'s.
    crate::arith::mpfr::widen_exponent_range();
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
    use crate::arith::mpfr::{down, up, widen_exponent_range};
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

    /// Values for the split path: random mantissas of 1 to 200 bits over binary exponents ±200
    /// (`10^-60` to `10^60`: the path's range at 21 to 40 digits and beyond it on both sides), and
    /// numbers at and next to the 40-digit decimals `Q·10^20·10^(E-39)` (`E` from -18 to 21, the
    /// last twenty digits zero), rounded down and up at 53 to 128 bits, where rounding away from
    /// zero carries from the last twenty digits into the first (and at `Q = 10^20 - 1` into the
    /// next power of ten).
    fn split_test_values() -> Vec<Float> {
        let mut rng = ChaCha8Rng::seed_from_u64(2020);
        let mut values = Vec::new();
        for _ in 0..30_000 {
            let prec = rng.gen_range(1..=200u32);
            let bits = rng.gen_range(1..=200u32).min(prec);
            let mut f = Float::with_val(prec, rug::Integer::from(rng.gen::<u128>()) << 72u32);
            f += rug::Integer::from(rng.gen::<u128>());
            // Keep `bits` significant bits (fewer than the precision: short mantissas too).
            let shift = 200 - bits;
            f >>= shift;
            f = f.floor();
            f += 1u32;
            let e: i32 = rng.gen_range(-200..=200);
            let top = f.get_exp().unwrap_or(0);
            f <<= e - top;
            values.push(f);
        }
        for big_e in -18i32..=21 {
            for round in 0..8 {
                let q = if round == 0 {
                    rug::Integer::from(10).pow(20) - 1u32
                } else {
                    rug::Integer::from(rng.gen_range(10u128.pow(19)..10u128.pow(20)))
                };
                let n = q * rug::Integer::from(10).pow(20);
                let exact = Float::with_val(2000, n) * Float::with_val(2000, 10).pow(big_e - 39);
                for prec in [53, 64, 100, 103, 127, 128] {
                    let mut lo = down(prec, &exact);
                    let mut hi = up(prec, &exact);
                    values.push(lo.clone());
                    values.push(hi.clone());
                    lo.next_down();
                    hi.next_up();
                    values.push(lo);
                    values.push(hi);
                }
            }
        }
        values
    }

    /// [`split_digits`]'s two halves are MPFR's `mpfr_get_str` digits and exponent at 21 to 40
    /// digits, in both directions and for both signs, on [`split_test_values`] and
    /// [`test_values`]; it answers on most of them and leaves the rest (more than 128 bits,
    /// magnitudes outside its range) to the other paths.
    #[test]
    fn split_digits_match_mpfr() {
        widen_exponent_range();
        let mut values = split_test_values();
        values.extend(test_values());
        let mut answered = [0usize; 2];
        let mut carries = [0usize; 2];
        for x in values {
            for x in [x.clone(), Float::with_val(x.prec(), -&x)] {
                let parts = Short::magnitude_of(&x).map(Short::parts);
                for digits in [21, 22, 25, 33, 39, 40] {
                    for round in [Round::Down, Round::Up] {
                        let away = (round != Round::Down) != x.is_sign_negative();
                        let split = parts.and_then(|(m, e)| split_digits(m, e, digits, away));
                        answered[usize::from(split.is_some())] += 1;
                        let Some((q, r, exp)) = split else { continue };
                        // Carries of rounding away: from the last twenty digits into the
                        // first ([1]), and on into the next power of ten ([0]).
                        if away && r == 0 {
                            let (m, e) = parts.expect("answered");
                            let (_, down_r, _) = split_digits(m, e, digits, false).unwrap();
                            if down_r == TEN_20 - 1 {
                                carries[usize::from(q != POW10_20[digits - 21])] += 1;
                            }
                        }
                        let sign = if x.is_sign_negative() { "-" } else { "" };
                        assert_eq!(
                            (format!("{sign}{q}{r:020}"), exp),
                            mpfr_digits(&x, digits, round),
                            "x = {x:?} (prec {}), {digits} digits, {round:?}",
                            x.prec()
                        );
                    }
                }
            }
        }
        // Each outcome is common (the path's range is about 35 of the values' 120 decades), and
        // both carries occur.
        assert!(
            answered[1] > 300_000 && answered[0] > 300_000,
            "{answered:?}"
        );
        assert!(carries[0] > 1000 && carries[1] > 50, "{carries:?}");
    }

    /// The twenty-digit halves are `format!("{:020}")`'s, on powers of ten and their neighbours
    /// and random values below `10^20`.
    /// [`push_decimal_pair`] writes [`push_decimal`]'s two texts (checked against MPFR by
    /// `text_is_mpfr_digits_laid_out`) around the separator: for each of [`split_test_values`]
    /// and [`test_values`] (both signs) as one end, the other end at relative distances `2^-130`
    /// to `2^-40` above and below (on both sides: an enclosure's ends, then the pairs that share
    /// no digits, reversed and of either sign), ends whose forty digits differ by a multiple of
    /// `2^128` (the same low 128 bits), itself, and an infinite or zero other end; at 21,
    /// 33 and 40 digits. The shared path must answer on four in five of the pairs less than
    /// `2^-80` apart (else the test would not test it; it declines where rounding away carries
    /// into the first digits, which `split_test_values` seeks out).
    #[test]
    fn pair_is_the_two_texts() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(4040);
        let mut values = split_test_values();
        values.truncate(20_000);
        values.extend(test_values().into_iter().step_by(3));
        let (mut shared, mut tight) = (0usize, 0usize);
        for x in values {
            for x in [x.clone(), Float::with_val(x.prec(), -&x)] {
                let mut others = Vec::new();
                for _ in 0..3 {
                    let prec = rng.gen_range(53..=128u32);
                    let shift = rng.gen_range(40..=130u32);
                    let step = Float::with_val(prec, &x) >> shift;
                    // Tight: below `10^-23` apart, so that the first twenty digits differ only
                    // near a boundary.
                    let close = shift >= 80;
                    others.push((Float::with_val(prec, &x + &step), close));
                    others.push((Float::with_val(prec, &x - &step), close));
                }
                // `D` (the forty digits as an integer) moved by a multiple of `2^128`: the same
                // low 128 bits up to a few units, other first digits.
                if let Some((_, _, exp)) = Short::magnitude_of(&x)
                    .and_then(|m| split_digits(m.parts().0, m.parts().1, 40, false))
                {
                    let unit = Float::with_val(400, 10).pow(exp - 40);
                    for t in [1i32, 2, -1] {
                        let moved = Float::with_val(400, &x + (unit.clone() << 128u32) * t);
                        others.push((Float::with_val(128, &moved), false));
                    }
                }
                others.push((x.clone(), true));
                others.push((Float::with_val(x.prec(), -&x), false));
                others.push((Float::with_val(53, f64::INFINITY), false));
                others.push((Float::with_val(53, 0.0), false));
                for (y, close) in others {
                    for digits in [21, 33, 40] {
                        for (lower, upper) in [(&x, &y), (&y, &x)] {
                            let mut expected = b"#".to_vec();
                            push_decimal(lower, digits, Round::Down, &mut expected);
                            expected.push(b',');
                            let at = expected.len();
                            push_decimal(upper, digits, Round::Up, &mut expected);
                            let mut got = b"#".to_vec();
                            let got_at = push_decimal_pair(lower, upper, digits, b',', &mut got);
                            assert_eq!(
                                (String::from_utf8_lossy(&got), got_at),
                                (String::from_utf8_lossy(&expected), at),
                                "{lower:?} {upper:?} {digits}"
                            );
                            if close && lower <= upper && split_test_range(lower, digits) {
                                tight += 1;
                                let mut out = Vec::new();
                                shared += usize::from(
                                    push_split_pair(lower, upper, digits, b',', &mut out).is_some(),
                                );
                            }
                        }
                    }
                }
            }
        }
        assert!(
            shared * 5 > tight * 4,
            "shared on {shared} of {tight} tight pairs"
        );
    }

    /// `x` is in [`split_digits`]' range at `digits` digits (a regular float of at most 128 bits
    /// that it answers for).
    fn split_test_range(x: &Float, digits: usize) -> bool {
        x.is_normal()
            && Short::magnitude_of(x)
                .is_some_and(|m| split_digits(m.parts().0, m.parts().1, digits, false).is_some())
    }

    /// [`shift_right_256`] against GMP's integers: every shift below 256, on random 256-bit
    /// values of every length (high bits cleared at random) and on `2^k` and `2^k - 1`.
    #[test]
    fn shifts_are_gmps() {
        use rug::Integer;
        let mut rng = ChaCha8Rng::seed_from_u64(256);
        let mut values: Vec<(u128, u128)> = (0..3000)
            .map(|_| {
                let clear = rng.gen_range(0..256u32);
                let (high, low) = (rng.gen::<u128>(), rng.gen::<u128>());
                match clear {
                    0..=127 => (high >> clear, low),
                    _ => (0, low >> (clear - 128)),
                }
            })
            .collect();
        for k in 0..256u32 {
            let power = (Integer::from(1) << k).to_u128_wrapping();
            let (high, low) = if k < 128 {
                (0, power)
            } else {
                (1u128 << (k - 128), 0)
            };
            values.push((high, low));
            values.push(if k < 128 {
                (0, power.wrapping_sub(1))
            } else {
                (high - 1, u128::MAX)
            });
        }
        for (high, low) in values {
            let n = (Integer::from(high) << 128u32) + Integer::from(low);
            for s in 0..256u32 {
                let quotient = Integer::from(&n >> s);
                let expected = (
                    quotient.to_u128_wrapping(),
                    quotient.significant_bits() > 128,
                    Integer::from(&quotient << s) != n,
                );
                assert_eq!(shift_right_256(high, low, s), expected, "{high} {low} {s}");
            }
        }
    }

    #[test]
    fn twenty_digit_halves() {
        let mut rng = ChaCha8Rng::seed_from_u64(20);
        let mut values = vec![0u128, TEN_20 - 1];
        for k in 0..20 {
            let p = 10u128.pow(k);
            values.extend([p - 1, p, p + 1]);
        }
        values.extend((0..100_000).map(|_| rng.gen_range(0..TEN_20)));
        for v in values {
            let mut out = [0u8; 20];
            write_20(v, &mut out);
            assert_eq!(std::str::from_utf8(&out).unwrap(), format!("{v:020}"));
        }
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
                for digits in [1, 2, 3, 17, 21, 39, 40, 41, 60] {
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
