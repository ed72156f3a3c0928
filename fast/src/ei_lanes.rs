//! [`crate::ei`] on a group of lanes, four or eight points at a time (the body of
//! [`crate::ei_slice`]).
//!
//! Each lane runs the operations of the scalar kernel (`Standardized::new`, `zlo`,
//! `sigma_h_pos`, `sigma_h_neg`, `p_tail_sq`, `exp_neg_reduced`) in the same order, with selects in
//! place of the branches, so it returns the same bits as [`crate::ei`]. Lanes outside the common region, where the scalar code takes a rare branch or
//! where Dekker's and the fused product could differ (near underflow), are recomputed by
//! [`crate::ei`]:
//! - `σ ∉ [1e-100, 1e100]`, `y - μ` not finite, NaN anywhere;
//! - `z ∈ [-38.5, -37)` (the scaled exponential leaves the range of one multiplication),
//!   `z < -38.5` with `σ > 1`, and `z < 0` with `|y - μ| < 1e-250`.
//!
//! Above `z = 20` the scalar kernel returns `dhi + dlo` (`crate::scaled_h::Z_BEYOND`), and so
//! do the lanes.
use crate::exp_reduced::exp_neg_reduced;
use crate::lanes::{for_each_x4, lanes_entry, two_prod, two_square, two_sum, Lanes, Threshold};
use crate::scaled_h::Z_BEYOND;
use crate::slice_length::SliceLengthError;
use crate::tail_lanes::{p_tail_sq, TailLanes};

/// `Standardized::new` and `Standardized::zlo` for a group of lanes (meaningful where
/// `σ ∈ [1e-150, 1e150]`, `y - μ` finite and, for `zlo`, `|y - μ| ≥ 1e-250`).
pub(crate) struct StandardLanes<V> {
    pub dhi: V,
    pub dlo: V,
    pub zhi: V,
    pub zlo: V,
}

#[inline(always)]
pub(crate) fn standardize<const N: usize, V: Lanes<N>>(mu: V, sigma: V, y: V) -> StandardLanes<V> {
    let (dhi, dlo) = two_sum(y, -mu);
    let inv = V::splat(1.0) / sigma;
    let zhi = dhi * inv;
    let (p, e) = two_prod(zhi, sigma);
    let zlo = (((dhi - p) - e) + dlo) * inv;
    StandardLanes { dhi, dlo, zhi, zlo }
}

/// Which lanes the EI kernel settles, by the branch `crate::ei` takes on them.
pub(crate) struct EiMasks<M> {
    /// `σ ∈ [1e-100, 1e100]` and `y - μ` finite: the kernel's range, where Dekker's and the
    /// fused products agree.
    pub ok: M,
    /// `z ∈ [0, 20]` (`sigma_h_pos`) or `z ∈ [-37, 0)` with `|y - μ| ≥ 1e-250`
    /// (`sigma_h_neg` with one scaling multiplication).
    pub kernel: M,
    /// `z > 20`: EI = `dhi + dlo` rounded once (`crate::scaled_h::Z_BEYOND`).
    pub beyond: M,
    /// `z < -38.5` with `σ ≤ 1`: EI rounds to 0.
    pub zero: M,
}

#[inline(always)]
pub(crate) fn ei_masks<const N: usize, V: Lanes<N>>(
    s: &StandardLanes<V>,
    sigma: V,
) -> EiMasks<V::Mask> {
    // Comparisons are false on NaN, so `|d| ≤ f64::MAX` is `d.is_finite()`.
    let ok_sigma = sigma.ge(1e-100) & sigma.le(1e100);
    let ok_d = s.dhi.abs().le(f64::MAX);
    let big_d = s.dhi.abs().ge(1e-250);
    let z = s.zhi;
    EiMasks {
        ok: ok_sigma & ok_d,
        kernel: (z.ge(0.0) & z.le(Z_BEYOND)) | (z.ge(-37.0) & z.lt(0.0) & big_d),
        beyond: z.gt(Z_BEYOND),
        zero: z.lt(-38.5) & sigma.le(1.0),
    }
}

/// `sigma_h_pos` (`z ≥ 0`) or `sigma_h_neg` with `k = 0` (`z < 0`) on the kernel lanes, given
/// `x = |z|` there (1 elsewhere), `x² = hi + lo` and the tail ratio `t`.
#[inline(always)]
pub(crate) fn ei_kernel<const N: usize, V: Lanes<N>>(
    s: &StandardLanes<V>,
    sigma: V,
    x: V,
    (hi, lo): (V, V),
    t: &TailLanes<V>,
) -> V {
    let pos = s.zhi.ge(0.0);
    let xlo = -s.zlo;
    // exp(-x²/2) = 2^-n·(e + e_lo); on the z ≥ 0 lanes scaled by 2^-n at once (n ≤ 289 for
    // z ≤ 20: one exact multiplication, scale_pow2's), on the others at the end.
    let (n, e, e_lo) = exp_neg_reduced(hi * 0.5);
    let scale = n.pow2_neg();
    let ex = V::select(pos, e * scale, e);
    let ex_lo = V::select(pos, e_lo * scale, e_lo);
    let (m_hi, m_lo) = two_prod(t.hi, ex);
    let (s_hi, s_lo) = two_prod(sigma, m_hi);
    let m_lo = m_lo + t.hi * ex_lo;

    // sigma_h_pos: (dhi + dlo) + σ·h(-z).
    let (a, b) = two_sum(s.dhi, s_hi);
    let corr_pos = t.rel - lo * 0.5;
    let r_pos = a + (b + ((s.dlo + (s_lo + sigma * (m_lo + ex * t.lo))) + s_hi * corr_pos));
    // sigma_h_neg: σ·p·e·2^-n.
    let corr_neg = t.rel - (lo * 0.5 + x * xlo);
    let v = s_hi + ((s_lo + sigma * (m_lo + ex * (t.lo + t.dp * xlo))) + s_hi * corr_neg);
    // -n ∈ [-1000, 0] on kernel lanes (x ≤ 37): scale_pow2's one-multiplication branch.
    V::select(pos, r_pos, v * scale)
}

