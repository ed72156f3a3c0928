//! Groups of f64 lanes processed together, and the run-time choice of the instruction set for
//! them.
//!
//! The kernels are written once, generically over [`Lanes`] (`N` lanes, four unless stated), and
//! compiled several times ([`lanes_entry`]): with [`Avx8`] (one 512-bit AVX-512 register, eight
//! lanes, hardware FMA) for the kernels written for any `N` when the CPU has AVX-512F; with
//! [`Avx4`] (one 256-bit AVX register, hardware FMA) when the CPU has AVX2 and FMA, the same
//! [`Avx4`] code once more with AVX-512VL enabled when the CPU also has that (32 vector
//! registers instead of 16, so fewer spills; the operations are the same 256-bit IEEE
//! operations), else with [`F64x4`] (a plain `[f64; 4]` of lane-wise loops, the baseline
//! instruction set). Every lane-wise operation is the IEEE operation of the scalar code, in the
//! same order, and no multiply–add is ever fused implicitly (Rust does not contract), so a lane
//! computes the same bits as the scalar kernel it mirrors, whatever the number of lanes. The
//! one fused operation, in [`two_prod`], computes an exact error term, equal to Dekker's under
//! the same preconditions.
use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

/// Number of lanes of the four-lane types ([`F64x4`], [`Avx4`]), the default of [`Lanes`].
pub(crate) const LANES: usize = 4;

/// Four lane conditions, as the callers read them.
pub(crate) type Mask = [bool; LANES];

/// `N` lane conditions in the representation of a [`Lanes`] type.
pub(crate) trait LaneMask<const N: usize = LANES>:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self>
{
    fn bools(self) -> [bool; N];
    fn any(self) -> bool;
    fn all(self) -> bool;
}

/// `N` f64 lanes: IEEE arithmetic lane by lane (never fused), comparisons with a constant,
/// selects, and conversions to and from arrays (for table rows and library calls per lane).
/// The number of lanes is the type's: four for [`F64x4`] and [`Avx4`], eight for [`Avx8`].
pub(crate) trait Lanes<const N: usize = LANES>:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Add<f64, Output = Self>
    + Sub<f64, Output = Self>
    + Mul<f64, Output = Self>
{
    type Mask: LaneMask<N>;
    /// Whether [`Lanes::mul_sub`] is a fused multiply–add (else it is never called).
    const FMA: bool;
    fn splat(v: f64) -> Self;
    fn from_array(a: [f64; N]) -> Self;
    fn to_array(self) -> [f64; N];
    fn abs(self) -> Self;
    fn lt(self, c: f64) -> Self::Mask;
    fn le(self, c: f64) -> Self::Mask;
    fn gt(self, c: f64) -> Self::Mask;
    fn ge(self, c: f64) -> Self::Mask;
    /// `a` where `m`, else `b`.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// `f64::trunc` of every lane.
    fn trunc(self) -> Self;
    /// `f64::sqrt` of every lane (correctly rounded, as IEEE requires of both).
    fn sqrt(self) -> Self;
    /// `2^-n` for integer `n`, clamped into `[0, 1000]` (the factor of `scaled_h::scale_pow2`).
    fn pow2_neg(self) -> Self;
    /// `a·b - p` rounded once (only where [`Lanes::FMA`]).
    fn mul_sub(a: Self, b: Self, p: Self) -> Self;
    /// Every lane, an integer in `[0, 2^31)`, as a `usize` (table indices; other values give
    /// an unspecified index, never a panic).
    fn to_indices(self) -> [usize; N];

    /// Four consecutive table entries of `N` rows, transposed: `out[k]` holds `rows[l][k]` in
    /// lane `l` (plain loads; the AVX lanes load whole rows and shuffle).
    #[inline(always)]
    fn transpose_rows(rows: [&[f64; 4]; N]) -> [Self; 4] {
        core::array::from_fn(|k| Self::from_array(core::array::from_fn(|l| rows[l][k])))
    }

    /// `v[i..i + N]` (panics beyond the end, which callers rule out).
    #[inline(always)]
    fn load(v: &[f64], i: usize) -> Self {
        let mut a = [0.0; N];
        a.copy_from_slice(&v[i..i + N]);
        Self::from_array(a)
    }

    /// `f` of every lane.
    #[inline(always)]
    fn map(self, f: impl Fn(f64) -> f64) -> Self {
        let mut a = self.to_array();
        for v in &mut a {
            *v = f(*v);
        }
        Self::from_array(a)
    }
}

