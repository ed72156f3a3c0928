//! [`crate::pbgi_grad`], [`crate::ei_grad`] and [`crate::log_ei_grad`] four points at a time
//! (the bodies of [`crate::pbgi_grad_slice`], [`crate::ei_grad_slice`] and
//! [`crate::log_ei_grad_slice`]).
//!
//! The values come from the lane kernels of [`crate::pbgi_slice`] (`pbgi_lanes.rs`, which also
//! gives `u`, so the index is solved once, not twice as `pbgi` and `standardized_index`) and
//! of [`crate::ei_slice`] and [`crate::log_ei_slice`] (`ei_lanes.rs`, `log_ei_lanes.rs`); the
//! derivatives take the scalar code's operations in the same order, with its branch (`u < -1`,
//! `z < -1`) as a select, the tail ratio `p` and `h(z)` (the EI kernel at `σ = 1`) on the
//! lanes, and the library `exp` and `erfc` lane by lane. So every lane returns the bits of the
//! scalar gradient; lanes the value kernels leave to the scalar code (and `z < -2^16`, for
//! LogEI also `z > 20`) are recomputed by it.
use crate::consts::FRAC_1_SQRT_2PI;
use crate::ei_lanes::{ei_kernel, ei_x4, StandardLanes};
use crate::gradients::cost_derivative_below;
use crate::lanes::two_square;
use crate::lanes::{lanes_entry, LaneMask, Lanes, Threshold, LANES};
use crate::log_ei_lanes::log_ei_x4;
use crate::pbgi_lanes::{chunks, index_x4, solve_chunk};
use crate::slice_length::SliceLengthError;
use crate::tail_lanes::p_tail_sq;
use core::f64::consts::FRAC_1_SQRT_2;

/// `p_tail(x)` for `0 ≤ x < 2^16` (the high part of `p_tail_sq`, the same operations).
#[inline(always)]
fn p_tail<V: Lanes>(x: V) -> V {
    p_tail_sq(x, x * x, V::splat(0.0)).hi
}

/// Writes the lanes `i..i + 4` of three outputs: `v` where `ok`, else `scalar(i + l)`.
#[inline(always)]
fn store3<V: Lanes>(
    out: [&mut [f64]; 3],
    i: usize,
    v: [V; 3],
    ok: V::Mask,
    scalar: impl Fn(usize) -> [f64; 3],
) {
    let [o0, o1, o2] = out;
    let outs = [o0, o1, o2];
    let vals = v.map(|x| x.to_array());
    let ok = ok.bools();
    let mut fallback = [[0.0; 3]; LANES];
    for l in 0..LANES {
        if !ok[l] {
            fallback[l] = scalar(i + l);
        }
    }
    for (k, o) in outs.into_iter().enumerate() {
        for l in 0..LANES {
            o[i + l] = if ok[l] { vals[k][l] } else { fallback[l][k] };
        }
    }
}

/// `(∂g/∂σ, ∂g/∂c)` of `pbgi_grad` for four lanes, given `u`.
/// `Φ(v) = erfc(-v/√2)/2` on the lanes not marked `low` (lane by lane, the scalar
/// gradients' expression, so the bits agree), `1` on the others.
#[inline(always)]
fn cdf_where_not_low<V: Lanes>(v: &[f64; LANES], low: &[bool; LANES]) -> V {
    V::from_array(core::array::from_fn(|l| {
        if low[l] {
            1.0
        } else {
            0.5 * libm::erfc(-v[l] * FRAC_1_SQRT_2)
        }
    }))
}

