//! Error-free transformations (double-double building blocks).
//!
//! `two_prod` uses a hardware FMA where the code runs with one: always when the crate is
//! compiled with `target_feature = "fma"`, and on x86-64 when the CPU has FMA (detected at run
//! time, cached) inside the FMA compilations of the public functions ([`fma_dispatch`]);
//! otherwise Dekker's splitting (without FMA in the instruction set, `f64::mul_add` is a library
//! call, which would dominate the cost of the hot functions). Both are exact when the operands
//! and the product are well inside the normal range (|a|, |b| < 2^996, |a·b| > 2^-969), so both
//! give the same bits; callers rescale outside it.

/// `a + b = s + e` exactly (Knuth's TwoSum, 6 flops, no ordering precondition).
#[inline(always)]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Whether the exact products use a fused multiply–add: compiled in, or (x86-64) present on
/// this CPU. The FMA compilations of [`fma_dispatch`] run only where it is present, and the
/// baseline ones only where it is absent, so each runs the branch that suits its instruction
/// set (a baseline compilation reaches the fused branch only through a cold helper that is not
/// inlined: a library `fma` call, correctly rounded, hence still exact).
#[inline(always)]
pub(crate) fn fma_enabled() -> bool {
    #[cfg(test)]
    if tests::DEKKER_FORCED.with(|f| f.get()) {
        return false;
    }
    fma_detected()
}

/// FMA compiled in, or detected at run time (x86-64; the standard library caches the answer).
#[inline(always)]
pub(crate) fn fma_detected() -> bool {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "fma")))]
    {
        std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(all(target_arch = "x86_64", not(target_feature = "fma"))))]
    {
        cfg!(target_feature = "fma")
    }
}

/// `a · b = p + e` exactly (precondition above): `e` by a fused multiply–add where
/// [`fma_enabled`], else by Dekker/Veltkamp splitting.
#[inline(always)]
pub(crate) fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    if fma_enabled() {
        return (p, a.mul_add(b, -p));
    }
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    (p, e)
}

/// `a² = p + e` exactly (same precondition as [`two_prod`]); with Dekker's splitting, one split
/// instead of two.
#[inline(always)]
pub(crate) fn two_square(a: f64) -> (f64, f64) {
    if fma_enabled() {
        return two_prod(a, a);
    }
    let p = a * a;
    let (ah, al) = split(a);
    let e = ((ah * ah - p) + 2.0 * ah * al) + al * al;
    (p, e)
}

/// `$body(args)`, compiled twice: with FMA enabled (x86-64, run when the CPU has it; the exact
/// products of [`two_prod`] are then one fused multiply–add) and for the baseline instruction
/// set (Dekker's splitting). The body of a public function, written
/// `fma_dispatch!(name_body(a: f64, …) -> T)`; `name_body` is `#[inline(always)]` so that its
/// hot path is compiled into both. Both give the same bits (the products are exact either way),
/// tested in `fast/src/fma_tests.rs`.
macro_rules! fma_dispatch {
    ($body:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty) => {{
        #[cfg(all(target_arch = "x86_64", not(target_feature = "fma")))]
        if $crate::dd::fma_detected() {
            #[target_feature(enable = "fma")]
            #[allow(unsafe_code)]
            unsafe fn fma($($arg: $ty),*) -> $ret {
                $body($($arg),*)
            }
            // SAFETY: the CPU supports FMA (checked just above), the only requirement of calling
            // a function compiled with it.
            #[allow(unsafe_code)]
            return unsafe { fma($($arg),*) };
        }
        $body($($arg),*)
    }};
}
pub(crate) use fma_dispatch;

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

#[inline(always)]
fn split(a: f64) -> (f64, f64) {
    const C: f64 = 134_217_729.0; // 2^27 + 1
    let t = C * a;
    let hi = t - (t - a);
    (hi, a - hi)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Set by the tests to run the Dekker branch of the exact products even where the code
        /// was compiled for (and runs on) a CPU with FMA.
        pub(crate) static DEKKER_FORCED: Cell<bool> = const { Cell::new(false) };
    }

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
