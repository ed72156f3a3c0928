//! The Pandora's Box Gittins index `g`: `EI(μ, σ; g) = c` (MATH.md, "Pandora's Box Gittins
//! index"), i.e. `g = μ + σ·u` with `h(u) = c/σ`.
use crate::consts::{FRAC_1_SQRT_2PI, FRAC_1_SQRT_2PI_LO};
use crate::dd::{two_prod, two_sum};
use crate::scaled_h::gauss_unscaled;
use crate::tail::p_tail;
use crate::SliceLengthError;

/// `h(0.5)`: above it, `u ≥ 0.5` and the residual `h(u) - r` is formed as `(u - r) + h(-u)`.
const R_UPPER: f64 = 0.697_797_662_296_102_6;
/// `h(-1)`: between it and `R_UPPER`, `u ∈ [-1, 0.5)` and the residual is formed from the
/// Taylor series around 0; below it, Newton runs in log space on `x = -u > 1`.
const R_LOWER: f64 = 0.083_315_470_587_686_28;

/// The PBGI index `g` with `EI(μ, σ; g) = c`.
///
/// # Domain
/// - NaN in any argument → NaN; `σ < 0` → NaN; `cost ≤ 0` → NaN.
/// - `σ = 0` → `μ + c` exactly as MATH.md (one rounding).
/// - `σ = +∞` → `-∞`; `cost = +∞` → `+∞`; `μ = ±∞` → `μ` (NaN if `cost`/`σ` push the other way).
///
/// # Method
/// `r = c/σ` (double-double; `ln c - ln σ` when it leaves the normal range). `h` is convex and
/// increasing, and `-ln h(-x)` is convex in `x`, so Newton started to the right of the root
/// converges monotonically; the start is `u = r` (`h(u) > u`), `u = 2(r - h(0))` (tangent at
/// 0) or `x = √(-2 ln r)` (`-ln h(-x) > x²/2`). Residuals are formed without cancellation
/// near the root. `r ≥ 40` → `g = μ + c` (the correction is below `e^{-800}` relative).
///
/// # Accuracy
/// ≤ 4 ulp of `|μ| + σ·|u|`, measured against `pbgi_reference::pbgi` in
/// `fast/tests/against_reference.rs`.
#[inline]
pub fn pbgi(mu: f64, sigma: f64, cost: f64) -> f64 {
    if !(sigma > 0.0) || !(cost > 0.0) || !mu.is_finite() || !sigma.is_finite() || !cost.is_finite()
    {
        return pbgi_special(mu, sigma, cost);
    }
    let r_hi = cost / sigma;
    if r_hi >= 40.0 {
        return mu + cost;
    }
    if r_hi >= f64::MIN_POSITIVE {
        let (p, e) = two_prod(r_hi, sigma);
        // Exact remainder: c - r_hi·σ (Sterbenz for c - p); lost only if r_hi·σ underflows.
        let r_lo = if p.abs() >= 1e-290 {
            ((cost - p) - e) / sigma
        } else {
            0.0
        };
        if r_hi >= R_UPPER {
            let u = solve_upper(r_hi, r_lo);
            return mu + sigma * u;
        }
        if r_hi >= R_LOWER {
            let u = solve_middle(r_hi, r_lo);
            return mu + sigma * u;
        }
        let neg_ln_r = -(r_hi.ln() + r_lo / r_hi);
        mu - sigma * solve_lower(neg_ln_r)
    } else {
        mu - sigma * solve_lower(sigma.ln() - cost.ln())
    }
}

#[cold]
fn pbgi_special(mu: f64, sigma: f64, cost: f64) -> f64 {
    if mu.is_nan() || sigma.is_nan() || cost.is_nan() || sigma < 0.0 || cost <= 0.0 {
        f64::NAN
    } else if sigma == 0.0 {
        mu + cost
    } else if sigma == f64::INFINITY {
        if cost == f64::INFINITY {
            f64::NAN
        } else {
            mu - f64::INFINITY
        }
    } else if cost == f64::INFINITY {
        mu + f64::INFINITY
    } else {
        mu
    }
}

/// `u ≥ 0.5` with `h(u) = r_hi + r_lo`, `r ∈ [h(0.5), 40)`. Residual `(u - r_hi) - r_lo + h(-u)`
/// (`u - r_hi` exact by Sterbenz), derivative `Φ(u) = 1 - e^{-u²/2}(φ0 - p(u))/u`.
fn solve_upper(r_hi: f64, r_lo: f64) -> f64 {
    let mut u = r_hi;
    for _ in 0..40 {
        let e = gauss_unscaled(u);
        let p = p_tail(u);
        let f = ((u - r_hi) - r_lo) + p * e;
        let d = 1.0 - e * (FRAC_1_SQRT_2PI - p) / u;
        let step = f / d;
        u -= step;
        if step.abs() <= u.abs() * 1e-17 {
            break;
        }
    }
    u
}