#[inline(always)]
fn pbgi_derivatives<V: Lanes>(u: V, sigma: V, cost: V) -> (V, V) {
    let lower = u.lt(-1.0);
    // u < -1: x = -u (≤ 39 where the lanes solved u); elsewhere a harmless 1.
    let x = V::select(lower, -u, V::splat(1.0));
    let p = p_tail(x);
    let ratio = x * FRAC_1_SQRT_2PI / (V::splat(FRAC_1_SQRT_2PI) - p);
    let q = (ratio * p / V::splat(FRAC_1_SQRT_2PI)).to_array();
    let (ua, low) = (u.to_array(), lower.bools());
    let (sa, ca) = (sigma.to_array(), cost.to_array());
    // 1/Φ(-x) = q·σ/c (u < -1, as the scalar code), e^{-u²/2} and Φ(u) = erfc(-u/√2)/2
    // (u ≥ -1; 1 elsewhere).
    let below = V::from_array(core::array::from_fn(|l| {
        if low[l] {
            cost_derivative_below(q[l], sa[l], ca[l])
        } else {
            1.0
        }
    }));
    let e = V::from_array(core::array::from_fn(|l| (-0.5 * ua[l] * ua[l]).exp()));
    let big = cdf_where_not_low::<V>(&ua, &low);
    (
        V::select(lower, -ratio, -(e * FRAC_1_SQRT_2PI) / big),
        V::select(lower, below, V::splat(1.0) / big),
    )
}

/// `pbgi_grad` over slices (equal lengths, checked by the caller).
#[inline(always)]
pub(crate) fn pbgi_grad_lanes_kernel<V: Lanes>(
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
    value: &mut [f64],
    d_sigma: &mut [f64],
    d_cost: &mut [f64],
) {
    let n = mu.len();
    let scalar = |mu: f64, sigma: f64, cost: f64| {
        let g = crate::gradients::pbgi_grad(mu, sigma, cost);
        [g.value, g.d_sigma, g.d_cost]
    };
    for (a, b) in chunks(n) {
        let (mu, sigma, cost) = (&mu[a..b], &sigma[a..b], &cost[a..b]);
        let solved = solve_chunk::<V>(sigma, cost);
        for i in (0..b - a).step_by(LANES) {
            let (g, u, ok) = index_x4::<V>(mu, sigma, cost, &solved, i);
            let (ds, dc) = pbgi_derivatives(u, V::load(sigma, i), V::load(cost, i));
            store3::<V>(
                [&mut value[a..b], &mut d_sigma[a..b], &mut d_cost[a..b]],
                i,
                [g, ds, dc],
                ok,
                |j| scalar(mu[j], sigma[j], cost[j]),
            );
        }
    }
    for j in n - n % LANES..n {
        [value[j], d_sigma[j], d_cost[j]] = scalar(mu[j], sigma[j], cost[j]);
    }
}

/// `(∂EI/∂μ, ∂EI/∂σ)` of `ei_grad` for four lanes, given `z = (y - μ)/σ` (`z ≥ -2^16`).
#[inline(always)]
fn ei_derivatives<V: Lanes>(z: V) -> (V, V) {
    let lower = z.lt(-1.0);
    let x = V::select(lower, -z, V::splat(1.0));
    let (za, low) = (z.to_array(), lower.bools());
    // φ(z), and Φ(z) = erfc(-z/√2)/2 (z ≥ -1; 1 elsewhere).
    let phi = V::from_array(core::array::from_fn(|l| {
        FRAC_1_SQRT_2PI * (-0.5 * za[l] * za[l]).exp()
    }));
    let big = cdf_where_not_low::<V>(&za, &low);
    let tail = -phi * (V::splat(FRAC_1_SQRT_2PI) - p_tail(x)) / (x * FRAC_1_SQRT_2PI);
    (V::select(lower, tail, -big), phi)
}

/// The shared head of the gradient groups, after the value kernel (`ei_x4` or `log_ei_x4`)
/// settled the lanes `ok` of `(μ, σ)`: `z = (y - μ)/σ` as `standardized_z` (`y - μ` is finite
/// on those lanes) on the lanes of `ok` with `z ∈ [-2^16, z_max]`, 0 on the others (a harmless
/// argument for the derivatives), and those lanes. EI has no upper limit (`z_max = ∞`: `z ≤ ∞`
/// holds wherever `z ≥ -2^16`). (The value kernel is not passed in as a function: a call
/// through a function value would not inherit the kernel's instruction set.)
#[inline(always)]
fn settled_z<V: Lanes>(m: V, s: V, y: V, ok: V::Mask, z_max: f64) -> (V, V::Mask) {
    let z = (y - m) / s;
    let ok = ok & z.ge(-65536.0) & z.le(z_max);
    (V::select(ok, z, V::splat(0.0)), ok)
}

