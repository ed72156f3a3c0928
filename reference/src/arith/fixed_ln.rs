//! `ln y` rounded toward −∞ to `p ≤ 128` bits for `y > 0` of precision `≤ 189`, by fixed-point
//! arithmetic (the 192-bit numbers of [`crate::arith::fixed_exp`], unit `U = 2^-188`, and
//! 256-bit sums): MPFR's correctly rounded result, bit for bit, or `None` when the enclosure
//! below does not decide the rounding (then MPFR computes it).
//!
//! 1. `y = m·2^k`, `1 ≤ m < 2`, `|k| ≤ 2^20`; `m` is read exactly as `M·U`.
//! 2. `j = ⌊64(m − 1)⌋` and `c = n_j/512`, `n_j = ⌊2^15/(65 + j)⌋`, so `c ≤ 1/(1 + (j+1)/64)`
//!    and `v = 1 − m·c ∈ (0, 0.0194]`; `m·c·U^-1 = M·n_j/512` is exact before the division by
//!    512, so `V_lo = 2^188 − ⌈M·n_j/512⌉ ≤ v/U ≤ V_lo + 1`.
//! 3. `ln m = ln(1/c) − S(v)`, `S(v) = −ln(1 − v) = Σ_{n≥1} v^n/n`. Horner's scheme on
//!    `n ≤ 33` with products rounded down and coefficients `C_n ≥ U^-1/n − 2` gives
//!    `S_lo ≤ S(V_lo·U)/U` with error below `1 + 3.1·v < 1.1` units (each step's error
//!    `e_n ≤ 3 + e_{n+1}·v`, `v < 1/32`); the remainder `Σ_{n>33} v^n/n ≤ v^34/(34(1 − v))` is
//!    below `2^-193`; and `S(v) − S(V_lo·U) ≤ U/(1 − v)`. So `S_lo ≤ S(v)/U ≤ S_lo + 4`.
//! 4. Tables (once per process, MPFR at 400 bits, directed): `ln 2` and `ln(512/n_j)` enclosed
//!    as `[⌊RD(y)/U⌋, ⌈RU(y)/U⌉]`, `C_n = ⌊RD(1/n)/U⌋`.
//! 5. `ln y = k·ln 2 + ln(512/n_j) − S(v)`: for `k ≥ 0` the ends
//!    `k·L2_lo + L_lo − S_lo − 4` and `k·L2_hi + L_hi − S_lo` (declined if the lower one is
//!    negative); for `k < 0`, `ln y = −(|k|·ln 2 − ln m)` with magnitude between
//!    `|k|·L2_lo − L_hi + S_lo` and `|k|·L2_hi − L_lo + S_lo + 4`.
//! 6. Rounding: if both ends give the same `p`-bit float (toward −∞: truncation of a positive
//!    value, the negated upward rounding of a negative one's magnitude), that float is
//!    `RD_p(ln y)`. `ln y` is irrational for rational `y ≠ 1` (`y = 1` is declined), so the
//!    rounding is inexact (MPFR's ternary value "less").
//!
//! Tested bit for bit against MPFR (`tests` below, `matches_mpfr_bit_for_bit`).

use crate::arith::fixed_exp::{enclose, mul, F, U192};
use crate::arith::short_float::Short;
use rug::float::{Constant, Round};
use rug::Float;
use std::sync::OnceLock;

/// Terms of the series `Σ v^n/n`.
const TERMS: usize = 33;
/// Largest `|k|` handled.
const MAX_K: i64 = 1 << 20;

type U256 = [u64; 4];

struct Tables {
    /// `ln 2`.
    ln2: (U192, U192),
    /// `ln(512/n_j)`, `j = 0..64`.
    bins: [(U192, U192); 64],
    /// `1/n` from below, `n = 0..=TERMS` (`n = 0` unused).
    coef: [U192; TERMS + 1],
}

/// `n_j = ⌊2^15/(65 + j)⌋`.
fn bin_numerator(j: usize) -> u64 {
    32768 / (65 + j as u64)
}

