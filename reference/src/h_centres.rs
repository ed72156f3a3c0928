//! `h(-x)` for `0 ≤ x ≤ 8` from centred Taylor expansions on fixed-point integers (MATH.md,
//! "Expected improvement": `h(z) = zΦ(z) + φ(z)`, `h' = Φ`, `h'' = φ`).
//!
//! Around each centre `c = j/128` (`j = 0, …, 1024`), with `s = c - x` (`|s| ≤ 1/256` at the
//! nearest centre),
//!
//! ```text
//! h(-x) = φ(c)·T(s),   T(s) = h(-c + s)/φ(c) = A0 + A1·s + Σ_{k≥2} b_k·s^k,
//! A0 = h(-c)/φ(c),  A1 = Φ(-c)/φ(c),  b_k = p_{k-2}/(k(k-1)),
//! ```
//!
//! where `p_m` are the Taylor coefficients of `φ(-c + s)/φ(c) = e^{cs - s²/2}` (`h'' = φ`):
//! `p_0 = 1`, `p_1 = c`, `(m + 1)·p_{m+1} = c·p_m - p_{m-1}`. In terms of the `b_k`:
//! `b_2 = 1/2` and `b_{k+1} = (k·(c·b_k) - (k - 2)·b_{k-1})/(k(k + 1))`; with `c = j/128`,
//! `c·b_k` is a product by a small integer and a shift. Only `A0`, `A1` and `φ(c)` are tabulated (`h_centres_table.rs`, generated and
//! checked by `tests::table_is_the_stated_rounding` with MPFR at 400 bits).
//!
//! Fixed point: `T`, `s`, `A0`, `A1` as integers times `2^-126` (`i128`), the `b_k` and the
//! inner sum `P(s) = Σ_{k=2}^{K} b_k·s^{k-2}` times `2^-118` (their errors reach `T` multiplied
//! by `s² ≤ 2^-16`), and from `b_10` on (multiplied by `|s|^10 ≤ 2^-80`) times `2^-52` in
//! `i64`. The products are [`mul_high`], `⌊a·b/2^128⌋` (exact floor), and in the
//! coefficients and the inner sum [`mul_high_approx`] (at most 2 below it). The error
//! analysis (proof note §4.5) bounds `|T̃ - T(s)|` by 3 units of `2^-126` and the relative
//! width of the returned enclosure of `h(-x)` by `2^-116`.

use crate::arith::short_float::{widening_mul, Short};
use crate::arith::wide_float::Wide;
use crate::h_centres_table::CENTRES;

/// The largest `x` served (the last centre, `1024/128`).
#[cfg(test)]
const X_MAX: f64 = 8.0;
/// Fractional bits of `T`, `s`, `A0`, `A1`.
const FRAC: u32 = 126;
/// Fractional bits of the coefficients `b_k` and of the inner sum `P`.
const FRAC_B: u32 = 118;
/// The largest number of terms (`b_2 … b_K`, `K ≤ 16`).
const MAX_TERMS: usize = 16;
/// The first coefficient of the 64-bit tier: `b_k` for `k ≥ 10` reach `T` multiplied by
/// `|s|^k ≤ 2^-80`, so 52 fractional bits suffice.
const LOW_FROM: usize = 10;
/// Fractional bits of the coefficients `b_k`, `k ≥ 9`, in the 64-bit tier.
const FRAC_LOW: u32 = 52;
/// The bound on `|T̃(s) - T(s)|` in units of `2^-126` (proof note §4.5 step 5).
const T_ERROR: i128 = 3;

/// `⌊2^128/(k(k + 1))⌋` for `k = 2, …, 15` (`k(k + 1)` has an odd factor, so this is
/// `⌊(2^128 - 1)/(k(k + 1))⌋`), below `2^127`.
const RECIPROCALS: [i128; MAX_TERMS] = {
    let mut r = [0i128; MAX_TERMS];
    let mut k = 2;
    while k < MAX_TERMS {
        r[k] = (u128::MAX / ((k as u128) * (k as u128 + 1))) as i128;
        k += 1;
    }
    r
};

/// `⌊2^63/(k(k + 1))⌋` for `k = 2, …, 15`, the 64-bit tier's reciprocals.
const RECIPROCALS_LOW: [i64; MAX_TERMS] = {
    let mut r = [0i64; MAX_TERMS];
    let mut k = 2;
    while k < MAX_TERMS {
        r[k] = ((1u64 << 63) / ((k as u64) * (k as u64 + 1))) as i64;
        k += 1;
    }
    r
};

/// `⌊a·b/2^128⌋` for signed 128-bit `a`, `b`, exactly (the high half of the 256-bit product,
/// rounded toward −∞).
#[inline(always)]
pub(crate) fn mul_high(a: i128, b: i128) -> i128 {
    // With a = A - 2^128·[a < 0] (A = a mod 2^128, likewise B):
    // ⌊a·b/2^128⌋ = ⌊A·B/2^128⌋ - [a < 0]·B - [b < 0]·A (mod 2^128, exact: the terms removed
    // are whole multiples of 2^128, and the result lies in i128's range).
    let (ua, ub) = (a as u128, b as u128);
    let (a0, a1) = (ua as u64, (ua >> 64) as u64);
    let (b0, b1) = (ub as u64, (ub >> 64) as u64);
    let ll = u128::from(a0) * u128::from(b0);
    let lh = u128::from(a0) * u128::from(b1);
    let hl = u128::from(a1) * u128::from(b0);
    let hh = u128::from(a1) * u128::from(b1);
    let (mid, c1) = lh.overflowing_add(hl);
    let (mid, c2) = mid.overflowing_add(ll >> 64);
    let high = hh + (mid >> 64) + ((u128::from(c1) + u128::from(c2)) << 64);
    let high = high.wrapping_sub(ub & ((a >> 127) as u128));
    high.wrapping_sub(ua & ((b >> 127) as u128)) as i128
}

