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

    /// A finite f64 as an MPFR number with 2300 bits: every sum and every product of two f64
    /// (exponents from -1074 to 1023) is exact at that precision, so equalities below are exact.
    fn exact(x: f64) -> pbgi_reference::Float {
        pbgi_reference::Float::with_val(2300, x)
    }

    /// Seeded f64 with a random 53-bit significand, a binary exponent uniform in `[lo, hi]`
    /// and a random sign (splitmix64: reproducible without a dependency).
    fn sample(state: &mut u64, lo: i32, hi: i32) -> f64 {
        let mut next = || {
            *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = *state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let bits = next();
        let span = u64::try_from(hi - lo + 1).unwrap();
        let e = lo + i32::try_from(next() % span).unwrap();
        let significand = 1.0 + (bits >> 12) as f64 * 2f64.powi(-52);
        let v = significand * 2f64.powi(e);
        if bits & 1 == 1 {
            -v
        } else {
            v
        }
    }

    /// `two_prod` and `two_square` on both branches (FMA where the CPU has it, Dekker forced).
    fn on_both_branches(check: impl Fn()) {
        for dekker in [false, true] {
            DEKKER_FORCED.with(|f| f.set(dekker));
            check();
        }
        DEKKER_FORCED.with(|f| f.set(false));
    }

    #[test]
    fn fma_detection_is_the_cpu_s() {
        // Compiled in, or (x86-64) reported by the CPU: the dispatch runs the FMA compilation
        // only then (elsewhere its instructions would be illegal), and the exact products take
        // the fused branch only then.
        #[cfg(target_arch = "x86_64")]
        let want = cfg!(target_feature = "fma") || std::is_x86_feature_detected!("fma");
        #[cfg(not(target_arch = "x86_64"))]
        let want = cfg!(target_feature = "fma");
        assert_eq!(fma_detected(), want);
    }

    #[test]
    fn two_sum_is_error_free_and_its_sum_is_the_rounded_sum() {
        // a + b = s + e exactly with s = fl(a + b), checked in MPFR: operands of every relative
        // size (the smaller one first or second), signs and exponents, subnormals included.
        let mut state = 1;
        let tiny = f64::from_bits(1);
        let mut pairs = vec![
            (tiny, -3.0 * tiny),
            (1e-310, 2.5e-320),
            (2f64.powi(-1022), -tiny),
        ];
        for i in 0..20_000 {
            let a = sample(&mut state, -960, 960);
            let b = if i % 2 == 0 {
                sample(&mut state, -1022, 1022)
            } else {
                // Within 2^-60..2^60 of a: the sums that round.
                a * sample(&mut state, -60, 60)
            };
            pairs.push((a, b));
        }
        for (a, b) in pairs {
            for (x, y) in [(a, b), (b, a)] {
                let (s, e) = two_sum(x, y);
                assert_eq!(s, x + y, "{x:e} + {y:e}");
                assert_eq!(exact(s) + exact(e), exact(x) + exact(y), "{x:e} + {y:e}");
            }
        }
    }

    #[test]
    fn two_prod_and_two_square_are_error_free_on_both_branches() {
        // a·b = p + e exactly with p = fl(a·b), in MPFR, inside the stated precondition
        // (|a|, |b| < 2^996, |a·b| > 2^-969), on the FMA and the Dekker branch.
        on_both_branches(|| {
            let mut state = 2;
            for _ in 0..20_000 {
                let a = sample(&mut state, -480, 480);
                let b = sample(&mut state, -480, 480);
                let (p, e) = two_prod(a, b);
                assert_eq!(p, a * b, "{a:e}·{b:e}");
                assert_eq!(exact(p) + exact(e), exact(a) * exact(b), "{a:e}·{b:e}");
                let (p, e) = two_square(a);
                assert_eq!(p, a * a, "{a:e}²");
                assert_eq!(exact(p) + exact(e), exact(a) * exact(a), "{a:e}²");
            }
            // The ends of the range: one factor near 2^995, the product near 2^-969 or 2^1020.
            let big = f64::from_bits(((1023 + 995) << 52) | ((1 << 52) - 1));
            let root2_small = core::f64::consts::SQRT_2 * 2f64.powi(-485);
            for (a, b) in [
                (big, 1.0 - 3.0 * 2f64.powi(-53)),
                (big, (1.0 + 2f64.powi(-52)) * 2f64.powi(24)),
                (root2_small, -root2_small),
            ] {
                let (p, e) = two_prod(a, b);
                assert_eq!(exact(p) + exact(e), exact(a) * exact(b), "{a:e}·{b:e}");
            }
        });
    }

    #[test]
    fn scaled_square_is_error_free_for_every_size() {
        // f·x² = hi + lo exactly with hi = fl(f·x²), below and beyond the rescaling at 1e150
        // and up to the overflow, where it is (+∞, 0); for f = 1/8, 1/4, 1/2.
        on_both_branches(|| {
            let mut state = 3;
            for f in [0.125, 0.25, 0.5] {
                for i in 0..6_000 {
                    let x = match i % 3 {
                        0 => sample(&mut state, -480, 511).abs(),
                        1 => 1e150 * (1.0 + sample(&mut state, -60, -1).abs()),
                        _ => 1e150 * (1.0 - sample(&mut state, -60, -2).abs()),
                    };
                    let (hi, lo) = scaled_square(x, f);
                    let want = exact(x) * exact(x) * f;
                    assert_eq!(hi, (f * x) * x, "{f}·{x:e}²");
                    assert_eq!(exact(hi) + exact(lo), want, "{f}·{x:e}²");
                }
                // Just below and at the overflow, and beyond.
                let top = (f64::MAX / f).sqrt();
                for x in [top, top.next_up(), 2f64.powi(520), f64::MAX, f64::INFINITY] {
                    let (hi, lo) = scaled_square(x, f);
                    if (exact(x) * exact(x) * f).to_f64().is_finite() {
                        assert_eq!(exact(hi) + exact(lo), exact(x) * exact(x) * f, "{x:e}");
                    } else {
                        assert_eq!((hi, lo), (f64::INFINITY, 0.0), "{f}·{x:e}²");
                    }
                }
            }
        });
    }
}
