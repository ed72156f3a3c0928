//! [`crate::log_ei`] and [`crate::log_eipc`] four or eight points at a time (the bodies of
//! [`crate::log_ei_slice`] and [`crate::log_eipc_slice`]), on the lanes of `ei_lanes.rs`.
//!
//! LogEI: `z < 0` with `σ ≤ 1` takes the scalar code's sum `-x²/2 + ln(σ·p(x))`
//! (`ln_sigma_h_neg`) for `x < 2^16`; the other lanes `ln(EI)` where the EI kernel settles them
//! with a normal EI. LogEIPC: `ln(EI/c)` where the EI kernel settles EI and `EI/c` is a
//! normal f64. Every lane performs the scalar operations in the scalar order, so the bits are
//! those of the scalar functions; the remaining lanes are recomputed by them.
use crate::ei_lanes::{ei_kernel, ei_masks, ei_x4, standardize};
use crate::lanes::{
    for_each_x4, lanes_entry, two_prod, two_square, two_sum, LaneMask, Lanes, Threshold,
};
use crate::slice_length::SliceLengthError;
use crate::tail_lanes::p_tail_sq;

/// LogEI for a group of lanes and which lanes it settled.
#[inline(always)]
pub(crate) fn log_ei_x4<const N: usize, V: Lanes<N>>(mu: V, sigma: V, y: V) -> (V, V::Mask) {
    let s = standardize(mu, sigma, y);
    let m = ei_masks(&s, sigma);
    let big_d = s.dhi.abs().ge(1e-250);
    let z = s.zhi;
    // The scalar code's first branch: z < 0, σ ≤ 1 (σ ≥ 1e-280 and x < 2^16 here).
    let sigma_le_1 = sigma.le(1.0);
    let sum_form = m.ok & z.lt(0.0) & z.gt(-65536.0) & sigma_le_1 & big_d;
    let neg_small_sigma = z.lt(0.0) & sigma_le_1;
    // Otherwise ln(EI), EI from the kernel (its zero lanes have z < 0, σ ≤ 1: never here).
    let log_of_ei = m.ok & !neg_small_sigma & (m.kernel | m.beyond);
    let x = V::select(sum_form | (log_of_ei & m.kernel), z.abs(), V::splat(1.0));
    let (hi, lo) = two_square(x);
    let t = p_tail_sq(x, hi, lo);
    let ei = if log_of_ei.any() {
        let kernel = ei_kernel(&s, sigma, x, (hi, lo), &t);
        V::select(m.beyond, s.dhi + s.dlo, kernel)
    } else {
        V::splat(1.0)
    };
    // ln_sigma_h_neg(x, -zlo, σ).
    let xlo = -s.zlo;
    let (sp_hi, sp_lo) = two_prod(sigma, t.hi);
    let ln = V::select(sum_form, sp_hi, ei).map(f64::ln);
    let (a, b) = two_sum(hi * -0.5, ln);
    let small = (sp_lo + sigma * (t.lo + t.dp * xlo)) / sp_hi + t.rel - (lo * 0.5 + x * xlo);
    let sum = a + (b + small);
    // Comparisons are false on NaN: `e ≤ f64::MAX` is `e.is_finite()` here.
    let normal_ei = ei.ge(f64::MIN_POSITIVE) & ei.le(f64::MAX);
    (
        V::select(sum_form, sum, ln),
        sum_form | (log_of_ei & normal_ei),
    )
}

/// LogEIPC for a group of lanes (costs `cost`) and which lanes it settled.
#[inline(always)]
pub(crate) fn log_eipc_x4<const N: usize, V: Lanes<N>>(
    mu: V,
    sigma: V,
    y: V,
    cost: V,
) -> (V, V::Mask) {
    let (ei, settled_ei) = ei_x4(mu, sigma, y);
    let ratio = ei / cost;
    let settled = settled_ei
        & cost.gt(0.0)
        & ei.ge(f64::MIN_POSITIVE)
        & ratio.ge(f64::MIN_POSITIVE)
        & ratio.le(f64::MAX);
    (ratio.map(f64::ln), settled)
}

/// `out[i] = log_ei(mu[i], sigma[i], y)`, or `y[i]` for one threshold per point (equal
/// lengths, checked by the caller).
#[inline(always)]
pub(crate) fn log_ei_lanes_kernel<const N: usize, V: Lanes<N>>(
    mu: &[f64],
    sigma: &[f64],
    y: impl Threshold,
    out: &mut [f64],
) {
    for_each_x4(
        out,
        #[inline(always)]
        |i| log_ei_x4(V::load(mu, i), V::load(sigma, i), y.lanes(i)),
        |i| crate::log_ei::log_ei(mu[i], sigma[i], y.at(i)),
    );
}

/// `out[i] = log_eipc(mu[i], sigma[i], y, cost[i])`, or `y[i]` for one threshold per point
/// (equal lengths, checked by the caller).
#[inline(always)]
pub(crate) fn log_eipc_lanes_kernel<const N: usize, V: Lanes<N>>(
    mu: &[f64],
    sigma: &[f64],
    y: impl Threshold,
    cost: &[f64],
    out: &mut [f64],
) {
    for_each_x4(
        out,
        #[inline(always)]
        |i| {
            log_eipc_x4(
                V::load(mu, i),
                V::load(sigma, i),
                y.lanes(i),
                V::load(cost, i),
            )
        },
        |i| crate::log_eipc::log_eipc(mu[i], sigma[i], y.at(i), cost[i]),
    );
}