fn tables() -> Option<&'static Tables> {
    static TABLES: OnceLock<Option<Tables>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            crate::arith::mpfr::widen_exponent_range();
            let ln2 = enclose(
                &Float::with_val_round(400, Constant::Log2, Round::Down).0,
                &Float::with_val_round(400, Constant::Log2, Round::Up).0,
            )?;
            let mut bins = [([0u64; 3], [0u64; 3]); 64];
            for (j, slot) in bins.iter_mut().enumerate() {
                // c = n_j/512 exactly; ln(1/c) = −ln c.
                let c = Float::with_val(64, bin_numerator(j)) >> 9u32;
                let lo = -Float::with_val_round(400, c.ln_ref(), Round::Up).0;
                let hi = -Float::with_val_round(400, c.ln_ref(), Round::Down).0;
                *slot = enclose(&lo, &hi)?;
            }
            let mut coef = [[0u64; 3]; TERMS + 1];
            for (n, slot) in coef.iter_mut().enumerate().skip(1) {
                let lo =
                    Float::with_val_round(400, &Float::with_val(64, 1) / n as u32, Round::Down).0;
                *slot = enclose(&lo, &lo)?.0;
            }
            Some(Tables { ln2, bins, coef })
        })
        .as_ref()
}

fn widen(x: &U192) -> U256 {
    [x[0], x[1], x[2], 0]
}

/// `x·k` for a small `k` (exact; `None` on overflow of 256 bits).
fn mul_small(x: &U192, k: u64) -> U256 {
    let mut out = [0u64; 4];
    let mut carry = 0u128;
    for i in 0..3 {
        let v = u128::from(x[i]) * u128::from(k) + carry;
        out[i] = v as u64;
        carry = v >> 64;
    }
    out[3] = carry as u64;
    out
}

fn add4(x: &U256, y: &U256) -> Option<U256> {
    let mut out = [0u64; 4];
    let mut carry = false;
    for i in 0..4 {
        let (s1, c1) = x[i].overflowing_add(y[i]);
        let (s2, c2) = s1.overflowing_add(u64::from(carry));
        out[i] = s2;
        carry = c1 || c2;
    }
    (!carry).then_some(out)
}

/// `x − y`, `None` if negative.
fn sub4(x: &U256, y: &U256) -> Option<U256> {
    let mut out = [0u64; 4];
    let mut borrow = false;
    for i in 0..4 {
        let (d1, b1) = x[i].overflowing_sub(y[i]);
        let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
        out[i] = d2;
        borrow = b1 || b2;
    }
    (!borrow).then_some(out)
}

/// The float `z·U` (`z > 0`) rounded to `p` bits toward zero (`up = false`) or away from zero,
/// as a [`Short`]; `None` for `z < 2^127` (too few bits to round from).
fn round(z: &U256, p: u32, up: bool) -> Option<Short> {
    let top_limb = (0..4).rev().find(|&i| z[i] != 0)?;
    let top = 64 * top_limb as u32 + 63 - z[top_limb].leading_zeros();
    if top < 127 {
        return None;
    }
    // Mantissa: bits top−127 ..= top.
    let shift = top - 127;
    let bit = |i: u32| -> u64 {
        // 64 bits of z starting at bit i (zero beyond the top).
        let (w, b) = ((i / 64) as usize, i % 64);
        let low = z.get(w).copied().unwrap_or(0) >> b;
        let high = if b == 0 {
            0
        } else {
            z.get(w + 1).copied().unwrap_or(0) << (64 - b)
        };
        low | high
    };
    let m = (u128::from(bit(shift + 64)) << 64) | u128::from(bit(shift));
    let mask = !0u128 << (128 - p);
    let mut e = i64::from(top) + 1 - i64::from(F);
    let kept = m & mask;
    // Dropped bits: those of m below the mask, and z's bits below `shift`.
    let dropped = m & !mask != 0
        || (0..shift).step_by(64).any(|i| {
            let width = (shift - i).min(64);
            let chunk = bit(i);
            (if width == 64 {
                chunk
            } else {
                chunk & ((1u64 << width) - 1)
            }) != 0
        });
    let mut result = kept;
    if up && dropped {
        let ulp = 1u128 << (128 - p);
        let (sum, carry) = kept.overflowing_add(ulp);
        if carry {
            result = 1u128 << 127;
            e += 1;
        } else {
            result = sum;
        }
    }
    Short::from_parts(result, e)
}

