//! [`crate::pbgi`] four points at a time (the body of [`crate::pbgi_slice`]).
//!
//! The scalar solver picks one of three root finders by `r = c/σ` (`solve_lower`,
//! `solve_middle`, `solve_upper` in `pbgi.rs`); on BO-like points the three are about equally
//! common, so four consecutive points rarely share one. The slice is therefore taken in chunks
//! of [`CHUNK`] points, in three passes:
//! 1. four lanes at a time: `r = r_hi + r_lo` (`remainder`), and each point's regime;
//! 2. per regime, the points of that regime gathered four at a time (the last group padded by
//!    repeating a point), its root finder on four lanes, `u` scattered back;
//! 3. four lanes at a time: `g = μ + σ·u` (`μ + c` where `r ≥ 40`).
//!
//! Each lane performs the operations of the scalar code in the same order (the library `exp`
//! and `ln` lane by lane, the start tables gathered per lane), so it returns the bits of
//! [`crate::pbgi`]. Points outside the common path are recomputed by [`crate::pbgi`]: `σ`
//! outside `[1e-280, 1e280]` (the scaled remainder), `r < 2^-1022` (the log-space cost), `r` NaN
//! or `≤ 0` (invalid input), `g` not finite (special values, and the halved sum of
//! `add_offset`).
use crate::consts::{FRAC_1_SQRT_2PI, FRAC_1_SQRT_2PI_LO};
use crate::lanes::{
    for_each_x4, lanes_entry, two_prod, two_square, two_sum, LaneMask, Lanes, LANES,
};
use crate::pbgi::{
    P_SERIES, R_LOWER, R_TABLE_END, R_UPPER, SIGMA_SAFE_MAX, SIGMA_SAFE_MIN, S_SERIES,
};
use crate::pbgi_start_coeffs::{R_BREAKS, U_OF_R, X_OF_V};
use crate::slice_length::SliceLengthError;
use crate::tail_lanes::p_tail_sq;

/// Points per chunk (a multiple of [`LANES`]; indices within a chunk fit in a `u8`).
const CHUNK: usize = 128;

/// The regimes of the scalar solver, as indices of the per-regime lists.
const LOWER: usize = 0;
const MIDDLE: usize = 1;
const UPPER: usize = 2;

/// `r_hi + r_lo = c/σ` as `solve`'s `remainder` (`c_lo = 0`), and the regime of every lane
/// (`None`: `r ≥ 40` or a lane left to the scalar code).
#[inline(always)]
fn ratio<V: Lanes>(sigma: V, cost: V) -> (V, V, [Option<usize>; LANES]) {
    let r_hi = cost / sigma;
    let (p, e) = two_prod(r_hi, sigma);
    let r_lo = V::select(
        p.abs().ge(1e-290),
        (((cost - p) - e) + 0.0) / sigma,
        V::splat(0.0),
    );
    let solved = sigma.ge(SIGMA_SAFE_MIN)
        & sigma.le(SIGMA_SAFE_MAX)
        & r_hi.ge(f64::MIN_POSITIVE)
        & r_hi.lt(40.0);
    let (solved, upper, lower) = (
        solved.bools(),
        r_hi.ge(R_UPPER).bools(),
        r_hi.lt(R_LOWER).bools(),
    );
    let regime = core::array::from_fn(|l| {
        solved[l].then_some(if upper[l] {
            UPPER
        } else if lower[l] {
            LOWER
        } else {
            MIDDLE
        })
    });
    (r_hi, r_lo, regime)
}

/// Halley's update `-2FF'/(2F'² - F·F'')` (`pbgi::halley_step`).
#[inline(always)]
fn halley_step<V: Lanes>(f: V, d1: V, d2: V) -> V {
    f * -2.0 * d1 / (d1 * 2.0 * d1 - f * d2)
}

/// `pbgi::start_poly` with row `rows[l]` of `table` in lane `l`.
#[inline(always)]
fn start_poly<V: Lanes>(table: &[[f64; 9]], rows: [usize; LANES], v: V) -> V {
    let c = |k: usize| V::from_array(core::array::from_fn(|l| table[rows[l]][k]));
    let t = v - c(0);
    let mut acc = c(8);
    for k in (1..8).rev() {
        acc = c(k) + t * acc;
    }
    acc
}

/// `pbgi::start_u` (the row: the number of interior breaks `≤ r`, as its search).
#[inline(always)]
fn start_u<V: Lanes>(r: V) -> V {
    let ra = r.to_array();
    let rows = core::array::from_fn(|l| {
        let above = R_BREAKS[1..R_BREAKS.len() - 1]
            .iter()
            .filter(|&&b| ra[l] >= b);
        above.count().min(U_OF_R.len() - 1)
    });
    start_poly(&U_OF_R, rows, r)
}

/// `pbgi::horner`.
#[inline(always)]
fn horner<V: Lanes>(c: &[f64], w: V) -> V {
    c.iter().rev().fold(V::splat(0.0), |acc, &k| acc * w + k)
}

