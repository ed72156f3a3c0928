//! `exp(r)` for a reduced argument `|r| ≤ 0.35`, as an unevaluated sum `hi + lo`, by one
//! polynomial that the scalar kernels and the lane kernels share.
//!
//! The library `exp` is a call per value, which a group of lanes cannot share (and which forces the
//! lanes' registers to the stack around it); this kernel is a handful of multiplications and
//! additions, written once, generically, so a lane computes exactly the scalar bits. Returning
//! `exp(r)` with its low part removes the final rounding from the error: callers multiply the
//! high part exactly and add `hi·lo`-sized corrections in their low words.
//!
//! Error (`proofs-notes/fast-error-analysis.md`, "Scaled exponential"): `hi + lo = exp(r)·(1 + δ)`
//! with `|δ| ≤ 0.9ε` (`ε = 2^-53`), measured ≤ 0.47ε against MPFR (the tests below).
use crate::consts::{INV_LN2, LN2_HI, LN2_LO};
use core::ops::{Add, Mul, Sub};

/// The arithmetic a kernel needs: `f64` itself, or a lane type of `crate::lanes` (every
/// operation lane by lane, IEEE, never fused), so one generic body gives both the same bits.
pub(crate) trait Arith:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Add<f64, Output = Self>
    + Sub<f64, Output = Self>
    + Mul<f64, Output = Self>
{
}

impl<T> Arith for T where
    T: Copy
        + Add<Output = T>
        + Sub<Output = T>
        + Mul<Output = T>
        + Add<f64, Output = T>
        + Sub<f64, Output = T>
        + Mul<f64, Output = T>
{
}

/// `1/k!` for `k = 14, 13, …, 2`, correctly rounded (checked against `1.0 / k!` in the tests).
const INV_FACTORIALS: [f64; 13] = [
    1.147_074_559_772_972_5e-11,
    1.605_904_383_682_161_3e-10,
    2.087_675_698_786_81e-9,
    2.505_210_838_544_172e-8,
    2.755_731_922_398_589e-7,
    2.755_731_922_398_589_3e-6,
    2.480_158_730_158_73e-5,
    1.984_126_984_126_984e-4,
    1.388_888_888_888_889e-3,
    8.333_333_333_333_333e-3,
    4.166_666_666_666_666_4e-2,
    1.666_666_666_666_666_6e-1,
    0.5,
];

/// `exp(r) ≈ hi + lo` for `|r| ≤ 0.35`: the Taylor polynomial of degree 14,
/// `q = r + r²·(1/2! + r/3! + … + r¹²/14!)` by Horner's scheme, then `hi + lo = 1 + q` exactly
/// (Dekker's FastTwoSum, `|q| < 1`). `hi ∈ [0.70, 1.42]`, `|lo| ≤ ulp(hi)/2`.
#[inline(always)]
pub(crate) fn exp_reduced<T: Arith>(r: T) -> (T, T) {
    let mut acc = r * INV_FACTORIALS[0] + INV_FACTORIALS[1];
    let mut k = 2;
    while k < INV_FACTORIALS.len() {
        acc = r * acc + INV_FACTORIALS[k];
        k += 1;
    }
    let q = r + (r * r) * acc;
    let hi = q + 1.0;
    (hi, q - (hi - 1.0))
}

/// `exp(-a) = 2^-n·(hi + lo)` for `0 ≤ a ≤ 2^20`, returning `(n, hi, lo)`: Cody–Waite
/// reduction `r = (n·LN2_HI - a) + n·LN2_LO` with `n = round(a/ln 2)` (`n·LN2_HI` and the
/// difference are exact, so only the addition of `n·LN2_LO` rounds, by ≤ 0.25ε absolute), then
/// [`exp_reduced`] of `|r| < 0.35`.
#[inline(always)]
pub(crate) fn exp_neg_reduced<T: Arith>(a: T) -> (T, T, T) {
    let n = round_to_int(a * INV_LN2);
    let (hi, lo) = exp_reduced((n * LN2_HI - a) + n * LN2_LO);
    (n, hi, lo)
}

