//! Kernels shared by `h`, `ei`, `ln_h`, `log_ei`: `σ·h(z)` and `ln h(z)` with `z` given as an
//! unevaluated sum `zhi + zlo` (|zlo| ≤ 2^-51·|zhi|), so that the rounding of `(y - μ)/σ` is
//! not amplified (the relative condition number of `h` at `z ≪ 0` is about `z²`).
use crate::dd::{scaled_square, two_prod, two_square, two_sum};
use crate::exp_reduced::exp_neg_reduced;
use crate::tail::p_tail_sq;

/// Beyond this `x`, `σ·h(-x) < f64::MAX · e^{-1800}` underflows to 0 for every finite σ.
pub(crate) const X_UNDERFLOW: f64 = 60.0;

/// `σ·h(-(x + xlo))·2^k` for `0 ≤ x ≤ 2·X_UNDERFLOW`, `σ ∈ [1e-280, 1e280]` (`k` lets callers form
/// ratios such as `EI/c` where EI itself underflows).
///
/// `h(-x) = p(x)·exp(-x²/2)`; `x² = hi + lo` exactly, `exp(-hi/2) = 2^-n·exp(r)` with a
/// Cody–Waite reduction that is exact (`n·LN2_HI` exact, `|r| ≤ |hi/2|`), so the exponential
/// only sees `|r| ≤ 0.35` (plus `n·LN2_LO`, whose rounding costs ≤ 2^-54 relative), and returns
/// `exp(r)` with its low part ([`exp_neg_reduced`]). The low part and the remaining first-order
/// corrections (`-lo/2`, the low part of `x` through `p'(x)`, and `p`'s own `rel`) have
/// relative size ≤ 1e-12 and are applied in the low word of the exact product `σ·p·e`, without
/// an extra rounding. The result carries the errors of `p`, of the exponential's polynomial
/// and one rounding (plus one if it is subnormal).
#[inline(always)]
pub(crate) fn sigma_h_neg(x: f64, xlo: f64, sigma: f64, k: i32) -> f64 {
    let (hi, lo) = two_square(x);
    let (n, e, e_lo) = exp_neg_reduced(0.5 * hi);
    let t = p_tail_sq(x, hi, lo);
    let corr = t.rel - (0.5 * lo + x * xlo);
    let (m_hi, m_lo) = two_prod(t.hi, e);
    let (s_hi, s_lo) = two_prod(sigma, m_hi);
    // p(x + xlo) ≈ p + p'·xlo: the σ·e·p'·xlo term replaces a division by p.
    let m_lo = m_lo + t.hi * e_lo;
    let v = s_hi + ((s_lo + sigma * (m_lo + e * (t.lo + t.dp * xlo))) + s_hi * corr);
    scale_pow2(v, k - n as i32)
}

/// `ln(σ·h(-(x + xlo)))` for finite `x ≥ 0`, `σ ∈ [1e-280, 1e280]`: `-x²/2 + ln(σ·p(x))`
/// with `x²` and `σ·p` exact (one logarithm), summed by an error-free addition so that only
/// the logarithm's error, `p`'s and one final rounding remain; relative to the result when
/// `σ ≤ 1` (then both terms are ≤ 0).
#[inline(always)]
pub(crate) fn ln_sigma_h_neg(x: f64, xlo: f64, sigma: f64) -> f64 {
    let (hi, lo) = two_square(x);
    let t = p_tail_sq(x, hi, lo);
    let (sp_hi, sp_lo) = two_prod(sigma, t.hi);
    let (a, b) = two_sum(-0.5 * hi, sp_hi.ln());
    let small = (sp_lo + sigma * (t.lo + t.dp * xlo)) / sp_hi + t.rel - (0.5 * lo + x * xlo);
    a + (b + small)
}

/// `ln σ + ln h(-(x + xlo))` given `ln σ` (any σ): as [`ln_sigma_h_neg`] with a second
/// error-free addition for `ln σ`.
#[inline(always)]
pub(crate) fn ln_h_neg_plus(x: f64, xlo: f64, ln_sigma: f64) -> f64 {
    let (hi, lo) = two_square(x);
    let t = p_tail_sq(x, hi, lo);
    let (a, b) = two_sum(-0.5 * hi, t.hi.ln());
    let (c, d) = two_sum(a, ln_sigma);
    let small = (t.lo + t.dp * xlo) / t.hi + t.rel - (0.5 * lo + x * xlo);
    c + (d + (b + small))
}

