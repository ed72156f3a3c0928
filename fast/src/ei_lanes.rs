//! [`crate::ei`] four points at a time (the body of [`crate::ei_slice`]).
//!
//! Each lane runs the operations of the scalar kernel (`Standardized::new`, `zlo`,
//! `sigma_h_pos`, `sigma_h_neg`, `p_tail_sq`) in the same order, with selects in place of the
//! branches, so it returns the same bits as [`crate::ei`]. The exponential is the scalar `exp`
//! of each lane. Lanes outside the common region, where the scalar code takes a rare branch or
//! where Dekker's and the fused product could differ (near underflow), are recomputed by
//! [`crate::ei`]:
//! - `σ ∉ [1e-100, 1e100]`, `y - μ` not finite, NaN anywhere;
//! - `z ∈ (20, 40]` (`σ·h(-z)` near the underflow threshold), `z ∈ [-38.5, -37)` (the scaled
//!   exponential leaves the range of one multiplication), `z < -38.5` with `σ > 1`, and
//!   `z < 0` with `|y - μ| < 1e-250`.
use crate::consts::{INV_LN2, LN2_HI, LN2_LO};
use crate::lanes::{for_each_x4, lanes_entry, two_prod, two_square, two_sum, F64x4, Mask};
use crate::tail_lanes::{p_tail_sq, TailLanes};

/// `Standardized::new` and `Standardized::zlo` for four lanes (meaningful where
/// `σ ∈ [1e-150, 1e150]`, `y - μ` finite and, for `zlo`, `|y - μ| ≥ 1e-250`).
pub(crate) struct StandardLanes {
    pub dhi: F64x4,
    pub dlo: F64x4,
    pub zhi: F64x4,
    pub zlo: F64x4,
}

#[inline(always)]
pub(crate) fn standardize<const FMA: bool>(mu: F64x4, sigma: F64x4, y: f64) -> StandardLanes {
    let (dhi, dlo) = two_sum(F64x4::splat(y), -mu);
    let inv = 1.0 / sigma;
    let zhi = dhi * inv;
    let (p, e) = two_prod::<FMA>(zhi, sigma);
    let zlo = (((dhi - p) - e) + dlo) * inv;
    StandardLanes { dhi, dlo, zhi, zlo }
}

/// Which lanes the EI kernel settles, by the branch `crate::ei` takes on them.
pub(crate) struct EiMasks {
    /// `σ ∈ [1e-100, 1e100]` and `y - μ` finite: the kernel's range, where Dekker's and the
    /// fused products agree.
    pub ok: Mask,
    /// `z ∈ [0, 20]` (`sigma_h_pos`) or `z ∈ [-37, 0)` with `|y - μ| ≥ 1e-250`
    /// (`sigma_h_neg` with one scaling multiplication).
    pub kernel: Mask,
    /// `z > 40`: EI = `y - μ` to all digits.
    pub beyond: Mask,
    /// `z < -38.5` with `σ ≤ 1`: EI rounds to 0.
    pub zero: Mask,
}

#[inline(always)]
pub(crate) fn ei_masks(s: &StandardLanes, sigma: F64x4) -> EiMasks {
    // Non-short-circuit `&` and `|` throughout the masks: a comparison per lane and condition,
    // without branches (the conditions vary at random from lane to lane).
    let ok_sigma = sigma.test(|v| (v >= 1e-100) & (v <= 1e100));
    let ok_d = s.dhi.test(|d| d.abs() <= f64::MAX);
    let big_d = s.dhi.test(|d| d.abs() >= 1e-250);
    let sigma_le_1 = sigma.test(|v| v <= 1.0);
    let z = s.zhi;
    EiMasks {
        ok: core::array::from_fn(|l| ok_sigma[l] & ok_d[l]),
        kernel: core::array::from_fn(|l| {
            let z = z.0[l];
            ((z >= 0.0) & (z <= 20.0)) | ((z >= -37.0) & (z < 0.0) & big_d[l])
        }),
        beyond: z.test(|z| z > 40.0),
        zero: core::array::from_fn(|l| (z.0[l] < -38.5) & sigma_le_1[l]),
    }
}

