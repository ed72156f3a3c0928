//! Error-free transformations (double-double building blocks).
//!
//! `two_prod` uses a hardware FMA when the crate is compiled with one (`target_feature = "fma"`),
//! and Dekker's splitting otherwise: without `-C target-feature=+fma`, `f64::mul_add` is a
//! library call, which would dominate the cost of the hot functions. Both are exact when the
//! operands and the product are well inside the normal range (|a|, |b| < 2^996, |a·b| > 2^-969);
//! callers rescale outside it.

/// `a + b = s + e` exactly (Knuth's TwoSum, 6 flops, no ordering precondition).
#[inline(always)]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// `a · b = p + e` exactly (precondition above).
#[cfg(target_feature = "fma")]
#[inline(always)]
pub(crate) fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// `a · b = p + e` exactly (precondition above), Dekker/Veltkamp.
#[cfg(not(target_feature = "fma"))]
#[inline(always)]
pub(crate) fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    (p, e)
}

/// `a² = p + e` exactly (same precondition as [`two_prod`]).
#[cfg(target_feature = "fma")]
#[inline(always)]
pub(crate) fn two_square(a: f64) -> (f64, f64) {
    two_prod(a, a)
}

/// `a² = p + e` exactly (same precondition as [`two_prod`]); one split instead of two.
#[cfg(not(target_feature = "fma"))]
#[inline(always)]
pub(crate) fn two_square(a: f64) -> (f64, f64) {
    let p = a * a;
    let (ah, al) = split(a);
    let e = ((ah * ah - p) + 2.0 * ah * al) + al * al;
    (p, e)
}

/// `f·x² = hi + lo` exactly, for a power of two `f ∈ [2^-3, 2^-1]` and `x ≥ 0` (any size, `+∞`
/// included): `(+∞, 0)` when `f·x²` overflows. Beyond `x = 1e150` the product is formed from
/// `x·2^-600` and scaled back, so that Dekker's splitting cannot overflow. (Where `f·x` is
/// subnormal, `x²` is far below the precision of any sum it enters.)
#[inline(always)]
pub(crate) fn scaled_square(x: f64, f: f64) -> (f64, f64) {
    // Shortest round-trip decimals of the powers of two (checked in the tests below).
    const TWO_M600: f64 = 2.409_919_865_102_884e-181; // 2^-600
    const TWO_600: f64 = 4.149_515_568_880_993e180; // 2^600
    if x < 1e150 {
        two_prod(f * x, x)
    } else {
        let (p, e) = two_prod(x * TWO_M600, f * x);
        let hi = p * TWO_600;
        if hi.is_finite() {
            (hi, e * TWO_600)
        } else {
            (f64::INFINITY, 0.0)
        }
    }
}

#[cfg(not(target_feature = "fma"))]
#[inline(always)]
fn split(a: f64) -> (f64, f64) {
    const C: f64 = 134_217_729.0; // 2^27 + 1
    let t = C * a;
    let hi = t - (t - a);
    (hi, a - hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_prod_is_exact_on_a_known_square() {
        // (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60: the 2^-60 term is the rounding error.
        let a = 1.0 + 2f64.powi(-30);
        let (p, e) = two_prod(a, a);
        assert_eq!(p, 1.0 + 2f64.powi(-29));
        assert_eq!(e, 2f64.powi(-60));
    }

    #[test]
    fn two_square_matches_two_prod() {
        for a in [1.0 + 2f64.powi(-30), 37.123456789, 1e-100 * 3.3, 7.5e150] {
            assert_eq!(two_square(a), two_prod(a, a), "{a:e}");
        }
    }

    #[test]
    fn scaled_square_is_exact_beyond_the_split_range() {
        // x = 3·2^510: f·x² = 9·2^1019 = 1.125·2^1022 for f = 1/2, a single f64 (lo = 0).
        let x = 3.0 * f64::from_bits((1023 + 510) << 52);
        assert_eq!(
            scaled_square(x, 0.5),
            (1.125 * f64::from_bits((1023 + 1022) << 52), 0.0)
        );
        // x = (1 + 2^-30)·2^505: x²/8 = 2^1007·(1 + 2^-29 + 2^-60), the 2^-60 term in lo.
        let x = (1.0 + 2f64.powi(-30)) * f64::from_bits((1023 + 505) << 52);
        let (hi, lo) = scaled_square(x, 0.125);
        assert_eq!(
            hi,
            (1.0 + 2f64.powi(-29)) * f64::from_bits((1023 + 1007) << 52)
        );
        assert_eq!(lo, f64::from_bits((1023 + 1007 - 60) << 52));
    }

    #[test]
    fn two_sum_recovers_the_lost_low_part() {
        let (s, e) = two_sum(1.0, 2f64.powi(-60));
        assert_eq!((s, e), (1.0, 2f64.powi(-60)));
    }
}