/// `⌊a·b/2^128⌋` less 0, 1 or 2 (`a·b/2^128 - 3 < result ≤ a·b/2^128`), for signed 128-bit
/// `a`, `b`, from three of the four 64-bit partial products: with `a = a1·2^64 + a0`,
/// `b = b1·2^64 + b0` (`a1`, `b1` signed, `a0`, `b0` unsigned),
/// `a1·b1 + ⌊a1·b0/2^64⌋ + ⌊a0·b1/2^64⌋`; the dropped `a0·b0/2^128 ∈ [0, 1)` and the two floors
/// each lose less than 1. For the coefficients and the inner sum, whose errors reach `T` divided
/// by at least `2^16`.
#[inline(always)]
pub(crate) fn mul_high_approx(a: i128, b: i128) -> i128 {
    let (a0, a1) = (a as u64, (a >> 64) as i64);
    let (b0, b1) = (b as u64, (b >> 64) as i64);
    let hh = i128::from(a1) * i128::from(b1);
    let hl = i128::from(a1) * i128::from(b0);
    let lh = i128::from(a0) * i128::from(b1);
    hh + (hl >> 64) + (lh >> 64)
}

/// The number of terms `K` at centre `j` (`b_2 … b_K`): the truncation after `s^K` is below
/// `2^-127` for `|s| ≤ 2^-8·(1 + 2^-30)` (`tests::truncation_is_below_half_a_unit`).
pub(crate) const fn terms(j: usize) -> usize {
    13 + (j >= 150) as usize + (j >= 485) as usize + (j >= 918) as usize
}

/// The coefficients at centre `j/128`, in two tiers: `b̃_k ≈ b_k·2^118` (`i128`) for
/// `k = 2, …, 10` and `b̂_k ≈ b_k·2^52` (`i64`) for `k = 9, …, terms(j)` (other entries 0).
/// `b̃_2 = 2^117` exactly, `b̃_{k+1} ≈ N·R_k/2^128` with `N = k·⌊c·b̃_k⌋ - (k - 2)·b̃_{k-1}`
/// (exact: `|N| < 2^127`, formed in wrapping arithmetic), `R_k` of [`RECIPROCALS`] and the
/// product by [`mul_high_approx`]; `b̂_9 = ⌊b̃_9/2^66⌋`, `b̂_10 = ⌊b̃_10/2^66⌋`, then the same
/// step in 64 bits, `b̂_{k+1} = ⌊n·R'_k/2^63⌋` with `n = k·⌊c·b̂_k⌋ - (k - 2)·b̂_{k-1}` (below
/// `2^63`) and `R'_k` of [`RECIPROCALS_LOW`]. Their errors are checked against exact rationals
/// at every centre (`tests::coefficients_are_within_their_bound`).
#[inline(always)]
pub(crate) fn coefficients(j: usize) -> ([i128; LOW_FROM + 1], [i64; MAX_TERMS + 1]) {
    let mut b = [0i128; LOW_FROM + 1];
    b[2] = 1 << (FRAC_B - 1);
    let jj = i128::from(j as u64);
    for k in 2..LOW_FROM {
        // c·b̃_k rounded down, exactly: with b̃_k = 128q + r (0 ≤ r < 128),
        // ⌊j·b̃_k/128⌋ = j·q + ⌊j·r/128⌋.
        let cb = (b[k] >> 7) * jj + (((b[k] & 127) * jj) >> 7);
        let n = cb
            .wrapping_mul(i128::from(k as u64))
            .wrapping_sub(b[k - 1].wrapping_mul(i128::from((k - 2) as u64)));
        b[k + 1] = mul_high_approx(n, RECIPROCALS[k]);
    }
    let mut low = [0i64; MAX_TERMS + 1];
    let shift = FRAC_B - FRAC_LOW;
    low[LOW_FROM - 1] = (b[LOW_FROM - 1] >> shift) as i64;
    low[LOW_FROM] = (b[LOW_FROM] >> shift) as i64;
    let j64 = j as i64;
    for k in LOW_FROM..terms(j).min(MAX_TERMS) {
        let cb = (low[k] >> 7) * j64 + (((low[k] & 127) * j64) >> 7);
        let n = k as i64 * cb - (k as i64 - 2) * low[k - 1];
        low[k + 1] = ((i128::from(n) * i128::from(RECIPROCALS_LOW[k])) >> 63) as i64;
    }
    (b, low)
}

/// `⌊w·2^k⌋ mod 2^128` and whether `w·2^k` is not an integer, for `w·2^k < 2^256` with
/// `192 - e - k ≥ 0` (`e` the exponent of `w`); `None` otherwise. (Test-only: EI forms these
/// integers by [`fixed_distance`]'s long division.)
#[cfg(test)]
fn scaled_floor(w: Wide, k: i64) -> Option<(u128, bool)> {
    if w.is_zero() {
        return Some((0, false));
    }
    let (m, e) = w.limbs();
    let (top, low) = (
        u128::from(m[2]),
        (u128::from(m[1]) << 64) | u128::from(m[0]),
    );
    match 192 - e - k {
        0 => Some((low, false)),
        shift => shift_right((top, low), shift),
    }
}