/// `RD_p(ln y)` (MPFR's `log` rounded toward −∞, inexact) for `y > 0`, `y ≠ 1`, of precision
/// `≤ 189`, `2^-2^20 < y < 2^2^20`, `p ≤ 128`, when the enclosure decides it; `None` otherwise.
pub(crate) fn ln_down(y: &Float, p: u32) -> Option<Float> {
    if !(1..=128).contains(&p) || !y.is_normal() || y.is_sign_negative() || y.prec() > 189 {
        return None;
    }
    if *y == 1u32 {
        return None;
    }
    // SAFETY: `y` is a regular mpfr_t of precision ≤ 189: ⌈prec/64⌉ ≤ 3 limbs, least
    // significant first, value 0.d × 2^exp.
    let (limbs, n, exp) = unsafe {
        let raw = &*y.as_raw();
        let n = ((raw.prec + 63) / 64) as usize;
        let d = raw.d.as_ptr();
        let mut limbs = [0u64; 3];
        for (k, limb) in limbs.iter_mut().enumerate().take(n) {
            *limb = *d.add(k);
        }
        (limbs, n, raw.exp)
    };
    let k = exp - 1;
    if k.abs() > MAX_K {
        return None;
    }
    // m = 2·0.d ∈ [1, 2): M = d·2^(F + 1 − 64n), exact (the low bits of a 189-bit mantissa in
    // three limbs are zero).
    let m: U192 = match n {
        1 => [0, limbs[0] << 61, limbs[0] >> 3],
        2 => [
            limbs[0] << 61,
            (limbs[1] << 61) | (limbs[0] >> 3),
            limbs[1] >> 3,
        ],
        _ => {
            if limbs[0] & 7 != 0 {
                return None;
            }
            [
                (limbs[0] >> 3) | (limbs[1] << 61),
                (limbs[1] >> 3) | (limbs[2] << 61),
                limbs[2] >> 3,
            ]
        }
    };
    let t = tables()?;
    // j: bits 182..188 of M (m − 1 in units of 1/64).
    let j = ((m[2] >> 54) & 63) as usize;
    let nj = bin_numerator(j);
    // Q = ⌈M·n_j/512⌉ (below 2^188), V_lo = 2^188 − Q.
    let product = mul_small(&m, nj);
    let inexact = product[0] & 511 != 0;
    let mut q: U256 = [
        (product[0] >> 9) | (product[1] << 55),
        (product[1] >> 9) | (product[2] << 55),
        (product[2] >> 9) | (product[3] << 55),
        product[3] >> 9,
    ];
    if inexact {
        q = add4(&q, &[1, 0, 0, 0])?;
    }
    let one: U256 = [0, 0, 1 << 60, 0];
    let v4 = sub4(&one, &q)?;
    let v: U192 = [v4[0], v4[1], v4[2]];
    // S_lo by Horner, rounded down.
    let mut poly = t.coef[TERMS];
    for n in (1..TERMS).rev() {
        poly = mul(&poly, &v, false)?;
        let sum = add4(&widen(&poly), &widen(&t.coef[n]))?;
        if sum[3] != 0 {
            return None;
        }
        poly = [sum[0], sum[1], sum[2]];
    }
    let s_lo = widen(&mul(&poly, &v, false)?);
    let s_hi = add4(&s_lo, &[4, 0, 0, 0])?;
    let (l_lo, l_hi) = (widen(&t.bins[j].0), widen(&t.bins[j].1));
    let (lo, hi, negative) = if k >= 0 {
        let k = k as u64;
        let lo = sub4(&add4(&mul_small(&t.ln2.0, k), &l_lo)?, &s_hi)?;
        let hi = sub4(&add4(&mul_small(&t.ln2.1, k), &l_hi)?, &s_lo)?;
        (lo, hi, false)
    } else {
        let kk = k.unsigned_abs();
        // Magnitudes: smallest and largest (added before subtracting: for j = 63, c = 1/2 and
        // |k|·ln 2 − ln(1/c) cancels exactly when k = −1).
        let lo = sub4(&add4(&mul_small(&t.ln2.0, kk), &s_lo)?, &l_hi)?;
        let hi = sub4(&add4(&mul_small(&t.ln2.1, kk), &s_hi)?, &l_lo)?;
        (lo, hi, true)
    };
    // Toward −∞: truncate a positive value; round a negative one's magnitude up.
    let (a, b) = (round(&lo, p, negative)?, round(&hi, p, negative)?);
    (a == b).then(|| {
        let f = a.to_float(p);
        if negative {
            -f
        } else {
            f
        }
    })
}