/// `[EI, ∂EI/∂μ, ∂EI/∂σ]` at `i..i + 4`, and the lanes where they are `ei_grad`'s (the others
/// are left to the scalar code).
#[inline(always)]
pub(crate) fn ei_grad_x4<V: Lanes>(
    mu: &[f64],
    sigma: &[f64],
    y: impl Threshold,
    i: usize,
) -> ([V; 3], V::Mask) {
    let (m, s, y) = (V::load(mu, i), V::load(sigma, i), y.lanes(i));
    let (v, ok) = ei_x4(m, s, y);
    let (z, ok) = settled_z(m, s, y, ok, f64::INFINITY);
    let (dm, ds) = ei_derivatives(z);
    ([v, dm, ds], ok)
}

/// `ei_grad` over slices, one threshold or one per point (equal lengths, checked by the
/// caller).
#[inline(always)]
pub(crate) fn ei_grad_lanes_kernel<V: Lanes>(
    mu: &[f64],
    sigma: &[f64],
    y: impl Threshold,
    value: &mut [f64],
    d_mu: &mut [f64],
    d_sigma: &mut [f64],
) {
    let n = mu.len();
    let scalar = |j: usize| {
        let g = crate::gradients::ei_grad(mu[j], sigma[j], y.at(j));
        [g.value, g.d_mu, g.d_sigma]
    };
    for i in (0..n - n % LANES).step_by(LANES) {
        let (v, ok) = ei_grad_x4::<V>(mu, sigma, y, i);
        store3::<V>([&mut *value, &mut *d_mu, &mut *d_sigma], i, v, ok, &scalar);
    }
    for j in n - n % LANES..n {
        [value[j], d_mu[j], d_sigma[j]] = scalar(j);
    }
}

/// `(∂/∂μ, ∂/∂σ)` of `log_ei_grad` for four lanes, given `z ∈ [-2^16, 20]` and `σ`:
/// `(-a/σ, b/σ)` with `(a, b) = ratios_over_h(z)`.
#[inline(always)]
fn log_ei_derivatives<V: Lanes>(z: V, sigma: V) -> (V, V) {
    let lower = z.lt(-1.0);
    let x = V::select(lower, -z, V::splat(1.0));
    let p = p_tail(x);
    let a_lower = (V::splat(FRAC_1_SQRT_2PI) - p) / (x * p);
    let b_lower = V::splat(FRAC_1_SQRT_2PI) / p;
    // h(z) for z ∈ [-1, 20] as crate::h::h: sigma_h_pos(z, 1, z, 0) or sigma_h_neg(-z, 0, 1, 0),
    // i.e. the EI kernel at σ = 1, y - μ = z + 0, and z's low part -0 (so that xlo = +0).
    let zu = V::select(lower, V::splat(0.5), z);
    let s = StandardLanes {
        dhi: zu,
        dlo: V::splat(0.0),
        zhi: zu,
        zlo: V::splat(-0.0),
    };
    let xu = zu.abs();
    let sq = two_square(xu);
    let h = ei_kernel(&s, V::splat(1.0), xu, sq, &p_tail_sq(xu, sq.0, sq.1));
    let (za, low) = (z.to_array(), lower.bools());
    // Φ(z) = erfc(-z/√2)/2 and φ(z) where z ≥ -1 (1 elsewhere).
    let big = cdf_where_not_low::<V>(&za, &low);
    let phi = V::from_array(core::array::from_fn(|l| {
        if low[l] {
            1.0
        } else {
            FRAC_1_SQRT_2PI * (-0.5 * za[l] * za[l]).exp()
        }
    }));
    let a = V::select(lower, a_lower, big / h);
    let b = V::select(lower, b_lower, phi / h);
    (-a / sigma, b / sigma)
}