/// `sigma_h_pos` (`z ≥ 0`) or `sigma_h_neg` with `k = 0` (`z < 0`) on the kernel lanes, given
/// `x = |z|` there (anything harmless elsewhere), `x² = hi + lo` and the tail ratio `t`.
#[inline(always)]
pub(crate) fn ei_kernel<const FMA: bool>(
    s: &StandardLanes,
    sigma: F64x4,
    x: F64x4,
    (hi, lo): (F64x4, F64x4),
    t: &TailLanes,
) -> F64x4 {
    let pos = s.zhi.test(|z| z >= 0.0);
    let xlo = -s.zlo;
    let half_hi = hi * 0.5;
    let n = (half_hi * INV_LN2).map(round_to_int);
    // One exponential per lane: of -z²/2 (z ≥ 0), of the reduced argument (z < 0).
    let reduced = (n * LN2_HI - half_hi) + n * LN2_LO;
    let ex = F64x4::select(pos, hi * -0.5, reduced).map(f64::exp);
    let (m_hi, m_lo) = two_prod::<FMA>(t.hi, ex);
    let (s_hi, s_lo) = two_prod::<FMA>(sigma, m_hi);

    // sigma_h_pos: (dhi + dlo) + σ·h(-z).
    let (a, b) = two_sum(s.dhi, s_hi);
    let corr_pos = t.rel - lo * 0.5;
    let r_pos = a + (b + ((s.dlo + (s_lo + sigma * (m_lo + ex * t.lo))) + s_hi * corr_pos));
    // sigma_h_neg: σ·p·e·2^-n.
    let corr_neg = t.rel - (lo * 0.5 + x * xlo);
    let v = s_hi + ((s_lo + sigma * (m_lo + ex * (t.lo + t.dp * xlo))) + s_hi * corr_neg);
    let r_neg = F64x4(core::array::from_fn(|l| {
        // -n ∈ [-1000, 0] on kernel lanes (x ≤ 37): scale_pow2's one-multiplication branch.
        let j = (-n.0[l]).clamp(-1000.0, 1000.0) as i64;
        v.0[l] * f64::from_bits(((1023 + j) as u64) << 52)
    }));
    F64x4::select(pos, r_pos, r_neg)
}

/// EI for four lanes and which lanes it settled (the others are left to the scalar code).
#[inline(always)]
pub(crate) fn ei_x4<const FMA: bool>(mu: F64x4, sigma: F64x4, y: f64) -> (F64x4, Mask) {
    let s = standardize::<FMA>(mu, sigma, y);
    let m = ei_masks(&s, sigma);
    // |z| on kernel lanes, a harmless 1 elsewhere (keeps the table rows in range).
    let x = F64x4::select(m.kernel, s.zhi.abs(), F64x4::splat(1.0));
    let sq = two_square::<FMA>(x);
    let t = p_tail_sq::<FMA>(x, sq.0, sq.1);
    let kernel = ei_kernel::<FMA>(&s, sigma, x, sq, &t);
    let value = F64x4::select(
        m.zero,
        F64x4::splat(0.0),
        F64x4::select(m.beyond, s.dhi + s.dlo, kernel),
    );
    let settled = core::array::from_fn(|l| m.ok[l] & (m.kernel[l] | m.beyond[l] | m.zero[l]));
    (value, settled)
}

/// As `crate::scaled_h`'s rounding to an integer (`|v| < 2^51`).
#[inline(always)]
fn round_to_int(v: f64) -> f64 {
    const SHIFT: f64 = 6_755_399_441_055_744.0; // 1.5·2^52
    (v + SHIFT) - SHIFT
}

/// `out[i] = ei(mu[i], sigma[i], y)` (equal lengths, checked by the caller).
#[inline(always)]
pub(crate) fn ei_lanes_kernel<const FMA: bool>(mu: &[f64], sigma: &[f64], y: f64, out: &mut [f64]) {
    for_each_x4(
        out,
        |i| ei_x4::<FMA>(F64x4::load(mu, i), F64x4::load(sigma, i), y),
        |i| crate::ei(mu[i], sigma[i], y),
    );
}

lanes_entry! {
    /// [`crate::ei`] over slices, four lanes at a time (instruction set chosen at run time).
    fn ei_lanes(mu: &[f64], sigma: &[f64], y: f64, out: &mut [f64]) => ei_lanes_kernel
}