/// `ln h(-x)` for `x ≥ 0` (`+∞` included): [`ln_sigma_h_neg`] up to [`X_HUGE`], then
/// [`ln_h_neg_huge`].
#[inline(always)]
pub(crate) fn ln_h_neg(x: f64) -> f64 {
    if x < X_HUGE {
        ln_sigma_h_neg(x, 0.0, 1.0)
    } else {
        ln_h_neg_huge(x, || 0.0, 0.0, 1.0)
    }
}

/// From here on `ln h(-x) = -x²/2 - 2·ln x - ln √(2π)` to all digits (the next term,
/// `-3/x²`, is below `2^-1000`), and `x²` needs care (it overflows beyond `1.34e154`).
pub(crate) const X_HUGE: f64 = 3.273_390_607_896_142e150; // 2^500

/// `f·(ln σ + ln h(-(x + xlo)))` for `x ≥ X_HUGE` (`+∞` included), given `ln σ` (any finite
/// σ) and a scale `f ∈ {1, 1/4}` (the quarter lets callers combine it with other huge terms):
/// `-f·x²/2 - f·x·xlo + f·(ln σ - 2·ln x - ln √(2π))`, with `f·x²/2 = a + b` exact
/// ([`scaled_square`]). The result is `-∞` exactly when `f·x²/2` overflows (the other terms
/// are far below `ulp(f·x²/2)` then). `xlo` is only evaluated when the result is finite (it may
/// be NaN beyond that). Error: one rounding, plus the rounding of the small sum, below
/// `2^-900` relative.
#[cold]
pub(crate) fn ln_h_neg_huge(x: f64, xlo: impl FnOnce() -> f64, ln_sigma: f64, f: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let (a, b) = scaled_square(x, 0.5 * f);
    if a == f64::INFINITY {
        return f64::NEG_INFINITY;
    }
    let small = f * (ln_sigma - (2.0 * x.ln() + LN_SQRT_2PI));
    -a + ((small - f * (x * xlo())) - b)
}

/// `ln √(2π)`.
pub(crate) const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// `(dhi + dlo) + σ·h(-z)` for `z ≥ 0`, finite `σ ∈ [1e-280, 1e280]`: with `dhi + dlo = σz`
/// this is `σ·h(z)` (`h(z) = z + h(-z)`). `z²` exact, `p·e` and `σ·(p·e)` exact products, and
/// `dhi + σ·p·e` an error-free sum (`e = exp(-z²/2)` as [`sigma_h_neg`]'s, scaled by `2^-n`),
/// so the result carries the errors of `p`, of the exponential's polynomial and one final
/// rounding, weighted by `h(-z)/h(z) ≤ 1`.
#[inline(always)]
pub(crate) fn sigma_h_pos(z: f64, sigma: f64, dhi: f64, dlo: f64) -> f64 {
    if z > Z_BEYOND {
        return dhi + dlo;
    }
    sigma_h_pos_kernel(z, sigma, dhi, dlo)
}

/// Beyond this `z`, [`sigma_h_pos`] is `dhi + dlo` rounded once: `σ·h(-z) < 2^-300·σz`, and
/// every term the kernel would add to `dhi + dlo` is as small, so the kernel's result has the
/// same bits ([`sigma_h_pos_kernel`], the argument there; test
/// `beyond_twenty_the_kernel_gives_the_rounded_difference`).
pub(crate) const Z_BEYOND: f64 = 20.0;

