//! Four f64 lanes processed together, and the run-time choice of the instruction set for them.
//!
//! [`F64x4`] is a plain `[f64; 4]` whose operations are lane-wise loops; compiled inside a
//! function with AVX2 and FMA enabled ([`lanes_entry`]) they become 256-bit vector instructions,
//! and in the portable build two 128-bit SSE2 ones (or scalar code on other targets). Every
//! lane-wise operation is the IEEE operation of the scalar code, in the same order, and no
//! multiply–add is ever fused implicitly (Rust does not contract), so a lane computes the same
//! bits as the scalar kernel it mirrors. The one fused operation, in [`two_prod`], computes an
//! exact error term, equal to Dekker's under the same preconditions.
use core::ops::{Add, Div, Mul, Neg, Sub};

/// Number of lanes.
pub(crate) const LANES: usize = 4;

/// Four f64 lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F64x4(pub [f64; LANES]);

/// Four lane conditions.
pub(crate) type Mask = [bool; LANES];

impl F64x4 {
    #[inline(always)]
    pub(crate) fn splat(v: f64) -> Self {
        F64x4([v; LANES])
    }

    #[inline(always)]
    pub(crate) fn map(self, f: impl Fn(f64) -> f64) -> Self {
        F64x4([f(self.0[0]), f(self.0[1]), f(self.0[2]), f(self.0[3])])
    }

    #[inline(always)]
    pub(crate) fn test(self, f: impl Fn(f64) -> bool) -> Mask {
        core::array::from_fn(|l| f(self.0[l]))
    }

    #[inline(always)]
    pub(crate) fn abs(self) -> Self {
        self.map(f64::abs)
    }

    /// `v[i..i + 4]` (panics beyond the end, which callers rule out).
    #[inline(always)]
    pub(crate) fn load(v: &[f64], i: usize) -> Self {
        let w = &v[i..i + LANES];
        F64x4([w[0], w[1], w[2], w[3]])
    }

    /// `a` where `m`, else `b`.
    #[inline(always)]
    pub(crate) fn select(m: Mask, a: Self, b: Self) -> Self {
        F64x4(core::array::from_fn(|l| if m[l] { a.0[l] } else { b.0[l] }))
    }
}

macro_rules! lane_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for F64x4 {
            type Output = F64x4;
            #[inline(always)]
            fn $method(self, o: F64x4) -> F64x4 {
                F64x4(core::array::from_fn(|l| self.0[l] $op o.0[l]))
            }
        }
        impl $trait<f64> for F64x4 {
            type Output = F64x4;
            #[inline(always)]
            fn $method(self, o: f64) -> F64x4 {
                F64x4(core::array::from_fn(|l| self.0[l] $op o))
            }
        }
        impl $trait<F64x4> for f64 {
            type Output = F64x4;
            #[inline(always)]
            fn $method(self, o: F64x4) -> F64x4 {
                F64x4(core::array::from_fn(|l| self $op o.0[l]))
            }
        }
    };
}
lane_op!(Add, add, +);
lane_op!(Sub, sub, -);
lane_op!(Mul, mul, *);
lane_op!(Div, div, /);

impl Neg for F64x4 {
    type Output = F64x4;
    #[inline(always)]
    fn neg(self) -> F64x4 {
        self.map(|v| -v)
    }
}

/// Knuth's TwoSum lane by lane (as `crate::dd::two_sum`).
#[inline(always)]
pub(crate) fn two_sum(a: F64x4, b: F64x4) -> (F64x4, F64x4) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Dekker's FastTwoSum lane by lane (as `crate::tail`'s, `|a| ≥ |b|`).
#[inline(always)]
pub(crate) fn fast_two_sum(a: F64x4, b: F64x4) -> (F64x4, F64x4) {
    let s = a + b;
    (s, b - (s - a))
}

/// `a·b = p + e` exactly, lane by lane, under the preconditions of `crate::dd::two_prod`
/// (`|a|, |b| < 2^996`, `|a·b| > 2^-969`): with a fused multiply–add when `FMA` (only in code
/// compiled with the FMA instruction set, see [`lanes_entry`]), else Dekker's splitting. Both give
/// the exact error, so both give the same bits.
#[inline(always)]
pub(crate) fn two_prod<const FMA: bool>(a: F64x4, b: F64x4) -> (F64x4, F64x4) {
    let p = a * b;
    if FMA {
        (
            p,
            F64x4(core::array::from_fn(|l| a.0[l].mul_add(b.0[l], -p.0[l]))),
        )
    } else {
        let (ah, al) = split(a);
        let (bh, bl) = split(b);
        (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
    }
}

/// `a² = p + e` exactly (see [`two_prod`]).
#[inline(always)]
pub(crate) fn two_square<const FMA: bool>(a: F64x4) -> (F64x4, F64x4) {
    two_prod::<FMA>(a, a)
}

#[inline(always)]
fn split(a: F64x4) -> (F64x4, F64x4) {
    let t = a * 134_217_729.0; // 2^27 + 1
    let hi = t - (t - a);
    (hi, a - hi)
}

/// `out[i]` for every `i`, four at a time: `x4(i)` gives the values of `i..i + 4` and the
/// lanes it settled; `scalar(j)` computes the other lanes and the last `out.len() % 4`.
#[inline(always)]
pub(crate) fn for_each_x4(
    out: &mut [f64],
    x4: impl Fn(usize) -> (F64x4, Mask),
    scalar: impl Fn(usize) -> f64,
) {
    let n = out.len();
    let whole = n - n % LANES;
    let mut i = 0;
    while i < whole {
        let (v, settled) = x4(i);
        for l in 0..LANES {
            out[i + l] = if settled[l] { v.0[l] } else { scalar(i + l) };
        }
        i += LANES;
    }
    for (j, o) in out.iter_mut().enumerate().skip(whole) {
        *o = scalar(j);
    }
}

/// Defines `fn $name(args)` running `$kernel::<true>(args)` compiled for AVX2 + FMA when the
/// CPU has both, else `$kernel::<false>(args)` (the portable build): the one place where the
/// instruction set is chosen, and the crate's only `unsafe` (calling a function compiled for
/// an instruction set is safe exactly when the CPU has it).
macro_rules! lanes_entry {
    (
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) => $kernel:ident
    ) => {
        $(#[$doc])*
        #[inline]
        #[allow(unsafe_code)]
        pub(crate) fn $name($($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            {
                if $crate::lanes::avx2_fma_detected() {
                    #[target_feature(enable = "avx2,fma")]
                    unsafe fn avx2($($arg: $ty),*) {
                        $kernel::<true>($($arg),*)
                    }
                    // SAFETY: the CPU supports AVX2 and FMA (checked just above), the only
                    // requirement of calling a function compiled with them.
                    unsafe { avx2($($arg),*) };
                    return;
                }
            }
            $kernel::<false>($($arg),*)
        }
    };
}
pub(crate) use lanes_entry;

/// Whether the CPU has AVX2 and FMA (cached by the standard library after the first call).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx2_fma_detected() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// Which compilation the `*_slice` functions run on this CPU: `"avx2+fma"` (four lanes per
/// 256-bit vector, hardware FMA) or `"portable"` (the baseline instruction set). Both give the
/// same bits as the scalar functions.
pub fn simd_path() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if avx2_fma_detected() {
        return "avx2+fma";
    }
    "portable"
}