/// EI for a group of lanes and which lanes it settled (the others are left to the scalar code).
#[inline(always)]
pub(crate) fn ei_x4<const N: usize, V: Lanes<N>>(mu: V, sigma: V, y: V) -> (V, V::Mask) {
    let s = standardize(mu, sigma, y);
    let m = ei_masks(&s, sigma);
    // |z| on kernel lanes, a harmless 1 elsewhere (keeps the table rows in range).
    let x = V::select(m.kernel, s.zhi.abs(), V::splat(1.0));
    let sq = two_square(x);
    let t = p_tail_sq(x, sq.0, sq.1);
    let kernel = ei_kernel(&s, sigma, x, sq, &t);
    let value = V::select(
        m.zero,
        V::splat(0.0),
        V::select(m.beyond, s.dhi + s.dlo, kernel),
    );
    (value, m.ok & (m.kernel | m.beyond | m.zero))
}

/// `out[i] = ei(mu[i], sigma[i], y)`, or `y[i]` for one threshold per point (equal lengths,
/// checked by the caller).
#[inline(always)]
pub(crate) fn ei_lanes_kernel<const N: usize, V: Lanes<N>>(
    mu: &[f64],
    sigma: &[f64],
    y: impl Threshold,
    out: &mut [f64],
) {
    for_each_x4(
        out,
        #[inline(always)]
        |i| ei_x4(V::load(mu, i), V::load(sigma, i), y.lanes(i)),
        |i| crate::ei::ei(mu[i], sigma[i], y.at(i)),
    );
}

lanes_entry! {
    /// [`crate::ei`] over slices, eight or four lanes at a time (instruction set chosen at run
    /// time).
    fn ei_lanes(mu: &[f64], sigma: &[f64], y: f64, out: &mut [f64]) => any width: ei_lanes_kernel
}

lanes_entry! {
    /// [`crate::ei`] over slices with one threshold per point, eight or four lanes at a time
    /// (instruction set chosen at run time).
    fn ei_lanes_per_point(mu: &[f64], sigma: &[f64], y: &[f64], out: &mut [f64])
        => any width: ei_lanes_kernel
}

/// [`ei`](crate::ei) over slices: `out[i] = ei(mu[i], sigma[i], y)`, bit for bit. No allocation.
///
/// Eight points at a time with AVX-512F and FMA, four with AVX2 and FMA, when the CPU has them
/// (chosen at run time, see [`crate::simd_path`]), else four with the baseline instruction set; rare regions (`σ` outside
/// `[1e-100, 1e100]`, `z` just above the underflow of EI, invalid input) fall
/// back to [`ei`](crate::ei) lane by lane. Every path gives the bits of [`ei`](crate::ei)
/// (`fast/src/ei_lanes.rs`, tested on every compilation in `fast/src/lanes_tests.rs`).
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless `mu`, `sigma` and `out` have equal lengths.
pub fn ei_slice(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[("mu", mu.len()), ("sigma", sigma.len()), ("out", out.len())])?;
    crate::ei_lanes::ei_lanes(mu, sigma, y, out);
    Ok(())
}

/// [`ei`](crate::ei) over slices with one threshold per point: `out[i] = ei(mu[i], sigma[i],
/// y[i])`, bit for bit. No allocation.
///
/// The per-point form of [`ei_slice`](crate::ei_slice) (an incumbent per candidate, as in a
/// batch of BO problems): the same lanes, eight points at a time with AVX-512F and FMA, four
/// with AVX2 and FMA, when the CPU has them (chosen at run time, see [`crate::simd_path`]),
/// else four with the baseline instruction set, each lane with its own `y`; rare regions fall
/// back to [`ei`](crate::ei) lane by lane as there. Every path gives the bits of
/// [`ei`](crate::ei) (`fast/src/ei_lanes.rs`, tested on every compilation in
/// `fast/src/lanes_tests.rs`).
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless `mu`, `sigma`, `y` and `out` have equal
/// lengths.
pub fn ei_slice_per_point(
    mu: &[f64],
    sigma: &[f64],
    y: &[f64],
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[
        ("mu", mu.len()),
        ("sigma", sigma.len()),
        ("y", y.len()),
        ("out", out.len()),
    ])?;
    crate::ei_lanes::ei_lanes_per_point(mu, sigma, y, out);
    Ok(())
}
