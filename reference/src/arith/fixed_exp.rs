//! `exp(v)` rounded toward −∞ to `p ≤ 128` bits for `-16 < v < 0` (`p ≤ 192` and `-32 < v < 0`
//! for [`exp_neg_down`]), by 192-bit fixed-point
//! arithmetic: MPFR's correctly rounded result, bit for bit, at a fraction of MPFR's cost, or
//! `None` when the enclosure below does not decide the rounding (then MPFR computes it).
//!
//! With `a = -v` and `U = 2^-188` (the unit of the fixed-point numbers, which hold values below
//! 16 in three limbs):
//!
//! 1. `a` is read exactly as `A·U` (else `None`: `a` has bits below `U`, `a < 2^-57` or so).
//! 2. `a = i + j/64 - r` with `i = ⌊a⌋ ≤ 15`, `j = ⌈64·frac(a)⌉ ≤ 64` and `0 ≤ r < 1/64`, exactly,
//!    so `exp(-a) = e^(-i)·e^(-j/64)·e^r`.
//! 3. `e^r = Σ_{n≤20} r^n/n! + R` with `0 ≤ R ≤ 2·r^21/21! < 2^-190 < U`. Horner's scheme with
//!    every product rounded down (`⌊·⌋` in units of `U`) and coefficients `C_n ≥ U^-1/n! - 2`
//!    gives `P` with `poly(r) - 3.05·U ≤ P·U ≤ poly(r)`: the error `e_n` of step `n` satisfies
//!    `e_n ≤ 3 + e_{n+1}·r ≤ 3 + e_{n+1}/64` (one unit from the product, two from the
//!    coefficient), hence `e_n < 3.05`. So `P·U ≤ e^r ≤ (P + 5)·U`.
//! 4. The tables hold `⌊RD(y)⌋ ≤ y·U^-1 ≤ ⌈RU(y)⌉` for `y = e^(-i)`, `e^(-j/64)`, `1/n!` (MPFR
//!    at 400 bits, directed). The lower end is `⌊⌊E_lo·T_lo⌋·P⌋` and the upper end
//!    `⌈⌈E_hi·T_hi⌉·(P + 5)⌉` (products in units of `U`, rounded as marked): every factor is
//!    positive, so `lower·U ≤ exp(-a) ≤ upper·U`.
//! 5. If both ends round down to the same `p`-bit float, so does `exp(-a)` between them (rounding
//!    is monotone): that float is `RD_p(exp(v))`, MPFR's result. `exp(v)` is never exactly
//!    representable for rational `v ≠ 0` (Lindemann), so the rounding is inexact (MPFR's
//!    ternary value "less").
//! 6. For `16 < a < 32` ([`exp_neg_down`]): `a - 16` is exact (it keeps `a`'s last bit, at or
//!    above `2^-187`, and has fewer than 192 bits; checked by adding 16 back) and below 16, and
//!    `exp(-a) = e^(-16)·exp(-(a - 16))`: steps 1–4 for `a - 16`, then one more product by the
//!    table's enclosure of `e^(-16)`, rounded down in the lower end and up in the upper end —
//!    again positive factors, so the ends still enclose `exp(-a)`; then step 5.
//!
//! Tested bit for bit against MPFR (`tests` below, `matches_mpfr_bit_for_bit`).

use crate::arith::wide_float::{Direction, Wide};
use rug::float::Round;
use rug::Float;
use std::sync::OnceLock;

/// Fraction bits of the fixed-point numbers.
pub(crate) const F: u32 = 188;
/// Terms of the series beyond the constant one.
const TERMS: usize = 20;
/// Largest `⌊a⌋` handled.
const MAX_INT: usize = 16;

/// A fixed-point number `N·2^-F`, least significant limb first (shared with `fixed_ln.rs`).
pub(crate) type U192 = [u64; 3];

/// Enclosures `[lo, hi]` (in units `2^-F`) of the table constants.
struct Tables {
    /// `e^(-i)`, `i = 0..=16`.
    int: [(U192, U192); MAX_INT + 1],
    /// `e^(-j/64)`, `j = 0..=64`.
    frac: [(U192, U192); 65],
    /// `1/n!`, lower ends, `n = 0..=20`.
    coef: [U192; TERMS + 1],
}