/// The threshold `y` of the EI kernels (EI, LogEI, LogEIPC and their gradients): one value
/// for every point (`f64`, the BO case of one incumbent) or one per point (`&[f64]`, as long as
/// the other slices). The kernels are written once over it; a lane's `y` is the same `f64`
/// either way (splatted or loaded), so both forms give the bits of the scalar functions.
pub(crate) trait Threshold: Copy {
    /// The thresholds of the points `i..i + N`.
    fn lanes<const N: usize, V: Lanes<N>>(self, i: usize) -> V;
    /// The threshold of point `i`.
    fn at(self, i: usize) -> f64;
}

impl Threshold for f64 {
    #[inline(always)]
    fn lanes<const N: usize, V: Lanes<N>>(self, _: usize) -> V {
        V::splat(self)
    }
    #[inline(always)]
    fn at(self, _: usize) -> f64 {
        self
    }
}

impl Threshold for &[f64] {
    #[inline(always)]
    fn lanes<const N: usize, V: Lanes<N>>(self, i: usize) -> V {
        V::load(self, i)
    }
    #[inline(always)]
    fn at(self, i: usize) -> f64 {
        self[i]
    }
}

/// The portable lanes: a plain `[f64; 4]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F64x4(pub [f64; LANES]);

/// The portable lane conditions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bools(Mask);

impl BitAnd for Bools {
    type Output = Bools;
    #[inline(always)]
    fn bitand(self, o: Bools) -> Bools {
        Bools(core::array::from_fn(|l| self.0[l] & o.0[l]))
    }
}

impl BitOr for Bools {
    type Output = Bools;
    #[inline(always)]
    fn bitor(self, o: Bools) -> Bools {
        Bools(core::array::from_fn(|l| self.0[l] | o.0[l]))
    }
}

impl Not for Bools {
    type Output = Bools;
    #[inline(always)]
    fn not(self) -> Bools {
        Bools(self.0.map(|b| !b))
    }
}

impl LaneMask for Bools {
    #[inline(always)]
    fn bools(self) -> Mask {
        self.0
    }
    #[inline(always)]
    fn any(self) -> bool {
        self.0.iter().any(|&b| b)
    }
    #[inline(always)]
    fn all(self) -> bool {
        self.0.iter().all(|&b| b)
    }
}