lanes_entry! {
    /// [`crate::log_ei`] over slices, eight or four lanes at a time (instruction set chosen at
    /// run time).
    fn log_ei_lanes(mu: &[f64], sigma: &[f64], y: f64, out: &mut [f64])
        => any width: log_ei_lanes_kernel
}

lanes_entry! {
    /// [`crate::log_eipc`] over slices, eight or four lanes at a time (instruction set chosen at
    /// run time).
    fn log_eipc_lanes(mu: &[f64], sigma: &[f64], y: f64, cost: &[f64], out: &mut [f64])
        => any width: log_eipc_lanes_kernel
}

lanes_entry! {
    /// [`crate::log_ei`] over slices with one threshold per point, eight or four lanes at a
    /// time (instruction set chosen at run time).
    fn log_ei_lanes_per_point(mu: &[f64], sigma: &[f64], y: &[f64], out: &mut [f64])
        => any width: log_ei_lanes_kernel
}

lanes_entry! {
    /// [`crate::log_eipc`] over slices with one threshold per point, eight or four lanes at a
    /// time (instruction set chosen at run time).
    fn log_eipc_lanes_per_point(
        mu: &[f64],
        sigma: &[f64],
        y: &[f64],
        cost: &[f64],
        out: &mut [f64],
    ) => any width: log_eipc_lanes_kernel
}

/// [`log_ei`](crate::log_ei) over slices: `out[i] = log_ei(mu[i], sigma[i], y)`, bit for bit. No allocation.
///
/// Eight points at a time with AVX-512F and FMA, four with AVX2 and FMA, when the CPU has them
/// (chosen at run time, see [`crate::simd_path`]), else four with the baseline instruction set; lanes outside the common region (as for [`crate::ei_slice`], and
/// `z ≤ -2^16`) are recomputed by [`log_ei`](crate::log_ei). Every path gives the bits of [`log_ei`](crate::log_ei)
/// (`fast/src/log_ei_lanes.rs`, tested on every compilation in `fast/src/lanes_tests.rs`).
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless `mu`, `sigma` and `out` have equal lengths.
pub fn log_ei_slice(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[("mu", mu.len()), ("sigma", sigma.len()), ("out", out.len())])?;
    crate::log_ei_lanes::log_ei_lanes(mu, sigma, y, out);
    Ok(())
}

/// [`log_eipc`](crate::log_eipc) over slices: `out[i] = log_eipc(mu[i], sigma[i], y, cost[i])`, bit for bit.
/// No allocation.
///
/// Eight points at a time with AVX-512F and FMA, four with AVX2 and FMA, when the CPU has them
/// (chosen at run time, see [`crate::simd_path`]), else four with the baseline instruction set: `ln(EI/c)` on the lanes where the vectorised EI settles EI and
/// `EI/c` is a normal f64; the others are recomputed by [`log_eipc`](crate::log_eipc). Every path gives the
/// bits of [`log_eipc`](crate::log_eipc) (`fast/src/log_ei_lanes.rs`, tested in `fast/src/lanes_tests.rs`).
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless all slices have equal lengths.
pub fn log_eipc_slice(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    cost: &[f64],
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[
        ("mu", mu.len()),
        ("sigma", sigma.len()),
        ("cost", cost.len()),
        ("out", out.len()),
    ])?;
    crate::log_ei_lanes::log_eipc_lanes(mu, sigma, y, cost, out);
    Ok(())
}

/// [`log_ei`](crate::log_ei) over slices with one threshold per point: `out[i] =
/// log_ei(mu[i], sigma[i], y[i])`, bit for bit. No allocation.
///
/// The per-point form of [`log_ei_slice`](crate::log_ei_slice): the same lanes (eight points at
/// a time with AVX-512F and FMA, four with AVX2 and FMA, when the CPU has them, chosen at run
/// time, see [`crate::simd_path`]; else four with the baseline instruction set), each lane with
/// its own `y`; lanes outside the common region are recomputed by [`log_ei`](crate::log_ei).
/// Every path gives the bits of [`log_ei`](crate::log_ei) (`fast/src/log_ei_lanes.rs`, tested
/// on every compilation in `fast/src/lanes_tests.rs`).
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless `mu`, `sigma`, `y` and `out` have equal
/// lengths.
pub fn log_ei_slice_per_point(
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
    crate::log_ei_lanes::log_ei_lanes_per_point(mu, sigma, y, out);
    Ok(())
}

/// [`log_eipc`](crate::log_eipc) over slices with one threshold per point: `out[i] =
/// log_eipc(mu[i], sigma[i], y[i], cost[i])`, bit for bit. No allocation.
///
/// The per-point form of [`log_eipc_slice`](crate::log_eipc_slice): the same lanes (eight or
/// four points at a time, instruction set chosen at run time, see [`crate::simd_path`]), each
/// lane with its own `y`; lanes where the vectorised EI does not settle EI or `EI/c` is not a
/// normal f64 are recomputed by [`log_eipc`](crate::log_eipc). Every path gives the bits of
/// [`log_eipc`](crate::log_eipc) (`fast/src/log_ei_lanes.rs`, tested in
/// `fast/src/lanes_tests.rs`).
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless all slices have equal lengths.
pub fn log_eipc_slice_per_point(
    mu: &[f64],
    sigma: &[f64],
    y: &[f64],
    cost: &[f64],
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[
        ("mu", mu.len()),
        ("sigma", sigma.len()),
        ("y", y.len()),
        ("cost", cost.len()),
        ("out", out.len()),
    ])?;
    crate::log_ei_lanes::log_eipc_lanes_per_point(mu, sigma, y, cost, out);
    Ok(())
}