/// `⌊y·2^F⌋` from below and `⌈y·2^F⌉` from above, `y` given at 400 bits rounded both ways.
pub(crate) fn enclose(lo: &Float, hi: &Float) -> Option<(U192, U192)> {
    let to_limbs = |x: &Float, round_up: bool| -> Option<U192> {
        let scaled = Float::with_val(400, x << F);
        let (int, _) = if round_up {
            scaled.ceil().to_integer_round(Round::Up)?
        } else {
            scaled.floor().to_integer_round(Round::Down)?
        };
        let digits = int.to_digits::<u64>(rug::integer::Order::Lsf);
        (digits.len() <= 3).then(|| {
            let mut limbs = [0u64; 3];
            limbs[..digits.len()].copy_from_slice(&digits);
            limbs
        })
    };
    Some((to_limbs(lo, false)?, to_limbs(hi, true)?))
}

fn tables() -> Option<&'static Tables> {
    static TABLES: OnceLock<Option<Tables>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            crate::arith::mpfr::widen_exponent_range();
            let exp_neg = |num: u32, den: u32| {
                let (q_up, q_down) = (
                    Float::with_val_round(420, &Float::with_val(64, num) / den, Round::Up).0,
                    Float::with_val_round(420, &Float::with_val(64, num) / den, Round::Down).0,
                );
                // e^(-q) is decreasing: the lower end from q rounded up.
                let lo = Float::with_val_round(400, (-q_up).exp_ref(), Round::Down).0;
                let hi = Float::with_val_round(400, (-q_down).exp_ref(), Round::Up).0;
                enclose(&lo, &hi)
            };
            let mut int = [([0u64; 3], [0u64; 3]); MAX_INT + 1];
            for (i, slot) in int.iter_mut().enumerate() {
                *slot = exp_neg(i as u32, 1)?;
            }
            let mut frac = [([0u64; 3], [0u64; 3]); 65];
            for (j, slot) in frac.iter_mut().enumerate() {
                *slot = exp_neg(j as u32, 64)?;
            }
            let mut coef = [[0u64; 3]; TERMS + 1];
            let mut factorial = rug::Integer::from(1);
            for (n, slot) in coef.iter_mut().enumerate() {
                if n > 0 {
                    factorial *= n as u32;
                }
                let lo =
                    Float::with_val_round(400, &Float::with_val(400, 1) / &factorial, Round::Down)
                        .0;
                *slot = enclose(&lo, &lo)?.0;
            }
            Some(Tables { int, frac, coef })
        })
        .as_ref()
}

/// `⌊x·y/2^F⌋` (`round_up`: `⌈·⌉`), if below `2^192`.
#[inline]
pub(crate) fn mul(x: &U192, y: &U192, round_up: bool) -> Option<U192> {
    let mut prod = [0u64; 6];
    for i in 0..3 {
        let mut carry = 0u128;
        for j in 0..3 {
            let v = u128::from(x[i]) * u128::from(y[j]) + u128::from(prod[i + j]) + carry;
            prod[i + j] = v as u64;
            carry = v >> 64;
        }
        prod[i + 3] = carry as u64;
    }
    // Bits F.. of the product: F = 2·64 + 60.
    let (words, bits) = ((F / 64) as usize, F % 64);
    let mut out = [0u64; 3];
    for (k, limb) in out.iter_mut().enumerate() {
        let low = prod[k + words] >> bits;
        let high = if k + words + 1 < 6 {
            prod[k + words + 1] << (64 - bits)
        } else {
            0
        };
        *limb = low | high;
    }
    if words + 3 < 6 && prod[words + 3] >> bits != 0 {
        return None;
    }
    if round_up {
        let dropped = prod[..words].iter().any(|&l| l != 0) || prod[words] << (64 - bits) != 0;
        if dropped {
            add_small(&mut out, 1)?;
        }
    }
    Some(out)
}

/// `x + y` in place, if below `2^192`.
fn add(x: &mut U192, y: &U192) -> Option<()> {
    let mut carry = false;
    for (a, b) in x.iter_mut().zip(y) {
        let (s1, c1) = a.overflowing_add(*b);
        let (s2, c2) = s1.overflowing_add(u64::from(carry));
        *a = s2;
        carry = c1 || c2;
    }
    (!carry).then_some(())
}