/// Round to the nearest integer (as f64) for `|v| < 2^51`, without a library call.
#[inline(always)]
pub(crate) fn round_to_int<T: Arith>(v: T) -> T {
    const SHIFT: f64 = 6_755_399_441_055_744.0; // 1.5·2^52
    (v + SHIFT) - SHIFT
}

#[cfg(test)]
mod tests {
    use super::*;
    use pbgi_reference::Float;

    #[test]
    fn coefficients_are_the_correctly_rounded_inverse_factorials() {
        for (i, &c) in INV_FACTORIALS.iter().enumerate() {
            let k = 14 - i as u32;
            let factorial: f64 = (1..=k).map(f64::from).product(); // exact below 18!
            assert_eq!(c, 1.0 / factorial, "1/{k}!");
        }
    }

    /// `(hi + lo)/exp(r) - 1` in units of `ε = 2^-53`, at 200 bits.
    fn relative_error(r: f64) -> f64 {
        let (hi, lo) = exp_reduced(r);
        let exact = Float::with_val(200, r).exp();
        let got = Float::with_val(200, hi) + Float::with_val(200, lo);
        let rel = (got / exact - 1u32).to_f64();
        rel / f64::EPSILON * 2.0
    }

    #[test]
    fn within_half_an_epsilon_of_exp_over_the_reduced_range() {
        // A dense grid over [-0.35, 0.35] plus the ends, zero and tiny arguments.
        let mut worst: f64 = 0.0;
        let n = 200_000;
        let grid = (0..=n).map(|i| -0.35 + 0.7 * i as f64 / n as f64);
        for r in grid.chain([0.0, -0.0, 1e-300, -1e-300, 2f64.powi(-60), -0.35, 0.35]) {
            let e = relative_error(r).abs();
            assert!(e <= 0.5, "exp_reduced({r:e}): {e} ε");
            worst = worst.max(e);
        }
        println!("exp_reduced: max relative error {worst:.3} ε over the grid");
    }

    #[test]
    fn high_part_is_within_one_ulp_of_the_library_exp() {
        // An independent cross-check of the scale: glibc's exp is within 0.511 ulp.
        for i in 0..=7000 {
            let r = -0.35 + 1e-4 * i as f64;
            let (hi, _) = exp_reduced(r);
            let ulps = (hi.to_bits() as i64 - r.exp().to_bits() as i64).abs();
            assert!(ulps <= 1, "exp_reduced({r}) = {hi:e}, exp = {:e}", r.exp());
        }
    }

    #[test]
    fn reduction_gives_exp_of_minus_a() {
        // exp(-a) = 2^-n·(hi + lo) within 1.2ε (0.9ε of exp_reduced, 0.25ε of the reduction)
        // for a up to the largest argument the kernels pass (x²/2 with x = 120).
        for i in 0..=20_000 {
            let a = 7200.0 * (i as f64 / 20_000.0).powi(3);
            let (n, hi, lo) = exp_neg_reduced(a);
            let exact = Float::with_val(200, -a).exp();
            let got = (Float::with_val(200, hi) + lo) >> (n as i32);
            let rel = (got / exact - 1u32).to_f64() / f64::EPSILON * 2.0;
            assert!(rel.abs() <= 1.2, "exp(-{a:e}): {rel} ε");
        }
    }

    #[test]
    fn lanes_give_the_scalar_bits() {
        use crate::lanes::F64x4;
        let r = F64x4([-0.347, -1e-17, 0.123_456_789, 0.346]);
        let (hi, lo) = exp_reduced(r);
        for l in 0..4 {
            let (h, o) = exp_reduced(r.0[l]);
            assert_eq!(
                (hi.0[l].to_bits(), lo.0[l].to_bits()),
                (h.to_bits(), o.to_bits())
            );
        }
    }
}