impl Lanes for F64x4 {
    type Mask = Bools;
    const FMA: bool = false;
    #[inline(always)]
    fn splat(v: f64) -> Self {
        F64x4([v; LANES])
    }
    #[inline(always)]
    fn from_array(a: [f64; LANES]) -> Self {
        F64x4(a)
    }
    #[inline(always)]
    fn to_array(self) -> [f64; LANES] {
        self.0
    }
    #[inline(always)]
    fn abs(self) -> Self {
        F64x4(self.0.map(f64::abs))
    }
    #[inline(always)]
    fn lt(self, c: f64) -> Bools {
        Bools(self.0.map(|v| v < c))
    }
    #[inline(always)]
    fn le(self, c: f64) -> Bools {
        Bools(self.0.map(|v| v <= c))
    }
    #[inline(always)]
    fn gt(self, c: f64) -> Bools {
        Bools(self.0.map(|v| v > c))
    }
    #[inline(always)]
    fn ge(self, c: f64) -> Bools {
        Bools(self.0.map(|v| v >= c))
    }
    #[inline(always)]
    fn select(m: Bools, a: Self, b: Self) -> Self {
        F64x4(core::array::from_fn(
            |l| if m.0[l] { a.0[l] } else { b.0[l] },
        ))
    }
    #[inline(always)]
    fn trunc(self) -> Self {
        F64x4(self.0.map(f64::trunc))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        F64x4(self.0.map(f64::sqrt))
    }
    #[inline(always)]
    fn pow2_neg(self) -> Self {
        F64x4(self.0.map(|n| {
            let j = n.clamp(0.0, 1000.0) as u64;
            f64::from_bits((1023 - j) << 52)
        }))
    }
    #[inline(always)]
    fn mul_sub(a: Self, b: Self, p: Self) -> Self {
        F64x4(core::array::from_fn(|l| a.0[l].mul_add(b.0[l], -p.0[l])))
    }
    #[inline(always)]
    fn to_indices(self) -> [usize; LANES] {
        self.0.map(|v| v as u32 as usize)
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
        F64x4(self.0.map(|v| -v))
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx::Avx4;

/// The AVX lanes: one 256-bit register.
///
/// Every operation is an AVX intrinsic, which may only run on a CPU with AVX. `Avx4` is only
/// named by [`lanes_entry`], inside the function it compiles with AVX2 and FMA and calls after
/// checking that the CPU has them (and by the tests, likewise), so every `unsafe` below relies
/// on that one check.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx {
    use super::{LaneMask, Lanes, Mask, LANES};
    use core::arch::x86_64::*;
    use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx4(__m256d);

    /// All-ones lanes where true.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct AvxMask(__m256d);

    impl BitAnd for AvxMask {
        type Output = AvxMask;
        #[inline(always)]
        fn bitand(self, o: AvxMask) -> AvxMask {
            // SAFETY: see the module (AVX checked by the caller of the kernel).
            AvxMask(unsafe { _mm256_and_pd(self.0, o.0) })
        }
    }

    impl BitOr for AvxMask {
        type Output = AvxMask;
        #[inline(always)]
        fn bitor(self, o: AvxMask) -> AvxMask {
            // SAFETY: see the module.
            AvxMask(unsafe { _mm256_or_pd(self.0, o.0) })
        }
    }

    impl Not for AvxMask {
        type Output = AvxMask;
        #[inline(always)]
        fn not(self) -> AvxMask {
            // SAFETY: see the module.
            AvxMask(unsafe { _mm256_xor_pd(self.0, _mm256_castsi256_pd(_mm256_set1_epi64x(-1))) })
        }
    }

    impl LaneMask for AvxMask {
        #[inline(always)]
        fn bools(self) -> Mask {
            // SAFETY: see the module.
            let bits = unsafe { _mm256_movemask_pd(self.0) };
            core::array::from_fn(|l| bits >> l & 1 == 1)
        }
        #[inline(always)]
        fn any(self) -> bool {
            // SAFETY: see the module.
            unsafe { _mm256_movemask_pd(self.0) != 0 }
        }
        #[inline(always)]
        fn all(self) -> bool {
            // SAFETY: see the module.
            unsafe { _mm256_movemask_pd(self.0) == 0b1111 }
        }
    }

    macro_rules! cmp {
        ($name:ident, $imm:ident) => {
            #[inline(always)]
            fn $name(self, c: f64) -> AvxMask {
                // SAFETY: see the module.
                AvxMask(unsafe { _mm256_cmp_pd::<$imm>(self.0, _mm256_set1_pd(c)) })
            }
        };
    }

    impl Lanes for Avx4 {
        type Mask = AvxMask;
        const FMA: bool = true;
        #[inline(always)]
        fn splat(v: f64) -> Self {
            // SAFETY: see the module.
            Avx4(unsafe { _mm256_set1_pd(v) })
        }
        #[inline(always)]
        fn from_array(a: [f64; LANES]) -> Self {
            // SAFETY: see the module; `a` is four f64 (an unaligned load).
            Avx4(unsafe { _mm256_loadu_pd(a.as_ptr()) })
        }
        #[inline(always)]
        fn to_array(self) -> [f64; LANES] {
            let mut a = [0.0; LANES];
            // SAFETY: see the module; `a` holds four f64 (an unaligned store).
            unsafe { _mm256_storeu_pd(a.as_mut_ptr(), self.0) };
            a
        }
        #[inline(always)]
        fn load(v: &[f64], i: usize) -> Self {
            let w = &v[i..i + LANES];
            // SAFETY: see the module; `w` holds four f64 (bounds checked just above).
            Avx4(unsafe { _mm256_loadu_pd(w.as_ptr()) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            // SAFETY: see the module. Clears the sign bits, as f64::abs.
            Avx4(unsafe { _mm256_andnot_pd(_mm256_set1_pd(-0.0), self.0) })
        }
        cmp!(lt, _CMP_LT_OQ);
        cmp!(le, _CMP_LE_OQ);
        cmp!(gt, _CMP_GT_OQ);
        cmp!(ge, _CMP_GE_OQ);
        #[inline(always)]
        fn select(m: AvxMask, a: Self, b: Self) -> Self {
            // SAFETY: see the module.
            Avx4(unsafe { _mm256_blendv_pd(b.0, a.0, m.0) })
        }
        #[inline(always)]
        fn trunc(self) -> Self {
            // SAFETY: see the module. Rounds toward zero, as f64::trunc.
            Avx4(unsafe { _mm256_round_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(self.0) })
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            // SAFETY: see the module. Correctly rounded, as f64::sqrt.
            Avx4(unsafe { _mm256_sqrt_pd(self.0) })
        }
        #[inline(always)]
        fn pow2_neg(self) -> Self {
            // SAFETY: see the module. With n ∈ [0, 1000], the bits of 2^52 + n end in n, so
            // shifting them left by 52 leaves n·2^52; 2^-n has the bits (1023 - n)·2^52.
            Avx4(unsafe {
                let n = _mm256_min_pd(
                    _mm256_max_pd(self.0, _mm256_setzero_pd()),
                    _mm256_set1_pd(1000.0),
                );
                let bits =
                    _mm256_castpd_si256(_mm256_add_pd(n, _mm256_set1_pd(4_503_599_627_370_496.0)));
                let shifted = _mm256_slli_epi64::<52>(bits);
                _mm256_castsi256_pd(_mm256_sub_epi64(_mm256_set1_epi64x(1023 << 52), shifted))
            })
        }
        #[inline(always)]
        fn mul_sub(a: Self, b: Self, p: Self) -> Self {
            // SAFETY: see the module (FMA is checked with AVX2).
            Avx4(unsafe { _mm256_fmsub_pd(a.0, b.0, p.0) })
        }
        #[inline(always)]
        fn to_indices(self) -> [usize; LANES] {
            let mut a = [0i32; LANES];
            // SAFETY: see the module; `a` holds four i32 (an unaligned store). Truncation as
            // `as u32` below for integers in [0, 2^31).
            unsafe {
                _mm_storeu_si128(a.as_mut_ptr().cast(), _mm256_cvttpd_epi32(self.0));
            }
            a.map(|v| v as u32 as usize)
        }
        #[inline(always)]
        fn transpose_rows(rows: [&[f64; 4]; LANES]) -> [Self; 4] {
            // SAFETY: see the module; each row holds four f64 (unaligned loads).
            unsafe {
                // (No closures here: they would not inherit the kernel's target features.)
                let r = [
                    _mm256_loadu_pd(rows[0].as_ptr()),
                    _mm256_loadu_pd(rows[1].as_ptr()),
                    _mm256_loadu_pd(rows[2].as_ptr()),
                    _mm256_loadu_pd(rows[3].as_ptr()),
                ];
                // [r0[0], r1[0], r0[2], r1[2]], [r0[1], r1[1], r0[3], r1[3]], likewise r2, r3.
                let a = _mm256_unpacklo_pd(r[0], r[1]);
                let b = _mm256_unpackhi_pd(r[0], r[1]);
                let c = _mm256_unpacklo_pd(r[2], r[3]);
                let d = _mm256_unpackhi_pd(r[2], r[3]);
                [
                    Avx4(_mm256_permute2f128_pd::<0x20>(a, c)),
                    Avx4(_mm256_permute2f128_pd::<0x20>(b, d)),
                    Avx4(_mm256_permute2f128_pd::<0x31>(a, c)),
                    Avx4(_mm256_permute2f128_pd::<0x31>(b, d)),
                ]
            }
        }
    }

    macro_rules! avx_op {
        ($trait:ident, $method:ident, $intrinsic:ident) => {
            impl $trait for Avx4 {
                type Output = Avx4;
                #[inline(always)]
                fn $method(self, o: Avx4) -> Avx4 {
                    // SAFETY: see the module.
                    Avx4(unsafe { $intrinsic(self.0, o.0) })
                }
            }
            impl $trait<f64> for Avx4 {
                type Output = Avx4;
                #[inline(always)]
                fn $method(self, o: f64) -> Avx4 {
                    // SAFETY: see the module.
                    Avx4(unsafe { $intrinsic(self.0, _mm256_set1_pd(o)) })
                }
            }
        };
    }
    avx_op!(Add, add, _mm256_add_pd);
    avx_op!(Sub, sub, _mm256_sub_pd);
    avx_op!(Mul, mul, _mm256_mul_pd);
    avx_op!(Div, div, _mm256_div_pd);

    impl Neg for Avx4 {
        type Output = Avx4;
        #[inline(always)]
        fn neg(self) -> Avx4 {
            // SAFETY: see the module. Flips the sign bits, as f64's negation.
            Avx4(unsafe { _mm256_xor_pd(_mm256_set1_pd(-0.0), self.0) })
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx512::Avx8;

/// The AVX-512 lanes: one 512-bit register, eight lanes.
///
/// Every operation is an AVX-512F intrinsic, which may only run on a CPU with AVX-512F. `Avx8`
/// is only named by [`lanes_entry`], inside the function it compiles with AVX-512F and FMA and
/// calls after checking that the CPU has them (and by the tests, likewise), so every `unsafe`
/// below relies on that one check.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx512 {
    use super::{LaneMask, Lanes};
    use core::arch::x86_64::*;
    use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

    /// Eight lanes.
    const N: usize = 8;

    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx8(__m512d);

    /// One bit per lane, set where true (an AVX-512 mask register).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Avx8Mask(__mmask8);

    impl BitAnd for Avx8Mask {
        type Output = Avx8Mask;
        #[inline(always)]
        fn bitand(self, o: Avx8Mask) -> Avx8Mask {
            Avx8Mask(self.0 & o.0)
        }
    }

    impl BitOr for Avx8Mask {
        type Output = Avx8Mask;
        #[inline(always)]
        fn bitor(self, o: Avx8Mask) -> Avx8Mask {
            Avx8Mask(self.0 | o.0)
        }
    }

    impl Not for Avx8Mask {
        type Output = Avx8Mask;
        #[inline(always)]
        fn not(self) -> Avx8Mask {
            Avx8Mask(!self.0)
        }
    }

    impl LaneMask<N> for Avx8Mask {
        #[inline(always)]
        fn bools(self) -> [bool; N] {
            core::array::from_fn(|l| self.0 >> l & 1 == 1)
        }
        #[inline(always)]
        fn any(self) -> bool {
            self.0 != 0
        }
        #[inline(always)]
        fn all(self) -> bool {
            self.0 == 0xff
        }
    }

    macro_rules! cmp {
        ($name:ident, $imm:ident) => {
            #[inline(always)]
            fn $name(self, c: f64) -> Avx8Mask {
                // SAFETY: see the module.
                Avx8Mask(unsafe { _mm512_cmp_pd_mask::<$imm>(self.0, _mm512_set1_pd(c)) })
            }
        };
    }

    impl Lanes<N> for Avx8 {
        type Mask = Avx8Mask;
        const FMA: bool = true;
        #[inline(always)]
        fn splat(v: f64) -> Self {
            // SAFETY: see the module.
            Avx8(unsafe { _mm512_set1_pd(v) })
        }
        #[inline(always)]
        fn from_array(a: [f64; N]) -> Self {
            // SAFETY: see the module; `a` is eight f64 (an unaligned load).
            Avx8(unsafe { _mm512_loadu_pd(a.as_ptr()) })
        }
        #[inline(always)]
        fn to_array(self) -> [f64; N] {
            let mut a = [0.0; N];
            // SAFETY: see the module; `a` holds eight f64 (an unaligned store).
            unsafe { _mm512_storeu_pd(a.as_mut_ptr(), self.0) };
            a
        }
        #[inline(always)]
        fn load(v: &[f64], i: usize) -> Self {
            let w = &v[i..i + N];
            // SAFETY: see the module; `w` holds eight f64 (bounds checked just above).
            Avx8(unsafe { _mm512_loadu_pd(w.as_ptr()) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            // SAFETY: see the module. Clears the sign bits, as f64::abs.
            Avx8(unsafe { _mm512_abs_pd(self.0) })
        }
        cmp!(lt, _CMP_LT_OQ);
        cmp!(le, _CMP_LE_OQ);
        cmp!(gt, _CMP_GT_OQ);
        cmp!(ge, _CMP_GE_OQ);
        #[inline(always)]
        fn select(m: Avx8Mask, a: Self, b: Self) -> Self {
            // SAFETY: see the module. Takes `a` where the mask bit is set.
            Avx8(unsafe { _mm512_mask_blend_pd(m.0, b.0, a.0) })
        }
        #[inline(always)]
        fn trunc(self) -> Self {
            // SAFETY: see the module. Rounds toward zero to an integer (scale 2^0), as
            // f64::trunc.
            Avx8(unsafe {
                _mm512_roundscale_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(self.0)
            })
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            // SAFETY: see the module. Correctly rounded, as f64::sqrt.
            Avx8(unsafe { _mm512_sqrt_pd(self.0) })
        }
        #[inline(always)]
        fn pow2_neg(self) -> Self {
            // SAFETY: see the module. As `Avx4::pow2_neg`: with n ∈ [0, 1000] the bits of
            // 2^52 + n end in n, shifted left by 52 they are n·2^52, and 2^-n has the bits
            // (1023 - n)·2^52.
            Avx8(unsafe {
                let n = _mm512_min_pd(
                    _mm512_max_pd(self.0, _mm512_setzero_pd()),
                    _mm512_set1_pd(1000.0),
                );
                let bits =
                    _mm512_castpd_si512(_mm512_add_pd(n, _mm512_set1_pd(4_503_599_627_370_496.0)));
                let shifted = _mm512_slli_epi64::<52>(bits);
                _mm512_castsi512_pd(_mm512_sub_epi64(_mm512_set1_epi64(1023 << 52), shifted))
            })
        }
        #[inline(always)]
        fn mul_sub(a: Self, b: Self, p: Self) -> Self {
            // SAFETY: see the module (FMA is checked with AVX-512F).
            Avx8(unsafe { _mm512_fmsub_pd(a.0, b.0, p.0) })
        }
        #[inline(always)]
        fn to_indices(self) -> [usize; N] {
            let mut a = [0i32; N];
            // SAFETY: see the module; `a` holds eight i32 (an unaligned store). Truncation as
            // `as u32` below for integers in [0, 2^31).
            unsafe {
                _mm256_storeu_si256(a.as_mut_ptr().cast(), _mm512_cvttpd_epi32(self.0));
            }
            a.map(|v| v as u32 as usize)
        }
        #[inline(always)]
        fn transpose_rows(rows: [&[f64; 4]; N]) -> [Self; 4] {
            // SAFETY: see the module; each row holds four f64 (unaligned loads).
            unsafe {
                // (No closures here: they would not inherit the kernel's target features.)
                // Rows l and l + 4 in the low and high halves of r[l].
                let r = [
                    _mm512_insertf64x4::<1>(
                        _mm512_castpd256_pd512(_mm256_loadu_pd(rows[0].as_ptr())),
                        _mm256_loadu_pd(rows[4].as_ptr()),
                    ),
                    _mm512_insertf64x4::<1>(
                        _mm512_castpd256_pd512(_mm256_loadu_pd(rows[1].as_ptr())),
                        _mm256_loadu_pd(rows[5].as_ptr()),
                    ),
                    _mm512_insertf64x4::<1>(
                        _mm512_castpd256_pd512(_mm256_loadu_pd(rows[2].as_ptr())),
                        _mm256_loadu_pd(rows[6].as_ptr()),
                    ),
                    _mm512_insertf64x4::<1>(
                        _mm512_castpd256_pd512(_mm256_loadu_pd(rows[3].as_ptr())),
                        _mm256_loadu_pd(rows[7].as_ptr()),
                    ),
                ];
                // Per 128-bit block: a = [r0[0], r1[0] | r0[2], r1[2] | r4[0], r5[0] |
                // r4[2], r5[2]], b likewise with entries 1 and 3; c, d likewise of r2, r3
                // (r6, r7).
                let a = _mm512_unpacklo_pd(r[0], r[1]);
                let b = _mm512_unpackhi_pd(r[0], r[1]);
                let c = _mm512_unpacklo_pd(r[2], r[3]);
                let d = _mm512_unpackhi_pd(r[2], r[3]);
                // Blocks 0, 2 of the first source and of the second (8 + …) interleaved give
                // entry 0 (or 1) of the eight rows; blocks 1, 3 give entry 2 (or 3).
                let even = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
                let odd = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
                [
                    Avx8(_mm512_permutex2var_pd(a, even, c)),
                    Avx8(_mm512_permutex2var_pd(b, even, d)),
                    Avx8(_mm512_permutex2var_pd(a, odd, c)),
                    Avx8(_mm512_permutex2var_pd(b, odd, d)),
                ]
            }
        }
    }

    macro_rules! avx512_op {
        ($trait:ident, $method:ident, $intrinsic:ident) => {
            impl $trait for Avx8 {
                type Output = Avx8;
                #[inline(always)]
                fn $method(self, o: Avx8) -> Avx8 {
                    // SAFETY: see the module.
                    Avx8(unsafe { $intrinsic(self.0, o.0) })
                }
            }
            impl $trait<f64> for Avx8 {
                type Output = Avx8;
                #[inline(always)]
                fn $method(self, o: f64) -> Avx8 {
                    // SAFETY: see the module.
                    Avx8(unsafe { $intrinsic(self.0, _mm512_set1_pd(o)) })
                }
            }
        };
    }
    avx512_op!(Add, add, _mm512_add_pd);
    avx512_op!(Sub, sub, _mm512_sub_pd);
    avx512_op!(Mul, mul, _mm512_mul_pd);
    avx512_op!(Div, div, _mm512_div_pd);

    impl Neg for Avx8 {
        type Output = Avx8;
        #[inline(always)]
        fn neg(self) -> Avx8 {
            // SAFETY: see the module. Flips the sign bits, as f64's negation.
            Avx8(unsafe {
                _mm512_castsi512_pd(_mm512_xor_si512(
                    _mm512_castpd_si512(self.0),
                    _mm512_set1_epi64(i64::MIN),
                ))
            })
        }
    }
}

/// Knuth's TwoSum lane by lane (as `crate::dd::two_sum`).
#[inline(always)]
pub(crate) fn two_sum<const N: usize, V: Lanes<N>>(a: V, b: V) -> (V, V) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Dekker's FastTwoSum lane by lane (as `crate::tail`'s, `|a| ≥ |b|`).
#[inline(always)]
pub(crate) fn fast_two_sum<const N: usize, V: Lanes<N>>(a: V, b: V) -> (V, V) {
    let s = a + b;
    (s, b - (s - a))
}

/// `a·b = p + e` exactly, lane by lane, under the preconditions of `crate::dd::two_prod`
/// (`|a|, |b| < 2^996`, `|a·b| > 2^-969`): with a fused multiply–add where the lanes have one
/// ([`Lanes::FMA`]), else Dekker's splitting. Both give the exact error, so both give the same
/// bits.
#[inline(always)]
pub(crate) fn two_prod<const N: usize, V: Lanes<N>>(a: V, b: V) -> (V, V) {
    let p = a * b;
    if V::FMA {
        (p, V::mul_sub(a, b, p))
    } else {
        let (ah, al) = split(a);
        let (bh, bl) = split(b);
        (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
    }
}

/// `a² = p + e` exactly (see [`two_prod`]).
#[inline(always)]
pub(crate) fn two_square<const N: usize, V: Lanes<N>>(a: V) -> (V, V) {
    two_prod(a, a)
}

#[inline(always)]
fn split<const N: usize, V: Lanes<N>>(a: V) -> (V, V) {
    let t = a * 134_217_729.0; // 2^27 + 1
    let hi = t - (t - a);
    (hi, a - hi)
}

/// `out[i]` for every `i`, `N` at a time: `xn(i)` gives the values of `i..i + N` and the
/// lanes it settled; `scalar(j)` computes the other lanes and the last `out.len() % N`.
///
/// Two groups of `N` are computed per step, one after the other in the source: the kernels
/// are long chains of dependent operations (polynomials by Horner's scheme), so two
/// independent chains side by side keep the processor busy where one would wait. This changes
/// no value, only the order in which independent points are computed.
#[inline(always)]
pub(crate) fn for_each_x4<const N: usize, V: Lanes<N>>(
    out: &mut [f64],
    xn: impl Fn(usize) -> (V, V::Mask),
    scalar: impl Fn(usize) -> f64,
) {
    let n = out.len();
    let whole = n - n % N;
    let mut i = 0;
    while i + 2 * N <= whole {
        let (v, settled) = xn(i);
        let (v2, settled2) = xn(i + N);
        put(out, i, v, settled, &scalar);
        put(out, i + N, v2, settled2, &scalar);
        i += 2 * N;
    }
    if i < whole {
        let (v, settled) = xn(i);
        put(out, i, v, settled, &scalar);
    }
    for (j, o) in out.iter_mut().enumerate().skip(whole) {
        *o = scalar(j);
    }
}

/// Stores the `N` values `v` at `out[j..j + N]`, or `scalar(j + l)` where lane `l` is not
/// settled.
#[inline(always)]
fn put<const N: usize, V: Lanes<N>>(
    out: &mut [f64],
    j: usize,
    v: V,
    settled: V::Mask,
    scalar: &impl Fn(usize) -> f64,
) {
    let w = &mut out[j..j + N];
    if settled.all() {
        w.copy_from_slice(&v.to_array());
    } else {
        let (v, settled) = (v.to_array(), settled.bools());
        for l in 0..N {
            w[l] = if settled[l] { v[l] } else { scalar(j + l) };
        }
    }
}

/// Defines `fn $name(args)` running `$kernel::<Avx4>(args)` compiled for AVX2 + FMA +
/// AVX-512F/VL when the CPU has all four, for AVX2 + FMA when it has both, else
/// `$kernel::<F64x4>(args)` (the portable build). With `=> any width: $kernel` (a kernel
/// generic over the number of lanes, `$kernel::<N, V>`), `$kernel::<8, Avx8>` compiled for
/// AVX-512F + FMA comes first, where the CPU has them (AVX2 too). The one place where the
/// instruction set is chosen, and with the lane types' intrinsics the crate's only `unsafe`
/// (calling a function compiled for an instruction set is safe exactly when the CPU has it).
macro_rules! lanes_entry {
    (
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) => $kernel:ident
    ) => {
        $(#[$doc])*
        #[inline]
        #[allow(unsafe_code)]
        pub(crate) fn $name($($arg: $ty),*) {
            $crate::lanes::lanes_entry!(@four $kernel [] $($arg: $ty),*)
        }
    };
    (
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) => any width: $kernel:ident
    ) => {
        $(#[$doc])*
        #[inline]
        #[allow(unsafe_code)]
        pub(crate) fn $name($($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            if $crate::lanes::avx512f_detected() {
                #[target_feature(enable = "avx2,fma,avx512f")]
                unsafe fn avx512f($($arg: $ty),*) {
                    $kernel::<8, $crate::lanes::Avx8>($($arg),*)
                }
                // SAFETY: the CPU supports AVX2, FMA and AVX-512F (checked just above), the
                // only requirement of calling a function compiled with them.
                unsafe { avx512f($($arg),*) };
                return;
            }
            $crate::lanes::lanes_entry!(@four $kernel [4,] $($arg: $ty),*)
        }
    };
    // The four-lane compilations; `$n` is the kernel's number of lanes, where it takes one.
    (@four $kernel:ident [$($n:tt)*] $($arg:ident: $ty:ty),*) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if $crate::lanes::avx512vl_detected() {
                #[target_feature(enable = "avx2,fma,avx512f,avx512vl")]
                unsafe fn avx512vl($($arg: $ty),*) {
                    $kernel::<$($n)* $crate::lanes::Avx4>($($arg),*)
                }
                // SAFETY: the CPU supports AVX2, FMA, AVX-512F and AVX-512VL (checked just
                // above), the only requirement of calling a function compiled with them.
                unsafe { avx512vl($($arg),*) };
                return;
            }
            if $crate::lanes::avx2_fma_detected() {
                #[target_feature(enable = "avx2,fma")]
                unsafe fn avx2($($arg: $ty),*) {
                    $kernel::<$($n)* $crate::lanes::Avx4>($($arg),*)
                }
                // SAFETY: the CPU supports AVX2 and FMA (checked just above), the only
                // requirement of calling a function compiled with them.
                unsafe { avx2($($arg),*) };
                return;
            }
        }
        $kernel::<$($n)* $crate::lanes::F64x4>($($arg),*)
    }};
}
pub(crate) use lanes_entry;

/// Whether the CPU has AVX2 and FMA (cached by the standard library after the first call).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx2_fma_detected() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// Whether the CPU has AVX2, FMA, AVX-512F and AVX-512VL: then the same [`Avx4`] kernels are
/// compiled with AVX-512VL, which gives 256-bit operations 32 registers instead of 16 (fewer
/// spills) and mask registers for the comparisons, and changes no operation's result (every
/// lane operation is still the IEEE operation it names, never fused).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx512vl_detected() -> bool {
    avx2_fma_detected()
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
}

/// Whether the CPU has AVX2, FMA and AVX-512F: then the kernels written for any number of
/// lanes run on [`Avx8`], eight lanes per 512-bit vector (the same IEEE operations, lane by
/// lane, as on four).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx512f_detected() -> bool {
    avx2_fma_detected() && std::is_x86_feature_detected!("avx512f")
}

/// Which compilation the `*_slice` functions run on this CPU: `"avx512f+avx512vl"`
/// ([`crate::ei_slice`], [`crate::log_ei_slice`] and [`crate::log_eipc_slice`] eight lanes per
/// 512-bit vector, the others four lanes per 256-bit vector with AVX-512VL's 32 registers; all
/// with hardware FMA), `"avx512f"` (eight lanes, the others as `"avx2+fma"`), `"avx2+fma"`
/// (four lanes per 256-bit vector, hardware FMA) or `"portable"` (the baseline instruction
/// set). All give the same bits as the scalar functions.
pub fn simd_path() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if avx512f_detected() {
        return if avx512vl_detected() {
            "avx512f+avx512vl"
        } else {
            "avx512f"
        };
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_fma_detected() {
        return "avx2+fma";
    }
    "portable"
}