fn add_small(x: &mut U192, y: u64) -> Option<()> {
    add(x, &[y, 0, 0])
}

/// `RD_p(z·2^-F)` (`z > 0`, `p ≤ 192`; `None` for `z = 0`).
fn round_down(z: &U192, p: u32) -> Option<Wide> {
    (*z != [0; 3]).then(|| Wide::from_integer(*z, -i64::from(F), p, Direction::Down))
}

/// `RD_p(exp(v))` (MPFR's `exp` rounded toward −∞, inexact) for `-16 < v < 0` with `v` of
/// precision `≤ 192` and `p ≤ 128`, when the enclosure decides it; `None` otherwise.
pub(crate) fn exp_down(v: &Float, p: u32) -> Option<Float> {
    if !(1..=128).contains(&p) || !v.is_normal() || !v.is_sign_negative() || v.prec() > 192 {
        return None;
    }
    // SAFETY: `v` is a regular mpfr_t of precision ≤ 192: ⌈prec/64⌉ ≤ 3 limbs, least
    // significant first, value 0.d × 2^exp.
    let (limbs, n, exp) = unsafe {
        let raw = &*v.as_raw();
        let n = (raw.prec as usize).div_ceil(64);
        let d = raw.d.as_ptr();
        let mut limbs = [0u64; 3];
        for (k, limb) in limbs.iter_mut().enumerate().take(n) {
            *limb = *d.add(k);
        }
        (limbs, n, raw.exp)
    };
    exp_of_fixed(&read_fixed(&limbs, n, exp)?, p, false).map(|lo| lo.to_float(p))
}

/// [`exp_down`] of `v = -a` for a [`Wide`] `a > 0`, also for `16 ≤ a < 32` (step 6) and target
/// precisions up to 192:
/// `RD_p(exp(-a))`, or `None` (for `p ≤ 128` the same decision on the same number as
/// [`exp_down`]; beyond, the enclosure of step 4, a few units of `2^-188` wide around a value
/// above `e^-16 > 2^-24`, decides all but about `2^(p-164)` of the roundings).
pub(crate) fn exp_neg_down(a: Wide, p: u32) -> Option<Wide> {
    if !(1..=192).contains(&p) || a.is_zero() {
        return None;
    }
    let sixteen = Wide::from_integer([16, 0, 0], 0, 8, Direction::Down);
    if a >= sixteen {
        // Step 6: exp(-a) = e^(-16)·exp(-(a - 16)), a - 16 exact.
        let rest = a.sub(sixteen, 192, Direction::Down)?;
        if rest.add(sixteen, 192, Direction::Down) != a {
            return None;
        }
        let (limbs, exp) = rest.limbs();
        return exp_of_fixed(&read_fixed(&limbs, 3, exp)?, p, true);
    }
    let (limbs, exp) = a.limbs();
    exp_of_fixed(&read_fixed(&limbs, 3, exp)?, p, false)
}

/// `RD_p(exp(-a))` for `a = A·2^-F` (`A` the fixed-point number read by [`read_fixed`]), when the
/// enclosure decides it; `RD_p(e^(-16)·exp(-a))` if `times_e16` (step 6).
fn exp_of_fixed(a: &U192, p: u32, times_e16: bool) -> Option<Wide> {
    let t = tables()?;
    let i = (a[2] >> (F - 128)) as usize;
    if i > MAX_INT {
        return None;
    }
    // f = frac(a) in units 2^-F; j = ⌈64·f⌉, r = j/64 - f (exact).
    let f: U192 = [a[0], a[1], a[2] & ((1u64 << (F - 128)) - 1)];
    let step_bits = F - 6; // 1/64 = 2^(F-6) units
    let unit_low = (1u64 << (step_bits - 128)) - 1; // bits below 1/64 within limb 2
    let below = f[0] != 0 || f[1] != 0 || f[2] & unit_low != 0;
    let j = (f[2] >> (step_bits - 128)) as usize + usize::from(below);
    // r = j·2^(F-6) - f
    let mut r = [0u64; 3];
    let j_units: U192 = [0, 0, (j as u64) << (step_bits - 128)];
    let mut borrow = false;
    for k in 0..3 {
        let (d1, b1) = j_units[k].overflowing_sub(f[k]);
        let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
        r[k] = d2;
        borrow = b1 || b2;
    }
    if borrow {
        return None;
    }
    // Horner, rounded down: P ≤ poly(r).
    let mut poly = t.coef[TERMS];
    for n in (0..TERMS).rev() {
        poly = mul(&poly, &r, false)?;
        add(&mut poly, &t.coef[n])?;
    }
    let mut poly_hi = poly;
    add_small(&mut poly_hi, 5)?;
    let (e_lo, e_hi) = &t.int[i];
    let (q_lo, q_hi) = &t.frac[j];
    let mut lower = mul(&mul(e_lo, q_lo, false)?, &poly, false)?;
    let mut upper = mul(&mul(e_hi, q_hi, true)?, &poly_hi, true)?;
    if times_e16 {
        let (e16_lo, e16_hi) = &t.int[16];
        lower = mul(&lower, e16_lo, false)?;
        upper = mul(&upper, e16_hi, true)?;
    }
    let (lo, hi) = (round_down(&lower, p)?, round_down(&upper, p)?);
    (lo == hi).then_some(lo)
}