/// `[LogEI, ∂/∂μ, ∂/∂σ]` at `i..i + 4`, and the lanes where they are `log_ei_grad`'s (the others
/// are left to the scalar code).
#[inline(always)]
pub(crate) fn log_ei_grad_x4<V: Lanes>(
    mu: &[f64],
    sigma: &[f64],
    y: impl Threshold,
    i: usize,
) -> ([V; 3], V::Mask) {
    let (m, s, y) = (V::load(mu, i), V::load(sigma, i), y.lanes(i));
    let (v, ok) = log_ei_x4(m, s, y);
    let (z, ok) = settled_z(m, s, y, ok, 20.0);
    let (dm, ds) = log_ei_derivatives(z, s);
    ([v, dm, ds], ok)
}

/// `log_ei_grad` over slices, one threshold or one per point (equal lengths, checked by the
/// caller).
#[inline(always)]
pub(crate) fn log_ei_grad_lanes_kernel<V: Lanes>(
    mu: &[f64],
    sigma: &[f64],
    y: impl Threshold,
    value: &mut [f64],
    d_mu: &mut [f64],
    d_sigma: &mut [f64],
) {
    let n = mu.len();
    let scalar = |j: usize| {
        let g = crate::gradients::log_ei_grad(mu[j], sigma[j], y.at(j));
        [g.value, g.d_mu, g.d_sigma]
    };
    for i in (0..n - n % LANES).step_by(LANES) {
        let (v, ok) = log_ei_grad_x4::<V>(mu, sigma, y, i);
        store3::<V>([&mut *value, &mut *d_mu, &mut *d_sigma], i, v, ok, &scalar);
    }
    for j in n - n % LANES..n {
        [value[j], d_mu[j], d_sigma[j]] = scalar(j);
    }
}

lanes_entry! {
    /// [`crate::log_ei_grad`] over slices, four lanes at a time (instruction set chosen at run
    /// time).
    fn log_ei_grad_lanes(
        mu: &[f64],
        sigma: &[f64],
        y: f64,
        value: &mut [f64],
        d_mu: &mut [f64],
        d_sigma: &mut [f64],
    ) => log_ei_grad_lanes_kernel
}

lanes_entry! {
    /// [`crate::pbgi_grad`] over slices, four lanes at a time (instruction set chosen at run
    /// time).
    fn pbgi_grad_lanes(
        mu: &[f64],
        sigma: &[f64],
        cost: &[f64],
        value: &mut [f64],
        d_sigma: &mut [f64],
        d_cost: &mut [f64],
    ) => pbgi_grad_lanes_kernel
}

lanes_entry! {
    /// [`crate::ei_grad`] over slices, four lanes at a time (instruction set chosen at run
    /// time).
    fn ei_grad_lanes(
        mu: &[f64],
        sigma: &[f64],
        y: f64,
        value: &mut [f64],
        d_mu: &mut [f64],
        d_sigma: &mut [f64],
    ) => ei_grad_lanes_kernel
}

lanes_entry! {
    /// [`crate::ei_grad`] over slices with one threshold per point, four lanes at a time
    /// (instruction set chosen at run time).
    fn ei_grad_lanes_per_point(
        mu: &[f64],
        sigma: &[f64],
        y: &[f64],
        value: &mut [f64],
        d_mu: &mut [f64],
        d_sigma: &mut [f64],
    ) => ei_grad_lanes_kernel
}

lanes_entry! {
    /// [`crate::log_ei_grad`] over slices with one threshold per point, four lanes at a time
    /// (instruction set chosen at run time).
    fn log_ei_grad_lanes_per_point(
        mu: &[f64],
        sigma: &[f64],
        y: &[f64],
        value: &mut [f64],
        d_mu: &mut [f64],
        d_sigma: &mut [f64],
    ) => log_ei_grad_lanes_kernel
}