/// The fixed-point evaluation at centre `j` and `S = s·2^128` (`|s| ≤ 2^-8 + 2^-124`):
/// `T̃ = Ã0 + ⌊s·(Ã1 + ⌊s·P̃·2^126⌋·2^-126)·2^126⌋`, `P̃` by Horner's rule on the `b̃_k`
/// (products by [`mul_high_approx`]), as an integer times `2^-126`; `|T̃ - T(s)| ≤ 3·2^-126`
/// (proof note §4.5).
#[inline(always)]
fn t_fixed(j: usize, s: i128) -> i128 {
    let (a0, a1, _, _) = CENTRES[j];
    let (b, low) = coefficients(j);
    let k_max = terms(j).min(MAX_TERMS);
    // G = Σ_{k≥10} b_k·s^{k-10} in the 64-bit tier (s rounded down to a multiple of 2^-64),
    // then the rest of Horner's rule from b_9 down.
    let s64 = (s >> 64) as i64;
    let mut g = low[k_max];
    for k in (LOW_FROM..k_max).rev() {
        g = low[k] + ((i128::from(s64) * i128::from(g)) >> 64) as i64;
    }
    let mut acc = i128::from(g) << (FRAC_B - FRAC_LOW);
    for k in (2..LOW_FROM).rev() {
        acc = b[k] + mul_high_approx(s, acc);
    }
    let q = a1 as i128 + mul_high(s, acc << (FRAC - FRAC_B));
    a0 as i128 + mul_high(s, q)
}

/// `σ·h(-x)` enclosed for `x ∈ [x_lo, x_hi]`, `0 ≤ x_lo ≤ x_hi ≤ 8`, and a double `σ > 0`, as
/// `(lower, upper)` of 128 bits, from the centred expansion at the centre nearest `x_lo`;
/// `None` outside that domain.
///
/// # Definition and accuracy
/// `h(z) = zΦ(z) + φ(z)` (MATH.md, "Expected improvement"). The enclosure is certified (proof
/// note §4.5: table rounding, truncation, fixed-point errors, the width of `x` through
/// `|dh(-x)/dx| = Φ(-x)`, the products rounded outward); its relative width is at most
/// `2^-116` when `x_hi - x_lo < 2^-126` (e.g. `x = |d|/σ` rounded both ways at 192 bits).
/// Checked against MPFR's `erfc` form at 400 bits (`tests::encloses_mpfr_h`). Test-only: it
/// is the kernel's entry for an arbitrary enclosed `x`, through which the tests check it; EI
/// enters from `|d|` and `σ` by [`fixed_distance`].
#[cfg(test)]
pub(crate) fn scaled_h_neg_centred(x_lo: Wide, x_hi: Wide, sigma: f64) -> Option<(Wide, Wide)> {
    if x_hi > Wide::from_f64_magnitude(X_MAX) || x_lo > x_hi {
        return None;
    }
    // x_lo, x_hi as integers times 2^-126, rounded down and up, modulo 2^128.
    let (f, _) = scaled_floor(x_lo, 8)?;
    let (lo, _) = scaled_floor(x_lo, i64::from(FRAC))?;
    let (hi, hi_inexact) = scaled_floor(x_hi, i64::from(FRAC))?;
    scaled_from_fixed(f, lo, hi.wrapping_add(u128::from(hi_inexact)), sigma)
}

/// `scaled_h_neg_centred` (the test entry) for `x = |d|/σ` itself (`|d|` a [`Wide`], `σ > 0` a double):
/// `⌊256x⌋`, `⌊x·2^126⌋` and `⌈x·2^126⌉` from one exact long division (`fixed_distance`), the
/// same integers as from `|d|/σ` rounded down and up at 192 bits (`Wide::div_both`; a number
/// `k·2^-126` below `x` is representable at 192 bits for `x < 8`, so `RD_192(x)` lies between it
/// and `x`, likewise upward), hence the same enclosure
/// (`tests::fixed_distance_is_the_rounded_quotient`). `None` for `x > 6`.
pub(crate) fn scaled_h_neg_of_distance(d: Wide, sigma: f64) -> Option<(Wide, Wide)> {
    let (f, lo, hi) = fixed_distance(d, sigma)?;
    scaled_from_fixed(f, lo, hi, sigma)
}