/// `a = 0.M × 2^exp` (`M` the `n ≤ 3` limbs `limbs[..n]`, least significant first, top bit set)
/// as `A·2^-F` exactly, if `a < 16` (`A < 2^192`) and it has no bits below `2^-F`.
fn read_fixed(limbs: &[u64; 3], n: usize, exp: i64) -> Option<U192> {
    // a = M·2^(exp - 64n), A = M·2^(exp - 64n + F).
    if exp > 6 {
        return None;
    }
    let shift = exp - 64 * n as i64 + i64::from(F);
    let mut out = [0u64; 3];
    if shift >= 0 {
        // M < 2^(64n), A < 2^(exp + F) ≤ 2^194 — checked by the limb bound below.
        let (words, bits) = ((shift / 64) as usize, (shift % 64) as u32);
        for k in 0..n {
            let target = k + words;
            if target < 3 {
                out[target] |= if bits == 0 {
                    limbs[k]
                } else {
                    limbs[k] << bits
                };
            } else if limbs[k] != 0 {
                return None;
            }
            if bits != 0 {
                let spill = limbs[k] >> (64 - bits);
                if target + 1 < 3 {
                    out[target + 1] |= spill;
                } else if spill != 0 {
                    return None;
                }
            }
        }
    } else {
        let s = shift.unsigned_abs();
        let (words, bits) = ((s / 64) as usize, (s % 64) as u32);
        if words >= n {
            return None;
        }
        // Exactness: the dropped bits must be zero.
        if limbs[..words].iter().any(|&l| l != 0) || (bits != 0 && limbs[words] << (64 - bits) != 0)
        {
            return None;
        }
        for k in 0..3 {
            let src = k + words;
            if src >= n {
                break;
            }
            let low = limbs[src] >> bits;
            let high = if bits != 0 && src + 1 < n {
                limbs[src + 1] << (64 - bits)
            } else {
                0
            };
            out[k] = low | high;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::mpfr::widen_exponent_range;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// MPFR's `RD_p(exp(v))`; the fast path must give the same float, and MPFR's ternary
    /// value must be "less" (inexact) wherever the fast path answers.
    fn check(v: &Float, p: u32) -> bool {
        let (expected, dir) = Float::with_val_round(p, v.exp_ref(), Round::Down);
        // The same decision and value from the three-limb form of -v below 16; beyond (step 6),
        // MPFR's float wherever it answers.
        if let Some(a) = Wide::from_float(&Float::with_val(v.prec(), -v)) {
            let wide = exp_neg_down(a, p).map(|w| w.to_float(p));
            if *v > -16 {
                assert_eq!(wide, exp_down(v, p), "exp_neg_down({v:?}) at {p}");
            } else if let Some(got) = wide {
                assert!(
                    got == expected && dir == std::cmp::Ordering::Less,
                    "exp_neg_down({v:?}) at {p}"
                );
            }
        }
        match exp_down(v, p) {
            Some(got) => {
                assert!(
                    got.prec() == p && got == expected && dir == std::cmp::Ordering::Less,
                    "exp({v:?}) at {p}: {got:?} ≠ {expected:?}"
                );
                true
            }
            None => false,
        }
    }

    /// `exp_down` is MPFR's `exp` rounded toward −∞, bit for bit (and `exp_neg_down` of `-v`
    /// answers exactly where it does, with the same float), and answers on nearly all
    /// arguments of its domain: random `v ∈ (-16, 0)` of precisions 2 to 192 at target
    /// precisions 1 to 128 (mostly the 127 of EI's `φ`), the table boundaries `-i - j/64` and
    /// their neighbours one unit either side, tiny `v` (down to `-2^-80`, where reading `v`
    /// exactly fails and MPFR answers), `v` near -16 and beyond, positive `v` and zero (MPFR).
    #[test]
    fn matches_mpfr_bit_for_bit() {
        widen_exponent_range();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut answered = 0;
        let total = 100_000;
        for k in 0..total {
            let prec = match k % 4 {
                0 => 131,
                1 => 127,
                _ => rng.gen_range(2..=192),
            };
            let p = if k % 3 == 0 {
                rng.gen_range(1..=128)
            } else {
                127
            };
            let mut v = Float::with_val(prec, rng.gen_range(0.0..16.0f64));
            v += Float::with_val(53, rng.gen::<f64>()) >> rng.gen_range(50..140u32);
            let v = -v;
            if v.is_zero() || v <= -16 {
                continue;
            }
            answered += usize::from(check(&v, p));
        }
        assert!(
            answered * 100 > total * 99,
            "answered {answered} of {total}"
        );
        for i in 0..=16u32 {
            for j in 0..=64u32 {
                for prec in [53, 131, 192] {
                    let mut v = -(Float::with_val(prec, i) + Float::with_val(prec, j) / 64u32);
                    for _ in 0..3 {
                        if !v.is_zero() {
                            check(&v, 127);
                            check(&v, 128);
                        }
                        v.next_up();
                    }
                    let mut w = -(Float::with_val(prec, i) + Float::with_val(prec, j) / 64u32);
                    w.next_down();
                    check(&w, 127);
                }
            }
        }
        for e in 1..=80u32 {
            for prec in [53, 131, 192] {
                let v = -(Float::with_val(prec, 1) >> e);
                check(&v, 127);
                let mut w = v.clone();
                w.next_down();
                check(&w, 127);
            }
        }
        // exp_neg_down beyond 128 bits: MPFR's RD_p(exp(-a)), inexact, wherever it answers.
        let (mut answered, mut decidable) = (0, 0);
        for k in 0..20_000 {
            let prec = if k % 2 == 0 {
                157
            } else {
                rng.gen_range(2..=192)
            };
            let p = rng.gen_range(129..=192);
            let mut a = Float::with_val(prec, rng.gen_range(0.0..32.0f64));
            a += Float::with_val(53, rng.gen::<f64>()) >> rng.gen_range(50..190u32);
            if a.is_zero() || a >= 32 {
                continue;
            }
            let neg = Float::with_val(prec, -&a);
            let (expected, dir) = Float::with_val_round(p, neg.exp_ref(), Round::Down);
            // Up to 150 bits, a read exactly (bits from 2^-188 up; a - 16 from 2^-187 up) below
            // 18 (e^-18 > 2^-26 keeps 162 bits of the fixed point) decides nearly always.
            let counted = p <= 150
                && a < 18
                && Wide::from_float(&a).unwrap().exponent().unwrap() - i64::from(prec) >= -188;
            decidable += usize::from(counted);
            if let Some(got) = exp_neg_down(Wide::from_float(&a).unwrap(), p) {
                answered += usize::from(counted);
                assert!(
                    got.to_float(p) == expected && dir == std::cmp::Ordering::Less,
                    "exp(-{a:?}) at {p}"
                );
            }
        }
        assert!(
            answered * 100 > decidable * 99,
            "answered {answered} of {decidable} beyond 128 bits"
        );
        for v in [-15.999_999_999, -16.0, -16.5, -17.0, -1e3, 0.5, 1e-10] {
            check(&Float::with_val(131, v), 127);
        }
        assert!(exp_down(&Float::with_val(131, 0), 127).is_none());
        assert!(exp_down(&Float::with_val(131, 0.5), 127).is_none());
        assert!(exp_down(&Float::with_val(193, -0.5), 127).is_none());
    }
}