/// [`ei_grad`](crate::ei_grad) over slices, structure of arrays: `value[i]`, `d_mu[i]`, `d_sigma[i]` of
/// `ei_grad(mu[i], sigma[i], y)`, bit for bit. No allocation.
///
/// Four points at a time (AVX2 and FMA when the CPU has them, chosen at run time, see
/// [`crate::simd_path`]; else the baseline instruction set): the value by the lanes of
/// [`crate::ei_slice`], the derivatives by the scalar operations on four lanes (`exp` and
/// `erfc` lane by lane); points those lanes leave out (and `z < -2^16`) fall back to
/// [`ei_grad`](crate::ei_grad). Every path gives the bits of [`ei_grad`](crate::ei_grad) (`fast/src/gradients_lanes.rs`,
/// tested in `fast/src/lanes_tests.rs` on every compilation).
///
/// # Errors
/// [`SliceLengthError`] (and nothing written) unless all slices have equal lengths.
pub fn ei_grad_slice(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    value: &mut [f64],
    d_mu: &mut [f64],
    d_sigma: &mut [f64],
) -> Result<(), SliceLengthError> {
    check_grad_lengths(mu, sigma, value, d_mu, d_sigma)?;
    crate::gradients_lanes::ei_grad_lanes(mu, sigma, y, value, d_mu, d_sigma);
    Ok(())
}

/// [`log_ei_grad`](crate::log_ei_grad) over slices: `value[i]`, `d_mu[i]`, `d_sigma[i]` of
/// `log_ei_grad(mu[i], sigma[i], y)`, bit for bit. No allocation.
///
/// Four points at a time, as [`ei_grad_slice`](crate::ei_grad_slice): the value by the lanes of
/// [`crate::log_ei_slice`], `h(z)` by the EI lanes, `exp` and `erfc` lane by lane; points those
/// lanes leave out (and `z` outside `[-2^16, 20]`) fall back to [`log_ei_grad`](crate::log_ei_grad). Every path
/// gives the bits of [`log_ei_grad`](crate::log_ei_grad) (`fast/src/gradients_lanes.rs`, tested in
/// `fast/src/lanes_tests.rs` on every compilation).
///
/// # Errors
/// [`SliceLengthError`] (and nothing written) unless all slices have equal lengths.
pub fn log_ei_grad_slice(
    mu: &[f64],
    sigma: &[f64],
    y: f64,
    value: &mut [f64],
    d_mu: &mut [f64],
    d_sigma: &mut [f64],
) -> Result<(), SliceLengthError> {
    check_grad_lengths(mu, sigma, value, d_mu, d_sigma)?;
    crate::gradients_lanes::log_ei_grad_lanes(mu, sigma, y, value, d_mu, d_sigma);
    Ok(())
}

/// [`ei_grad`](crate::ei_grad) over slices with one threshold per point: `value[i]`,
/// `d_mu[i]`, `d_sigma[i]` of `ei_grad(mu[i], sigma[i], y[i])`, bit for bit. No allocation.
///
/// The per-point form of [`ei_grad_slice`](crate::ei_grad_slice): the same four lanes (AVX2
/// and FMA when the CPU has them, chosen at run time, see [`crate::simd_path`]; else the
/// baseline instruction set), each lane with its own `y`; points those lanes leave out (and
/// `z < -2^16`) fall back to [`ei_grad`](crate::ei_grad). Every path gives the bits of
/// [`ei_grad`](crate::ei_grad) (`fast/src/gradients_lanes.rs`, tested in
/// `fast/src/lanes_tests.rs` on every compilation).
///
/// # Errors
/// [`SliceLengthError`] (and nothing written) unless all slices have equal lengths.
pub fn ei_grad_slice_per_point(
    mu: &[f64],
    sigma: &[f64],
    y: &[f64],
    value: &mut [f64],
    d_mu: &mut [f64],
    d_sigma: &mut [f64],
) -> Result<(), SliceLengthError> {
    check_grad_lengths_per_point(mu, sigma, y, value, d_mu, d_sigma)?;
    crate::gradients_lanes::ei_grad_lanes_per_point(mu, sigma, y, value, d_mu, d_sigma);
    Ok(())
}