/// `pbgi::solve_upper` (`r ∈ [h(0.5), 40)` in every lane).
#[inline(always)]
fn solve_upper<V: Lanes>(r_hi: V, r_lo: V) -> V {
    let u = V::select(r_hi.lt(R_TABLE_END), start_u(r_hi), r_hi);
    let e = (u * -0.5 * u).map(f64::exp);
    // p_tail(u) (0.5 ≤ u < 40): the high part of p_tail_sq, the same operations.
    let p = p_tail_sq(u, u * u, V::splat(0.0)).hi;
    let f = ((u - r_hi) - r_lo) + p * e;
    let d1 = V::splat(1.0) - e * (V::splat(FRAC_1_SQRT_2PI) - p) / u;
    let d2 = e * FRAC_1_SQRT_2PI;
    u + halley_step(f, d1, d2)
}

/// `pbgi::solve_middle` (`r ∈ [h(-1), h(0.5))` in every lane).
#[inline(always)]
fn solve_middle<V: Lanes>(r_hi: V, r_lo: V) -> V {
    let (d_hi, d_e) = two_sum(r_hi, V::splat(-FRAC_1_SQRT_2PI));
    let (d_hi, d_lo) = two_sum(d_hi, d_e + (r_lo - FRAC_1_SQRT_2PI_LO));
    let d = d_hi + d_lo;
    let series = d * 2.0 - d * (4.0 * FRAC_1_SQRT_2PI) * d;
    let u = V::select(d_hi.abs().lt(1e-3), series, start_u(r_hi));
    let w = u * u;
    let f = ((u * 0.5 - d_hi) + w * FRAC_1_SQRT_2PI * horner(&P_SERIES, w)) - d_lo;
    let d1 = u * FRAC_1_SQRT_2PI * horner(&S_SERIES, w) + 0.5;
    let inner = w / V::splat(384.0) + (-1.0 / 48.0);
    let d2 = (w * (w * (w * inner + 0.125) + -0.5) + 1.0) * FRAC_1_SQRT_2PI;
    u + halley_step(f, d1, d2)
}

/// `-pbgi::solve_lower(m)` with `m = -ln r` (`r ∈ [2^-1022, h(-1))` in every lane, so
/// `m < 708`: never `solve_lower_far`).
#[inline(always)]
fn solve_lower<V: Lanes>(r_hi: V, r_lo: V) -> V {
    let m = -(r_hi.map(f64::ln) + r_lo / r_hi);
    let v = (m * 2.0).sqrt();
    let va = v.to_array();
    let rows = core::array::from_fn(|l| {
        let i = if va[l] < 4.0 {
            0
        } else {
            (va[l].to_bits() >> 52).saturating_sub(1024) as usize
        };
        i.min(X_OF_V.len() - 1)
    });
    let x = start_poly(&X_OF_V, rows, v);
    let (hi, lo) = two_square(x);
    let t = p_tail_sq(x, hi, lo);
    let p = t.hi;
    let f = (hi * 0.5 - m) + (lo * 0.5 - (p.map(f64::ln) + (t.lo / p + t.rel)));
    let d1 = (V::splat(FRAC_1_SQRT_2PI) - p) / (x * p);
    let d2 = d1 * d1 - V::splat(FRAC_1_SQRT_2PI) / p;
    -(x + halley_step(f, d1, d2))
}

/// `r_hi = c/σ` and `u` (`h(u) = c/σ`, or `u = r_hi` where `r_hi ≥ 40`) for the points of
/// one chunk, as `solve` computes them (meaningful where [`index_x4`] reports them solved).
pub(crate) struct SolvedChunk {
    r_hi: [f64; CHUNK],
    u: [f64; CHUNK],
}

/// Passes 1 and 2 for one chunk (`sigma`, `cost` of equal length, a multiple of [`LANES`], at
/// most [`CHUNK`]).
#[inline(always)]
pub(crate) fn solve_chunk<V: Lanes>(sigma: &[f64], cost: &[f64]) -> SolvedChunk {
    let n = sigma.len();
    let mut out = SolvedChunk {
        r_hi: [0.0; CHUNK],
        u: [0.0; CHUNK],
    };
    let mut r_lo = [0.0; CHUNK];
    // Per regime, the indices of its points (and room to pad the last group of four).
    let mut lists = [[0u8; CHUNK + LANES]; 3];
    let mut counts = [0usize; 3];
    for i in (0..n).step_by(LANES) {
        let (hi, lo, regime) = ratio(V::load(sigma, i), V::load(cost, i));
        out.r_hi[i..i + LANES].copy_from_slice(&hi.to_array());
        out.u[i..i + LANES].copy_from_slice(&hi.to_array());
        r_lo[i..i + LANES].copy_from_slice(&lo.to_array());
        for (l, g) in regime.iter().enumerate() {
            if let Some(g) = *g {
                lists[g][counts[g]] = (i + l) as u8;
                counts[g] += 1;
            }
        }
    }
    for (g, list) in lists.iter_mut().enumerate() {
        let count = counts[g];
        if count == 0 {
            continue;
        }
        let last = list[count - 1];
        list[count..count + LANES].fill(last);
        for k in (0..count).step_by(LANES) {
            let idx: [usize; LANES] = core::array::from_fn(|l| list[k + l] as usize % CHUNK);
            let hi = V::from_array(idx.map(|j| out.r_hi[j]));
            let lo = V::from_array(idx.map(|j| r_lo[j]));
            let v = match g {
                LOWER => solve_lower(hi, lo),
                MIDDLE => solve_middle(hi, lo),
                _ => solve_upper(hi, lo),
            }
            .to_array();
            for l in 0..LANES {
                out.u[idx[l]] = v[l];
            }
        }
    }
    out
}