/// Taylor coefficients of `P(w)`, `h(u) = φ0 + u/2 + φ0·u²·P(u²)`:
/// `(-1)^k / (2^k k! (2k+1)(2k+2))` (integrate `φ(u) = φ0 Σ (-u²/2)^k/k!` twice).
/// Truncation at k = 15 for `|u| ≤ 1`: < 2.4e-20 relative.
const P_SERIES: [f64; 16] = [
    0.5,
    -0.041666666666666664,
    0.004166666666666667,
    -0.0003720238095238095,
    2.8935185185185186e-05,
    -1.9728535353535354e-06,
    1.192384004884005e-07,
    -6.458746693121693e-09,
    3.16605230054985e-10,
    -1.416391818667038e-11,
    5.824987998847126e-13,
    -2.2160280430396676e-14,
    7.841329998448054e-16,
    -2.5930324068941977e-17,
    8.047341952430269e-19,
    -2.3525495627064295e-20,
];

/// Taylor coefficients of `S(w)`, `Φ(u) = 1/2 + φ0·u·S(u²)`: `(-1)^k / (2^k k! (2k+1))`.
const S_SERIES: [f64; 12] = [
    1.0,
    -0.16666666666666666,
    0.025,
    -0.002976190476190476,
    0.00028935185185185184,
    -2.3674242424242424e-05,
    1.6693376068376068e-06,
    -1.033399470899471e-07,
    5.698894140989729e-09,
    -2.832783637334076e-10,
    1.2814973597463678e-11,
    -5.318467303295202e-13,
];

fn horner(c: &[f64], w: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * w + k)
}

/// `u ∈ [-1, 0.5)` with `h(u) = r`, `r ∈ [h(-1), h(0.5))`. With `δ = r - φ0` as a double-double,
/// the residual `(u/2 - δ_hi) + φ0·u²·P(u²) - δ_lo` has `u/2 - δ_hi` exact (Sterbenz: the two
/// are within a factor 2 on this range), so `u` is found to a few ulp *relative to u* even
/// near `u = 0` (`r ≈ 1/√(2π)`).
fn solve_middle(r_hi: f64, r_lo: f64) -> f64 {
    let (d_hi, d_e) = two_sum(r_hi, -FRAC_1_SQRT_2PI);
    let d_lo = d_e + (r_lo - FRAC_1_SQRT_2PI_LO);
    let (d_hi, d_lo) = two_sum(d_hi, d_lo);
    let mut u = 2.0 * d_hi;
    for _ in 0..40 {
        let w = u * u;
        let f = ((0.5 * u - d_hi) + FRAC_1_SQRT_2PI * w * horner(&P_SERIES, w)) - d_lo;
        let d = 0.5 + FRAC_1_SQRT_2PI * u * horner(&S_SERIES, w);
        let step = f / d;
        u -= step;
        if step.abs() <= u.abs() * 1e-17 || u == 0.0 {
            break;
        }
    }
    u
}

/// `x > 1` with `-ln h(-x) = x²/2 - ln p(x) = M`. Derivative `(φ0 - p)/(x·p)` (= Φ(-x)/h(-x)).
fn solve_lower(m: f64) -> f64 {
    let mut x = (2.0 * m).sqrt();
    for _ in 0..60 {
        let (hi, lo) = two_prod(x, x);
        let p = p_tail(x);
        let f = (0.5 * hi - m) + (0.5 * lo - p.ln());
        let d = (FRAC_1_SQRT_2PI - p) / (x * p);
        let step = f / d;
        x -= step;
        if step.abs() <= x * 1e-17 {
            break;
        }
    }
    x
}

/// [`pbgi`] over slices: `out[i] = pbgi(mu[i], sigma[i], cost[i])`. No allocation.
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
    for (((o, &m), &s), &c) in out.iter_mut().zip(mu).zip(sigma).zip(cost) {
        *o = pbgi(m, s, c);
    }
    Ok(())
}

/// PBGI with a log-normal cost `ln c ~ N(m, s²)`, using `E[c] = exp(m + s²/2)` [PBGI paper,
/// B.4; stopping paper, eq. 14]. Domain: as [`pbgi`]; `s < 0` or NaN `m`/`s` → NaN.
/// Accuracy: that of [`pbgi`] plus the rounding of `exp(m + s²/2)` (≤ 1 ulp of `c`, times
/// `∂g/∂c·c ≤ |g - μ| + σ` in absolute terms).
#[inline]
pub fn pbgi_lognormal(mu: f64, sigma: f64, m: f64, s: f64) -> f64 {
    if !(s >= 0.0) || m.is_nan() {
        return f64::NAN;
    }
    pbgi(mu, sigma, (m + 0.5 * s * s).exp())
}

/// The small-cost asymptotic index `μ - σ·√(2·ln(σ/c))` [PBGI paper, B.3; MATH.md]: a lower
/// confidence bound the exact index approaches (slowly) as `c/σ → 0`.
///
/// # Domain
/// NaN → NaN; `σ < 0` or `cost ≤ 0` → NaN; `σ = 0` → `μ + c` (as [`pbgi`]); `c ≥ σ` → NaN
/// (the formula needs `ln(σ/c) ≥ 0`).
///
/// # Accuracy
/// A few ulp of the formula (it is an approximation of [`pbgi`], not of the index).
#[inline]
pub fn pbgi_small_cost(mu: f64, sigma: f64, cost: f64) -> f64 {
    if mu.is_nan() || !(sigma >= 0.0) || !(cost > 0.0) {
        return f64::NAN;
    }
    if sigma == 0.0 {
        return mu + cost;
    }
    let l = sigma.ln() - cost.ln();
    if !(l >= 0.0) {
        return f64::NAN;
    }
    mu - sigma * (2.0 * l).sqrt()
}
