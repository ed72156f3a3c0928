//! [`crate::log_ei`] and [`crate::log_eipc`] four points at a time (the bodies of
//! [`crate::log_ei_slice`] and [`crate::log_eipc_slice`]), on the lanes of `ei_lanes.rs`.
//!
//! LogEI: `z < 0` with `σ ≤ 1` takes the scalar code's sum `-x²/2 + ln(σ·p(x))`
//! (`ln_sigma_h_neg`) for `x < 2^16`; the other lanes `ln(EI)` where the EI kernel settles them
//! with a normal EI. LogEIPC: `ln(EI/c)` where the EI kernel settles EI and `EI/c` is a
//! normal f64. Every lane performs the scalar operations in the scalar order, so the bits are
//! those of the scalar functions; the remaining lanes are recomputed by them.
use crate::ei_lanes::{ei_kernel, ei_masks, ei_x4, standardize};
use crate::lanes::{for_each_x4, lanes_entry, two_prod, two_square, two_sum, F64x4, Mask};
use crate::tail_lanes::p_tail_sq;

/// LogEI for four lanes and which lanes it settled.
#[inline(always)]
pub(crate) fn log_ei_x4<const FMA: bool>(mu: F64x4, sigma: F64x4, y: f64) -> (F64x4, Mask) {
    let s = standardize::<FMA>(mu, sigma, y);
    let m = ei_masks(&s, sigma);
    let big_d = s.dhi.test(|d| d.abs() >= 1e-250);
    // The scalar code's first branch: z < 0, σ ≤ 1 (σ ≥ 1e-280 and x < 2^16 here).
    let sum_form: Mask = core::array::from_fn(|l| {
        let z = s.zhi.0[l];
        m.ok[l] & (z < 0.0) & (z > -65536.0) & (sigma.0[l] <= 1.0) & big_d[l]
    });
    let neg_small_sigma: Mask = core::array::from_fn(|l| (s.zhi.0[l] < 0.0) & (sigma.0[l] <= 1.0));
    // Otherwise ln(EI), EI from the kernel (its zero lanes have z < 0, σ ≤ 1: never here).
    let log_of_ei: Mask =
        core::array::from_fn(|l| m.ok[l] & !neg_small_sigma[l] & (m.kernel[l] | m.beyond[l]));
    let x = F64x4(core::array::from_fn(|l| {
        if sum_form[l] | (log_of_ei[l] & m.kernel[l]) {
            s.zhi.0[l].abs()
        } else {
            1.0
        }
    }));
    let (hi, lo) = two_square::<FMA>(x);
    let t = p_tail_sq::<FMA>(x, hi, lo);
    let ei = if log_of_ei.iter().any(|&b| b) {
        let kernel = ei_kernel::<FMA>(&s, sigma, x, (hi, lo), &t);
        F64x4::select(m.beyond, s.dhi + s.dlo, kernel)
    } else {
        F64x4::splat(1.0)
    };
    // ln_sigma_h_neg(x, -zlo, σ).
    let xlo = -s.zlo;
    let (sp_hi, sp_lo) = two_prod::<FMA>(sigma, t.hi);
    let ln = F64x4::select(sum_form, sp_hi, ei).map(f64::ln);
    let (a, b) = two_sum(hi * -0.5, ln);
    let small = (sp_lo + sigma * (t.lo + t.dp * xlo)) / sp_hi + t.rel - (lo * 0.5 + x * xlo);
    let sum = a + (b + small);
    let normal_ei = ei.test(|e| (e >= f64::MIN_POSITIVE) & (e <= f64::MAX));
    let settled = core::array::from_fn(|l| sum_form[l] | (log_of_ei[l] & normal_ei[l]));
    (F64x4::select(sum_form, sum, ln), settled)
}

/// LogEIPC for four lanes (costs `cost`) and which lanes it settled.
#[inline(always)]
pub(crate) fn log_eipc_x4<const FMA: bool>(
    mu: F64x4,
    sigma: F64x4,
    y: f64,
    cost: F64x4,
) -> (F64x4, Mask) {
    let (ei, settled_ei) = ei_x4::<FMA>(mu, sigma, y);
    let ratio = ei / cost;
    let settled = core::array::from_fn(|l| {
        let (e, r) = (ei.0[l], ratio.0[l]);
        settled_ei[l]
            & (cost.0[l] > 0.0)
            & (e >= f64::MIN_POSITIVE)
            & (r >= f64::MIN_POSITIVE)
            & (r <= f64::MAX)
    });
    (ratio.map(f64::ln), settled)
}

/// `out[i] = log_ei(mu[i], sigma[i], y)` (equal lengths, checked by the caller).
#[inline(always)]
pub(crate) fn log_ei_lanes_kernel<const FMA: bool>(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    out: &mut [f64],
) {
    for_each_x4(
        out,
        |i| log_ei_x4::<FMA>(F64x4::load(mu, i), F64x4::load(sigma, i), y),
        |i| crate::log_ei(mu[i], sigma[i], y),
    );
}

/// `out[i] = log_eipc(mu[i], sigma[i], y, cost[i])` (equal lengths, checked by the caller).
#[inline(always)]
pub(crate) fn log_eipc_lanes_kernel<const FMA: bool>(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    cost: &[f64],
    out: &mut [f64],
) {
    for_each_x4(
        out,
        |i| {
            log_eipc_x4::<FMA>(
                F64x4::load(mu, i),
                F64x4::load(sigma, i),
                y,
                F64x4::load(cost, i),
            )
        },
        |i| crate::log_eipc(mu[i], sigma[i], y, cost[i]),
    );
}

lanes_entry! {
    /// [`crate::log_ei`] over slices, four lanes at a time (instruction set chosen at run time).
    fn log_ei_lanes(mu: &[f64], sigma: &[f64], y: f64, out: &mut [f64]) => log_ei_lanes_kernel
}

lanes_entry! {
    /// [`crate::log_eipc`] over slices, four lanes at a time (instruction set chosen at run
    /// time).
    fn log_eipc_lanes(mu: &[f64], sigma: &[f64], y: f64, cost: &[f64], out: &mut [f64])
        => log_eipc_lanes_kernel
}