/// The body of [`sigma_h_pos`] without its shortcut, for `0 ≤ z ≤ 40`.
///
/// For `z > 20` it returns `fl(dhi + dlo)`: with `dhi + dlo = σz` and `dhi > 0` normal
/// (`σ ≥ 1e-280`), every term besides `dhi` and `dlo` (`s_hi`, `s_lo`, `σ·(m_lo + e·lo)`,
/// `s_hi·corr`, even where a product is subnormal and its error term is not exact) is at most
/// `4σ·p(z)·e^{-z²/2} + 2^-1070 ≤ 2^-300·dhi`. So `a = dhi`, `b = s_hi` (below a quarter
/// ulp of `dhi`), and the inner sum `S` is: `dlo` exactly when `|dlo| ≥ 2^-80·dhi` (each term
/// added is below a quarter ulp of `dlo`), so the result is `fl(dhi + dlo)`; else
/// `|S| < 2^-79·dhi`, below half an ulp of `dhi`, and the result is `dhi = fl(dhi + dlo)`.
#[inline(always)]
pub(crate) fn sigma_h_pos_kernel(z: f64, sigma: f64, dhi: f64, dlo: f64) -> f64 {
    let (hi, lo) = two_square(z);
    let (n, e, e_lo) = exp_neg_reduced(0.5 * hi);
    // 2^-n exact unless subnormal (z > 37.6, where σ·h(-z)/(σz) < e^{-700}).
    let (e, e_lo) = (scale_pow2(e, -(n as i32)), scale_pow2(e_lo, -(n as i32)));
    let t = p_tail_sq(z, hi, lo);
    let corr = t.rel - 0.5 * lo;
    let (m_hi, m_lo) = two_prod(t.hi, e);
    let (s_hi, s_lo) = two_prod(sigma, m_hi);
    let m_lo = m_lo + t.hi * e_lo;
    let (a, b) = two_sum(dhi, s_hi);
    a + (b + (dlo + (s_lo + sigma * (m_lo + e * t.lo)) + s_hi * corr))
}

/// `exp(-z²/2)` (plain; used where only a few digits matter, e.g. Newton derivatives).
#[inline(always)]
pub(crate) fn gauss_unscaled(z: f64) -> f64 {
    (-0.5 * z * z).exp()
}

/// `v · 2^j` with one rounding (only if the result is subnormal).
#[inline(always)]
pub(crate) fn scale_pow2(v: f64, j: i32) -> f64 {
    if (-1000..=1000).contains(&j) {
        v * f64::from_bits(((1023 + j) as u64) << 52)
    } else {
        libm::scalbn(v, j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Half an ulp of `v > 0` (a power of two, exact).
    fn half_ulp(v: f64) -> f64 {
        (v.next_up() - v) / 2.0
    }

    #[test]
    fn beyond_twenty_the_kernel_gives_the_rounded_difference() {
        // The shortcut of sigma_h_pos above Z_BEYOND returns what the kernel would: z ∈ (20, 40],
        // σ over the kernel range, and low parts at the ties (±half an ulp of dhi), next to
        // them, at the 2^-80 boundary of the argument, tiny, subnormal and zero.
        let mut rng = ChaCha8Rng::seed_from_u64(0x5ca1_ed20);
        for _ in 0..20_000 {
            let sigma = match rng.gen_range(0..3) {
                0 => 10f64.powf(rng.gen_range(-280.0..280.0)),
                1 => 10f64.powf(rng.gen_range(-2.0..0.301)),
                _ => [1e-280, 1e280, 1.0][rng.gen_range(0..3)],
            };
            let z = match rng.gen_range(0..4) {
                0 => Z_BEYOND.next_up(),
                1 => 40.0,
                _ => rng.gen_range(Z_BEYOND..40.0),
            };
            let dhi = sigma * z;
            let u = half_ulp(dhi);
            let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
            let dlo = sign
                * match rng.gen_range(0..8) {
                    0 => u,
                    1 => u.next_down(),
                    2 => rng.gen_range(0.0..1.0) * u,
                    3 => dhi * 2f64.powi(-80),
                    4 => dhi * 2f64.powi(-81) * rng.gen_range(0.5..1.5),
                    5 => 5e-324 * rng.gen_range(1.0..1e6),
                    6 => dhi * 2f64.powi(-200),
                    _ => 0.0,
                };
            let kernel = sigma_h_pos_kernel(z, sigma, dhi, dlo);
            assert_eq!(
                kernel.to_bits(),
                (dhi + dlo).to_bits(),
                "z = {z:e}, σ = {sigma:e}, dhi = {dhi:e}, dlo = {dlo:e}: kernel {kernel:e}"
            );
            assert_eq!(sigma_h_pos(z, sigma, dhi, dlo).to_bits(), kernel.to_bits());
        }
    }
}