/// `(⌊256x⌋, ⌊x·2^126⌋ mod 2^128, ⌈x·2^126⌉ mod 2^128)` for `x = d/σ ≤ 8` (`d ≥ 0` a [`Wide`],
/// `σ > 0` a finite double); `None` for `x > 6` or another `σ`. With `d = m·2^(e-192)` (`m` of
/// 192 bits) and `σ = σ_o·2^(e_σ-64+t)` (`σ_o` odd, below `2^53`), `x·2^k = (m/σ_o)·2^(e - e_σ -
/// 128 - t + k)`: `m = Q·σ_o + r` by schoolbook division with 64-bit digits (each partial
/// dividend below `2^117`), and for a negative exponent `-n` (every `x < 8`: `Q ≥ 2^138`),
/// `⌊x·2^k⌋ = ⌊Q/2^n⌋` (`⌊(Q + r/σ_o)/2^n⌋`, `0 ≤ r/σ_o < 1`), inexact iff `r ≠ 0` or bits of `Q`
/// are shifted out.
fn fixed_distance(d: Wide, sigma: f64) -> Option<(u128, u128, u128)> {
    if !(sigma > 0.0) || !sigma.is_finite() {
        return None;
    }
    if d.is_zero() {
        return Some((0, 0, 0));
    }
    let (m, e) = d.limbs();
    let (sl, e_sigma) = Wide::from_f64_magnitude(sigma).limbs();
    let t = sl[2].trailing_zeros();
    let odd = u128::from(sl[2] >> t);
    // x < 2^(e - e_σ + 1): beyond 32, certainly above 6 (and 256x would not fit).
    if e - e_sigma > 4 {
        return None;
    }
    let mut q = [0u64; 3];
    let mut r = 0u128;
    for i in (0..3).rev() {
        let current = (r << 64) | u128::from(m[i]);
        q[i] = (current / odd) as u64;
        r = current % odd;
    }
    let quotient = (
        u128::from(q[2]),
        (u128::from(q[1]) << 64) | u128::from(q[0]),
    );
    let shift = |k: i64| 128 + i64::from(t) - k - e + e_sigma;
    let (f, f_inexact) = shift_right(quotient, shift(8))?;
    if f > 2048 || (f == 2048 && (f_inexact || r != 0)) {
        return None;
    }
    let (lo, inexact) = shift_right(quotient, shift(i64::from(FRAC)))?;
    let hi = lo.wrapping_add(u128::from(inexact || r != 0));
    Some((f, lo, hi))
}

/// `⌊n/2^k⌋ mod 2^128` for the 256-bit `n = (high, low)` and `k ≥ 1`, and whether bits were
/// shifted out; `None` for `k ≤ 0`.
fn shift_right((top, low): (u128, u128), k: i64) -> Option<(u128, bool)> {
    Some(match k {
        1..=127 => ((low >> k) | (top << (128 - k)), low << (128 - k) != 0),
        128 => (top, low != 0),
        129..=255 => (top >> (k - 128), low != 0 || top << (256 - k) != 0),
        k if k >= 256 => (0, top != 0 || low != 0),
        _ => return None,
    })
}

/// `scaled_h_neg_centred` from `⌊256x⌋` and `x` rounded down and up to integers times `2^-126`
/// (modulo `2^128`), `x ≤ 8`.
fn scaled_from_fixed(f: u128, lo: u128, hi: u128, sigma: f64) -> Option<(Wide, Wide)> {
    if !(sigma > 0.0) || !sigma.is_finite() || f > 2048 {
        return None;
    }
    // The centre nearest x_lo: j = ⌊256·x_lo + 1⌋/2 ≤ 1024, |c - x_lo| ≤ 1/256. c - x is small,
    // so its value modulo 2^128 read as signed is the value itself.
    let j = ((f + 1) >> 1) as usize;
    let c = (j as u128).wrapping_mul(1 << (FRAC - 7));
    // s_a = c - x_hi ≤ c - x ≤ s_b = c - x_lo.
    let (s_a, s_b) = (c.wrapping_sub(hi) as i128, c.wrapping_sub(lo) as i128);
    let bound = (1i128 << (FRAC - 8)) + 4;
    if s_a.abs() > bound || s_b.abs() > bound || s_b - s_a > 64 {
        return None;
    }
    let t = t_fixed(j, s_a << (128 - FRAC));
    // T(s_a) ∈ [T̃ - 3, T̃ + 3]; T(s_b) ≤ T(s_a) + (s_b - s_a)·sup T', T' = Φ(-c + s)/φ(c) < 2.
    let t_lo = (t - T_ERROR) as u128;
    let t_hi = (t + T_ERROR + 2 * (s_b - s_a)) as u128;
    // φ(c) ∈ [m, m + 1]·2^(e-128); σ = σ_m·2^(e_σ-64) with 2^63 ≤ σ_m < 2^64.
    let (_, _, m, e) = CENTRES[j];
    let (sigma_limbs, e_sigma) = Wide::from_f64_magnitude(sigma).limbs();
    let sigma_m = u128::from(sigma_limbs[2]);
    // T·φ(c)·σ = t·2^-126·m·2^(e-128)·σ_m·2^(e_σ-64); the products t·m = M1·2^(128-z1) and
    // M1·σ_m = M2·2^(128-z2), each rounded to 128 bits, so the value is M2·2^(E-128) with
    // E = e + e_σ - z1 - z2 + 66.
    let (m1_lo, z1_lo) = mul_rounded(t_lo, m, false)?;
    let (m2_lo, z2_lo) = mul_rounded(m1_lo, sigma_m, false)?;
    // The upper end: t_hi·(m + 1) = t_hi·m + t_hi, rounded up.
    let (m1_hi, z1_hi) = mul_rounded_plus(t_hi, m, t_hi)?;
    let (m2_hi, z2_hi) = mul_rounded(m1_hi, sigma_m, true)?;
    let exponent = |z1: u32, z2: u32| i64::from(e) + e_sigma - i64::from(z1 + z2) + 66;
    Some((
        Wide::from_short(Short::from_parts(m2_lo, exponent(z1_lo, z2_lo))?),
        Wide::from_short(Short::from_parts(m2_hi, exponent(z1_hi, z2_hi))?),
    ))
}