/// [`log_ei_grad`](crate::log_ei_grad) over slices with one threshold per point: `value[i]`,
/// `d_mu[i]`, `d_sigma[i]` of `log_ei_grad(mu[i], sigma[i], y[i])`, bit for bit. No
/// allocation.
///
/// The per-point form of [`log_ei_grad_slice`](crate::log_ei_grad_slice): the same four lanes,
/// each with its own `y`; points those lanes leave out (and `z` outside `[-2^16, 20]`) fall
/// back to [`log_ei_grad`](crate::log_ei_grad). Every path gives the bits of
/// [`log_ei_grad`](crate::log_ei_grad) (`fast/src/gradients_lanes.rs`, tested in
/// `fast/src/lanes_tests.rs` on every compilation).
///
/// # Errors
/// [`SliceLengthError`] (and nothing written) unless all slices have equal lengths.
pub fn log_ei_grad_slice_per_point(
    mu: &[f64],
    sigma: &[f64],
    y: &[f64],
    value: &mut [f64],
    d_mu: &mut [f64],
    d_sigma: &mut [f64],
) -> Result<(), SliceLengthError> {
    check_grad_lengths_per_point(mu, sigma, y, value, d_mu, d_sigma)?;
    crate::gradients_lanes::log_ei_grad_lanes_per_point(mu, sigma, y, value, d_mu, d_sigma);
    Ok(())
}

/// [`pbgi_grad`](crate::pbgi_grad) over slices, structure of arrays (`∂g/∂μ = 1` is not written), bit for bit.
/// No allocation.
///
/// Four points at a time, on the lanes of [`crate::pbgi_slice`] (which solve for `u` once per
/// point, where [`pbgi_grad`](crate::pbgi_grad) solves twice), the derivatives by the scalar operations on four
/// lanes (`exp` and `erfc` lane by lane); points those lanes leave out fall back to
/// [`pbgi_grad`](crate::pbgi_grad). Every path gives the bits of [`pbgi_grad`](crate::pbgi_grad) (`fast/src/gradients_lanes.rs`,
/// tested in `fast/src/lanes_tests.rs` on every compilation).
///
/// # Errors
/// [`SliceLengthError`] (and nothing written) unless all slices have equal lengths.
pub fn pbgi_grad_slice(
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
    value: &mut [f64],
    d_sigma: &mut [f64],
    d_cost: &mut [f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[
        ("mu", mu.len()),
        ("sigma", sigma.len()),
        ("cost", cost.len()),
        ("value", value.len()),
        ("d_sigma", d_sigma.len()),
        ("d_cost", d_cost.len()),
    ])?;
    crate::gradients_lanes::pbgi_grad_lanes(mu, sigma, cost, value, d_sigma, d_cost);
    Ok(())
}

fn check_grad_lengths(
    mu: &[f64],
    sigma: &[f64],
    value: &[f64],
    d_mu: &[f64],
    d_sigma: &[f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[
        ("mu", mu.len()),
        ("sigma", sigma.len()),
        ("value", value.len()),
        ("d_mu", d_mu.len()),
        ("d_sigma", d_sigma.len()),
    ])
}

fn check_grad_lengths_per_point(
    mu: &[f64],
    sigma: &[f64],
    y: &[f64],
    value: &[f64],
    d_mu: &[f64],
    d_sigma: &[f64],
) -> Result<(), SliceLengthError> {
    SliceLengthError::check(&[
        ("mu", mu.len()),
        ("sigma", sigma.len()),
        ("y", y.len()),
        ("value", value.len()),
        ("d_mu", d_mu.len()),
        ("d_sigma", d_sigma.len()),
    ])
}