/// `RD_p(log1p(x))` (MPFR's `log1p` rounded toward −∞, inexact): [`ln_down`] of `1 + x`, formed
/// exactly (at most 189 bits: `x ≥ 2^-86` or so for a 103-bit `x`), when that decides it;
/// `None` otherwise (also for `x = 0`, whose `log1p` is exactly 0).
pub(crate) fn ln_1p_down(x: &Float, p: u32) -> Option<Float> {
    if !x.is_normal() {
        return None;
    }
    let e = crate::arith::mpfr::exponent(x)?;
    // x is a multiple of 2^(e - prec) and below 2^e: 1 + x needs the bits from
    // min(e - prec, 0) up to max(e, 1) (one more for a carry).
    let bottom = (e - i64::from(x.prec())).min(0);
    let top = e.max(1) + 1;
    let prec = u32::try_from(top - bottom).ok()?;
    if prec > 189 {
        return None;
    }
    let (y, dir) = Float::with_val_round(prec, x + 1u32, Round::Down);
    if dir != std::cmp::Ordering::Equal {
        return None;
    }
    ln_down(&y, p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::mpfr::widen_exponent_range;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// MPFR's `RD_p(ln y)`; the fast path must give the same float wherever it answers, and
    /// MPFR's ternary value must then be "less" (inexact).
    fn check(y: &Float, p: u32) -> bool {
        let (expected, dir) = Float::with_val_round(p, y.ln_ref(), Round::Down);
        match ln_down(y, p) {
            Some(got) => {
                assert!(
                    got.prec() == p
                        && got == expected
                        && got.is_sign_negative() == expected.is_sign_negative()
                        && dir == std::cmp::Ordering::Less,
                    "ln({y:?}) at {p}: {got:?} ≠ {expected:?}"
                );
                true
            }
            None => false,
        }
    }

    /// `ln_1p_down` is MPFR's `log1p` rounded toward −∞, bit for bit, wherever it answers, and
    /// answers on nearly all `x` of EI's range of `t/d` (`2^-80` to `2^40`, both signs above
    /// −1): random `x` of 103 and 127 bits (LogEI's `ln(1 + t/d)`), and tiny `x`, `x` near −1,
    /// `x ≤ −1` (declined).
    #[test]
    fn log1p_matches_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(10);
        let (mut answered, total) = (0, 40_000);
        for i in 0..total {
            let prec = if i % 2 == 0 { 103 } else { 127 };
            let p = if i % 3 == 0 { 127 } else { 103 };
            let mut x = Float::with_val(prec, rng.gen_range(1.0..2.0f64));
            x += Float::with_val(53, rng.gen::<f64>()) >> rng.gen_range(50..140u32);
            let e: i32 = rng.gen_range(-40..=40);
            let x = if e >= 0 {
                x << e as u32
            } else {
                x >> (-e) as u32
            };
            let x = if i % 5 == 0 && x < 1u32 { -x } else { x };
            let (expected, dir) = Float::with_val_round(p, x.ln_1p_ref(), Round::Down);
            if let Some(got) = ln_1p_down(&x, p) {
                assert!(
                    got.prec() == p && got == expected && dir == std::cmp::Ordering::Less,
                    "log1p({x:?}) at {p}: {got:?} ≠ {expected:?}"
                );
                answered += 1;
            }
        }
        assert!(
            answered * 100 > total * 99,
            "answered {answered} of {total}"
        );
        for k in [1u32, 10, 60, 80, 86, 90, 200] {
            for x in [
                Float::with_val(103, 1) >> k,
                -(Float::with_val(103, 1) >> k),
                Float::with_val(103, 3) << (k % 50),
            ] {
                let (expected, _) = Float::with_val_round(103, x.ln_1p_ref(), Round::Down);
                if let Some(got) = ln_1p_down(&x, 103) {
                    assert!(got == expected, "log1p({x:?}): {got:?} ≠ {expected:?}");
                }
            }
        }
        assert!(ln_1p_down(&Float::with_val(103, -1), 103).is_none());
        assert!(ln_1p_down(&Float::with_val(103, -1.5), 103).is_none());
    }

    /// `ln_down` is MPFR's `log` rounded toward −∞, bit for bit, and answers on nearly all
    /// arguments: random `y` of precisions 2 to 192 over binary exponents ±1100 at targets 1 to
    /// 128 (mostly EI's 103 and 127 bits), the bin boundaries `1 + j/64` and their neighbours,
    /// `y = 1 ± 2^-k` (tiny logarithms of both signs), `y = 2^k` and neighbours, exponents near
    /// ±2^20 (and beyond, declined), `y = 1` and non-positive `y` (declined).
    #[test]
    fn matches_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let (mut answered, total) = (0, 100_000);
        for i in 0..total {
            let prec = match i % 4 {
                0 => 103,
                1 => 127,
                _ => rng.gen_range(2..=189),
            };
            let p = match i % 3 {
                0 => rng.gen_range(1..=128),
                1 => 103,
                _ => 127,
            };
            let mut y = Float::with_val(prec, rng.gen_range(1.0..2.0f64));
            y += Float::with_val(53, rng.gen::<f64>()) >> rng.gen_range(50..140u32);
            let e: i32 = rng.gen_range(-1100..=1100);
            let y = if e >= 0 {
                y << e as u32
            } else {
                y >> (-e) as u32
            };
            if y == 1u32 {
                continue;
            }
            answered += usize::from(check(&y, p));
        }
        assert!(
            answered * 100 > total * 99,
            "answered {answered} of {total}"
        );
        for j in 0..=64u32 {
            for prec in [53, 103, 189, 192] {
                let mut y = Float::with_val(prec, 64 + j) >> 6u32;
                y.next_down();
                for _ in 0..3 {
                    for shift in [-3i32, 0, 5] {
                        let z = if shift >= 0 {
                            Float::with_val(prec, &y << shift as u32)
                        } else {
                            Float::with_val(prec, &y >> (-shift) as u32)
                        };
                        check(&z, 103);
                        check(&z, 128);
                    }
                    y.next_up();
                }
            }
        }
        for k in 1..=120u32 {
            for prec in [53, 103, 127, 189] {
                let tiny = Float::with_val(prec, 1) >> k;
                check(&Float::with_val(prec, 1 + &tiny), 103);
                check(&Float::with_val(prec, 1 - &tiny), 103);
                let mut two_k = Float::with_val(prec, 1) << k;
                check(&two_k, 127);
                two_k.next_up();
                check(&two_k, 127);
                let small = Float::with_val(prec, 1) >> (k * 9);
                check(&small, 127);
            }
        }
        for e in [(1 << 20) - 2, (1 << 20) + 3] {
            for sign in [1i32, -1] {
                let y = Float::with_val(103, 1.5) << (sign * e);
                check(&y, 103);
            }
        }
        assert!(ln_down(&Float::with_val(103, 1), 103).is_none());
        assert!(ln_1p_down(&Float::with_val(103, 0), 103).is_none());
        assert!(ln_down(&Float::with_val(103, 0), 103).is_none());
        assert!(ln_down(&Float::with_val(103, -2), 103).is_none());
        assert!(ln_down(&Float::with_val(190, 3), 103).is_none());
    }
}