/// `a·b + c` (`a·b + c < 2^256`, not below `2^128`) as `(M, z)`: `M` the top 128 bits of the
/// exact value shifted left by its `z` leading zeros (of 256), rounded down, or up if `up`
/// (then `None` if that carries out of 128 bits); `M·2^(128-z)` is the rounded value.
#[inline(always)]
fn mul_add_rounded(a: u128, b: u128, c: u128, up: bool) -> Option<(u128, u32)> {
    let (high, low) = widening_mul(a, b);
    let (low, carry) = low.overflowing_add(c);
    let high = high.checked_add(u128::from(carry))?;
    if high == 0 {
        return None;
    }
    let z = high.leading_zeros();
    let (m, rest) = if z == 0 {
        (high, low != 0)
    } else {
        ((high << z) | (low >> (128 - z)), low << z != 0)
    };
    if up && rest {
        return Some((m.checked_add(1)?, z));
    }
    Some((m, z))
}

/// [`mul_add_rounded`] with `c = 0`.
#[inline(always)]
fn mul_rounded(a: u128, b: u128, up: bool) -> Option<(u128, u32)> {
    mul_add_rounded(a, b, 0, up)
}

/// [`mul_add_rounded`] rounded up.
#[inline(always)]
fn mul_rounded_plus(a: u128, b: u128, c: u128) -> Option<(u128, u32)> {
    mul_add_rounded(a, b, c, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::mpfr::widen_exponent_range;
    use rand::{Rng, SeedableRng};
    use rug::float::Round;
    use rug::{Float, Integer, Rational};

    /// Precision of the reference computations.
    const REF: u32 = 400;

    /// `(Φ(-c)/φ(c), φ(c))` at `REF` bits for `c = j/128`, from MPFR's `erfc` and `exp`.
    fn mills_and_density(j: usize) -> (Float, Float) {
        let c = Float::with_val(REF, j) >> 7u32;
        let pi = Float::with_val(REF, rug::float::Constant::Pi);
        let phi = Float::with_val(REF, (-(c.clone().square()) / 2u32).exp())
            / Float::with_val(REF, 2u32 * pi).sqrt();
        let cdf = Float::with_val(REF, (c / Float::with_val(REF, 2u32).sqrt()).erfc()) / 2u32;
        (Float::with_val(REF, &cdf / &phi), phi)
    }

    /// `⌊v⌋` as a `u128`, after checking that `v` is at least `2^-200` from every integer or is
    /// one (so that the floor of the `REF`-bit value is the floor of the exact one, whose
    /// distance from `v` is far below `2^-200`).
    fn floor_checked(v: &Float, exact_integer_allowed: bool) -> u128 {
        let f = Float::with_val(REF, v.floor_ref());
        let frac = Float::with_val(REF, v - &f);
        let tiny = Float::with_val(REF, 1) >> 200u32;
        if !(exact_integer_allowed && frac.is_zero()) {
            assert!(frac > tiny && Float::with_val(REF, 1 - &frac) > tiny, "{v}");
        }
        f.to_integer().unwrap().to_u128().unwrap()
    }

    /// The table entry for centre `j`, computed with MPFR at `REF` bits.
    fn entry(j: usize) -> (u128, u128, u128, i32) {
        let (a1, phi) = mills_and_density(j);
        let c = Float::with_val(REF, j) >> 7u32;
        // A0 = h(-c)/φ(c) = (φ(c) - c·Φ(-c))/φ(c) = 1 - c·A1; exactly 1 at c = 0.
        let a0 = Float::with_val(REF, 1 - Float::with_val(REF, &c * &a1));
        let e = phi.get_exp().unwrap();
        (
            floor_checked(&(a0 << FRAC), j == 0),
            floor_checked(&(a1 << FRAC), false),
            floor_checked(&(phi << (128 - e)), false),
            e,
        )
    }

    /// Every entry of `h_centres_table.rs` is `(⌊A0·2^126⌋, ⌊A1·2^126⌋, m, e)` with
    /// `A0 = h(-c)/φ(c)`, `A1 = Φ(-c)/φ(c)`, `2^(e-1) ≤ φ(c) < 2^e`, `m = ⌊φ(c)·2^(128-e)⌋`
    /// (`2^127 ≤ m < 2^128`), `c = j/128`, recomputed with MPFR's `erfc` and `exp` at 400 bits.
    /// With `PBGI_WRITE_H_CENTRES=1` the file is written from these values instead.
    #[test]
    fn table_is_the_stated_rounding() {
        widen_exponent_range();
        let entries: Vec<_> = (0..=1024).map(entry).collect();
        if std::env::var("PBGI_WRITE_H_CENTRES").as_deref() == Ok("1") {
            let mut text = String::from(
                "//! The table of `h_centres.rs`: for `c = j/128`, `j = 0, …, 1024`, \
                 `(⌊A0·2^126⌋, ⌊A1·2^126⌋, m, e)`\n\
                 //! with `A0 = h(-c)/φ(c)`, `A1 = Φ(-c)/φ(c)`, `φ(c) ∈ [m, m + 1)·2^(e-128)`, \
                 `2^127 ≤ m < 2^128`.\n\
                 //! Generated by `h_centres::tests::table_is_the_stated_rounding` with \
                 `PBGI_WRITE_H_CENTRES=1`\n\
                 //! (MPFR's `erfc` and `exp` at 400 bits); checked by that test otherwise.\n\n\
                 #[rustfmt::skip]\n\
                 pub(crate) static CENTRES: [(u128, u128, u128, i32); 1025] = [\n",
            );
            for (a0, a1, m, e) in &entries {
                text += &format!("    (0x{a0:032x}, 0x{a1:032x}, 0x{m:032x}, {e}),\n");
            }
            text += "];\n";
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/h_centres_table.rs");
            std::fs::write(path, text).unwrap();
            return;
        }
        for (j, expected) in entries.iter().enumerate() {
            assert_eq!(&CENTRES[j], expected, "centre {j}");
            assert!(expected.2 >> 127 == 1);
        }
        // T' = Φ(-c + s)/φ(c) ≤ A1 + |s|·e^{c|s|} < 2 (the width term of `h_neg_centred`):
        // A1 is largest at c = 0 (√(π/2) = 1.2533…).
        assert!(CENTRES
            .iter()
            .all(|e| (e.1 as f64) < 1.254 * 2f64.powi(FRAC as i32)));
    }

    /// [`mul_high`] is the floor of the exact 256-bit product over `2^128` (rug's integers), on
    /// random operands of both signs and all magnitudes and the extremes.
    #[test]
    fn mul_high_is_the_floor_of_the_product() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(71);
        let special = [
            0,
            1,
            -1,
            i128::MAX,
            i128::MIN,
            1 << 64,
            -(1 << 64),
            (1 << 64) - 1,
        ];
        for i in 0..200_000 {
            let pick = |rng: &mut rand_chacha::ChaCha8Rng| match i % 4 {
                0 => special[rng.gen_range(0..special.len())],
                _ => rng.gen::<i128>() >> rng.gen_range(0..127),
            };
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            let exact = (Integer::from(a) * Integer::from(b)) >> 128u32;
            assert_eq!(Integer::from(mul_high(a, b)), exact, "{a} × {b}");
        }
    }

    /// [`mul_high_approx`] lies within `(a·b/2^128 - 3, a·b/2^128]`: at most 2 below the exact
    /// floor (rug's integers), on random operands of both signs and all magnitudes and the
    /// extremes (`i128::MIN` excepted: `|a|, |b| < 2^127`).
    #[test]
    fn mul_high_approx_is_within_two_of_the_floor() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(78);
        let special = [
            0,
            1,
            -1,
            i128::MAX,
            -i128::MAX,
            1 << 64,
            -(1 << 64),
            (1 << 64) - 1,
        ];
        let mut seen = [0u32; 3];
        for i in 0..200_000 {
            let pick = |rng: &mut rand_chacha::ChaCha8Rng| match i % 4 {
                0 => special[rng.gen_range(0..special.len())],
                _ => (rng.gen::<i128>() >> rng.gen_range(0..127)).max(-i128::MAX),
            };
            let (a, b) = (pick(&mut rng), pick(&mut rng));
            let exact = (Integer::from(a) * Integer::from(b)) >> 128u32;
            let below = exact - mul_high_approx(a, b);
            assert!(below >= 0 && below <= 2, "{a} × {b}: {below} below");
            seen[below.to_usize().unwrap()] += 1;
        }
        assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
    }

    /// At every centre, `|b̃_k - b_k·2^118| ≤ 40` for `k ≤ 10` and `|b̂_k - b_k·2^52| ≤ 8` for
    /// `k ≥ 9` (the exact `b_k` as rationals from the
    /// recurrence of the module's doc, checked at `k = 4` against `(c² - 1)/24`), and the
    /// integer `N = k·⌊c·b̃_k⌋ - (k - 2)·b̃_{k-1}` of each step lies strictly inside `±2^127` (so
    /// its wrapping evaluation is exact), every intermediate of the 64-bit step below `2^62`.
    /// Also `|b_k| < 6` (the magnitudes the fixed point holds), and `A0 > 0.0149` (the smallest,
    /// at `c = 8`).
    #[test]
    fn coefficients_are_within_their_bound() {
        let (mut worst, mut worst_low) = (Rational::new(), Rational::new());
        for j in 0..=1024usize {
            let c = Rational::from((j, 128));
            let mut b = vec![Rational::new(), Rational::new(), Rational::from((1, 2))];
            for k in 2..MAX_TERMS {
                let next = (Rational::from(&c * k as u32) * &b[k]
                    - Rational::from(&b[k - 1] * (k as u32 - 2)))
                    / (k * (k + 1)) as u32;
                b.push(next);
            }
            assert_eq!(b[4], (Rational::from(&c * &c) - 1u32) / 24u32);
            let (got, low) = coefficients(j);
            let error = |v: Integer, k: usize, bits: u32| {
                (Rational::from(v) - Rational::from(&b[k] * (Integer::from(1) << bits))).abs()
            };
            for k in 2..=LOW_FROM {
                let err = error(Integer::from(got[k]), k, FRAC_B);
                assert!(err <= 40u32, "centre {j}, b_{k}: error {err}");
                if err > worst {
                    worst = err;
                }
                assert!(b[k].clone().abs() < 6u32);
                if k < LOW_FROM {
                    let cb = (Integer::from(j) * got[k]) >> 7u32;
                    let n = cb * k as u32 - Integer::from(k - 2) * got[k - 1];
                    assert!(n.significant_bits() <= 127, "centre {j}, step {k}");
                }
            }
            for k in LOW_FROM - 1..=terms(j) {
                let err = error(Integer::from(low[k]), k, FRAC_LOW);
                assert!(err <= 8u32, "centre {j}, b_{k} (64 bits): error {err}");
                if err > worst_low {
                    worst_low = err;
                }
                assert!(b[k].clone().abs() < 6u32);
                if k >= LOW_FROM && k < terms(j) {
                    // Every intermediate of the 64-bit step below 2^63.
                    let cb = (Integer::from(j) * low[k]) >> 7u32;
                    let kcb = Integer::from(&cb * k as u32);
                    let n = Integer::from(&kcb - Integer::from(k - 2) * low[k - 1]);
                    for v in [&cb, &kcb, &n] {
                        assert!(v.significant_bits() <= 62, "centre {j}, step {k}");
                    }
                }
            }
        }
        println!(
            "largest coefficient error: {} units of 2^-118, {} units of 2^-52",
            worst.to_f64(),
            worst_low.to_f64()
        );
        assert!((CENTRES[1024].0 as f64) > 0.0149 * 2f64.powi(FRAC as i32));
    }

    /// The truncation after `s^K` (`K = terms(j)`) is below `2^-127` at every centre for
    /// `|s| ≤ S = 2^-8·(1 + 2^-30)`, by Cauchy's estimate for the entire function
    /// `e^{cs - s²/2}`: on `|s| = ρ` its modulus is at most `e^{cρ + ρ²/2}`, so
    /// `|p_m| ≤ e^{cρ + ρ²/2}/ρ^m`, and `Σ_{k>K} |b_k|·S^k ≤ e^{cρ + ρ²/2}·ρ²·q^{K+1}/((K + 1)K(1 -
    /// q))`, `q = S/ρ < 1` (`1/(k(k - 1)) ≤ 1/((K + 1)K)` for `k > K`), evaluated with MPFR
    /// rounding upward for `ρ = 1/16, 2/16, …` (the best one kept).
    #[test]
    fn truncation_is_below_half_a_unit() {
        for j in 0..=1024usize {
            let k = terms(j) as u32;
            let c = Float::with_val(64, j) >> 7u32;
            let s = Float::with_val(128, 1u32) + (Float::with_val(128, 1u32) >> 30u32);
            let s = s >> 8u32;
            let mut best: Option<Float> = None;
            for i in 1..200u32 {
                let rho = Float::with_val(64, i) >> 4u32;
                let q = Float::with_val_round(128, &s / &rho, Round::Up).0;
                if q >= 1 {
                    continue;
                }
                let rho2 = Float::with_val(128, rho.square_ref());
                let exponent = Float::with_val_round(
                    128,
                    &c * &rho + Float::with_val(128, &rho2 >> 1u32),
                    Round::Up,
                )
                .0;
                let mut v = Float::with_val_round(128, exponent.exp_ref(), Round::Up).0;
                v = Float::with_val_round(128, &v * &rho2, Round::Up).0;
                for _ in 0..=k {
                    v = Float::with_val_round(128, &v * &q, Round::Up).0;
                }
                let den = Float::with_val_round(128, 1 - &q, Round::Down).0 * (k * (k + 1));
                v = Float::with_val_round(128, &v / &den, Round::Up).0;
                if best.as_ref().map_or(true, |b| v < *b) {
                    best = Some(v);
                }
            }
            let best = best.unwrap();
            assert!(
                best <= Float::with_val(64, 1) >> 127u32,
                "centre {j}: {best}"
            );
        }
    }

    /// `h(-x)` by MPFR at 400 bits: `φ(x) - x·erfc(x/√2)/2`.
    fn h_neg_mpfr(x: &Float) -> Float {
        let pi = Float::with_val(REF, rug::float::Constant::Pi);
        let phi = Float::with_val(REF, (-(Float::with_val(REF, x.square_ref())) / 2u32).exp())
            / Float::with_val(REF, 2u32 * pi).sqrt();
        let tail = Float::with_val(
            REF,
            (Float::with_val(REF, x) / Float::with_val(REF, 2u32).sqrt()).erfc(),
        ) / 2u32;
        Float::with_val(REF, phi - Float::with_val(REF, x * tail))
    }

    /// The enclosure contains MPFR's `σ·h(-x)` (at 400 bits; `σ = 1` or a random double of any
    /// binade) and its relative width is at most `2^-116`, on 40 000 random `x ∈ [0, 8]`
    /// (doubles and 192-bit floats, points and intervals `[x, x + 2^-k·x]`, `k ≥ 129`) and the
    /// edges: 0, every centre `j/128`, every midpoint between centres and its neighbours at 192
    /// bits, 6 and 8 and the floats below them, tiny `x` (`2^-1074` to `2^-100`); `None` above
    /// 8.
    #[test]
    fn encloses_mpfr_h() {
        widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(72);
        let mut xs: Vec<(Float, Float)> = Vec::new();
        let point = |x: Float| (x.clone(), x);
        xs.push(point(Float::new(192)));
        for j in 0..=1024u32 {
            xs.push(point(Float::with_val(192, j) >> 7u32));
            let mid = Float::with_val(192, 2 * j + 1) >> 8u32;
            if mid <= 8 {
                let (mut below, mut above) = (mid.clone(), mid.clone());
                below.next_down();
                above.next_up();
                xs.push(point(mid.clone()));
                xs.push(point(below.clone()));
                xs.push(point(above.clone()));
                xs.push((below, above));
            }
        }
        for edge in [6, 8] {
            let mut below = Float::with_val(192, edge);
            below.next_down();
            xs.push(point(below));
            xs.push(point(Float::with_val(53, edge)));
        }
        for e in [1074, 1000, 300, 200, 130, 127, 126, 125, 100] {
            xs.push(point(Float::with_val(192, 1) >> e));
        }
        for i in 0..40_000 {
            let x = if i % 2 == 0 {
                Float::with_val(53, rng.gen_range(0.0..8.0f64))
            } else {
                let mut v = Float::with_val(192, rng.gen::<u64>());
                v = (v << 128u32) + Float::with_val(192, rng.gen::<u128>());
                let v = Float::with_val_round(192, &v * 8u32, Round::Down).0 >> 192u32;
                v
            };
            if i % 3 == 0 {
                let k = rng.gen_range(129..192u32);
                let hi =
                    Float::with_val_round(192, &x + Float::with_val(192, &x >> k), Round::Up).0;
                if hi <= 8 {
                    xs.push((x, hi));
                    continue;
                }
            }
            xs.push(point(x));
        }
        let mut widest = Float::with_val(64, 0);
        for (i, (lo, hi)) in xs.iter().enumerate() {
            // σ = 1, and random doubles over all binades (subnormals included).
            let sigma = match i % 3 {
                0 => 1.0,
                _ => f64::from_bits(rng.gen_range(1..0x7fef_ffff_ffff_ffffu64)),
            };
            let (wl, wh) = (Wide::from_float(lo).unwrap(), Wide::from_float(hi).unwrap());
            let got = scaled_h_neg_centred(wl, wh, sigma);
            let (l, u) = got.unwrap_or_else(|| panic!("declined [{lo}, {hi}]"));
            let (l, u) = (l.to_float(128), u.to_float(128));
            let (h_lo, h_hi) = (h_neg_mpfr(hi) * sigma, h_neg_mpfr(lo) * sigma);
            assert!(
                l <= h_lo && h_hi <= u,
                "[{lo}, {hi}], σ = {sigma:e}: [{l}, {u}]"
            );
            let width = Float::with_val(64, &u - &l) / &l;
            assert!(
                width <= Float::with_val(64, 1) >> 116u32,
                "[{lo}, {hi}]: width {width}"
            );
            if width > widest {
                widest = width;
            }
        }
        println!("widest relative enclosure: 2^{:.2}", widest.log2().to_f64());
        let nine = Wide::from_f64_magnitude(9.0);
        assert!(scaled_h_neg_centred(Wide::ZERO, nine, 1.0).is_none());
        let mut above_eight = Float::with_val(192, 8);
        above_eight.next_up();
        let above_eight = Wide::from_float(&above_eight).unwrap();
        assert!(scaled_h_neg_centred(above_eight, above_eight, 1.0).is_none());
        for sigma in [0.0, -1.0, f64::INFINITY, f64::NAN] {
            assert!(scaled_h_neg_centred(Wide::ZERO, Wide::ZERO, sigma).is_none());
        }
    }

    /// [`fixed_distance`] gives the integers [`scaled_h_neg_centred`] forms from `|d|/σ`
    /// rounded down and up at 192 bits (`Wide::div_both`), and declines exactly where that
    /// quotient's upper end exceeds 8: 300 000 random `|d|` of 1 to 192 bits and doubles `σ` of
    /// all binades (subnormals included) with quotients from 0 to 40, quotients exactly 8 and
    /// at multiples of `2^-126`, zero.
    #[test]
    fn fixed_distance_is_the_rounded_quotient() {
        widen_exponent_range();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(77);
        let eight = Wide::from_f64_magnitude(X_MAX);
        let mut answered = 0;
        for i in 0..300_000 {
            let sigma = match i % 4 {
                0 => f64::from_bits(rng.gen_range(1..0x7fef_ffff_ffff_ffffu64)),
                1 => 2f64.powi(rng.gen_range(-1020..1000)),
                _ => rng.gen_range(0.5..2.0) * 10f64.powi(rng.gen_range(-300..300)),
            };
            let bits = rng.gen_range(1..=192u32);
            let mantissa = Float::with_val(192, rng.gen::<u128>())
                + (Float::with_val(192, rng.gen::<u64>()) << 128u32);
            let mantissa = Float::with_val_round(bits, &mantissa, Round::Down).0;
            let target = match i % 5 {
                0 => 8.0,
                1 => f64::from(rng.gen_range(0..=1024u32)) / 128.0,
                _ => rng.gen_range(0.0..40.0),
            };
            // |d| ≈ target·σ with a random mantissa of `bits` bits (or exactly target·σ).
            let d = if i % 5 < 2 && i % 3 == 0 {
                Float::with_val(192, Float::with_val(53, target) * sigma)
            } else {
                let scale = Float::with_val(64, target * sigma);
                let e = scale.get_exp().unwrap_or(0) - mantissa.get_exp().unwrap_or(0);
                Float::with_val(bits, &mantissa << e)
            };
            let d = if i % 997 == 0 { Float::new(64) } else { d };
            let Some(dw) = Wide::from_float(&d) else {
                continue;
            };
            let s = Wide::from_f64_magnitude(sigma);
            let (x_lo, x_hi) = dw.div_both(s, 192).unwrap();
            let expected = if x_hi > eight {
                None
            } else {
                let (f, _) = scaled_floor(x_lo, 8).unwrap();
                let (lo, _) = scaled_floor(x_lo, i64::from(FRAC)).unwrap();
                let (hi, inexact) = scaled_floor(x_hi, i64::from(FRAC)).unwrap();
                Some((f, lo, hi.wrapping_add(u128::from(inexact))))
            };
            assert_eq!(fixed_distance(dw, sigma), expected, "{d} / {sigma:e}");
            answered += usize::from(expected.is_some());
        }
        assert!(answered > 100_000, "{answered}");
    }
}