/// Pass 3 at `i..i + 4` of a chunk: `(g, u, solved)`, `g = μ + σ·u` (`μ + c` where
/// `r ≥ 40`, `solve`'s offset `c + c_lo` with `c_lo = 0`) as `add_offset` when it is finite;
/// `solved` marks the lanes where `g` and `u` are those of `pbgi` and `standardized_index`.
#[inline(always)]
pub(crate) fn index_x4<V: Lanes>(
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
    solved: &SolvedChunk,
    i: usize,
) -> (V, V, V::Mask) {
    let (m, s, c) = (V::load(mu, i), V::load(sigma, i), V::load(cost, i));
    let (r, u) = (V::load(&solved.r_hi, i), V::load(&solved.u, i));
    let beyond = r.ge(40.0);
    let g = m + V::select(beyond, c + 0.0, s * u);
    let ok = s.ge(SIGMA_SAFE_MIN)
        & s.le(SIGMA_SAFE_MAX)
        & r.ge(f64::MIN_POSITIVE)
        & (beyond | r.lt(40.0));
    (g, u, ok & g.abs().le(f64::MAX))
}

/// The chunks `start..end` covering `0..n - n % 4` (the last `n % 4` points are left to the
/// scalar code).
#[inline(always)]
pub(crate) fn chunks(n: usize) -> impl Iterator<Item = (usize, usize)> {
    let whole = n - n % LANES;
    (0..whole)
        .step_by(CHUNK)
        .map(move |a| (a, (a + CHUNK).min(whole)))
}

/// `out[i] = pbgi(mu[i], sigma[i], cost[i])` (equal lengths, checked by the caller).
#[inline(always)]
pub(crate) fn pbgi_lanes_kernel<V: Lanes>(
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
    out: &mut [f64],
) {
    let n = out.len();
    for (a, b) in chunks(n) {
        let (mu, sigma, cost) = (&mu[a..b], &sigma[a..b], &cost[a..b]);
        let solved = solve_chunk::<V>(sigma, cost);
        for_each_x4(
            &mut out[a..b],
            #[inline(always)]
            |i| {
                let (g, _, ok) = index_x4::<V>(mu, sigma, cost, &solved, i);
                (g, ok)
            },
            |i| crate::pbgi::pbgi(mu[i], sigma[i], cost[i]),
        );
    }
    for j in n - n % LANES..n {
        out[j] = crate::pbgi::pbgi(mu[j], sigma[j], cost[j]);
    }
}

/// How many points of a slice (a multiple of [`LANES`] long) fall in each regime (the last
/// entry: `r ≥ 40` or left to the scalar code), for the tests.
#[cfg(test)]
pub(crate) fn pbgi_regimes<V: Lanes>(sigma: &[f64], cost: &[f64]) -> [usize; 4] {
    let mut counts = [0; 4];
    for i in (0..sigma.len()).step_by(LANES) {
        for g in ratio(V::load(sigma, i), V::load(cost, i)).2 {
            counts[g.unwrap_or(3)] += 1;
        }
    }
    counts
}

lanes_entry! {
    /// [`crate::pbgi`] over slices, four lanes at a time (instruction set chosen at run time).
    fn pbgi_lanes(mu: &[f64], sigma: &[f64], cost: &[f64], out: &mut [f64]) => pbgi_lanes_kernel
}

/// [`pbgi`](crate::pbgi) over slices: `out[i] = pbgi(mu[i], sigma[i], cost[i])`, bit for bit. No allocation.
///
/// Four points at a time: with AVX2 and FMA when the CPU has them (chosen at run time, see
/// [`crate::simd_path`]), else with the baseline instruction set. The points are grouped by the
/// solver's regime (`c/σ` below `h(-1)`, up to `h(0.5)`, up to 40) within chunks of 128, so
/// that four lanes run one root finder; rare inputs (`σ` outside `[1e-280, 1e280]`,
/// `c/σ < 2^-1022`, invalid input, `g` not finite) fall back to [`pbgi`](crate::pbgi) point by point. Every
/// path gives the bits of [`pbgi`](crate::pbgi) (`fast/src/pbgi_lanes.rs`, tested in
/// `fast/src/lanes_tests.rs` on every compilation).
///
/// # Errors
/// [`SliceLengthError`] (and `out` untouched) unless all slices have equal lengths.
pub fn pbgi_slice(
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
    out: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[
        ("mu", mu.len()),
        ("sigma", sigma.len()),
        ("cost", cost.len()),
        ("out", out.len()),
    ])?;
    crate::pbgi_lanes::pbgi_lanes(mu, sigma, cost, out);
    Ok(())
}
