//! The Pandora's Box Gittins index `g`: `EI(μ, σ; g) = c` (MATH.md, "Pandora's Box Gittins
//! index"), i.e. `g = μ + σ·u` with `h(u) = c/σ`.
use crate::consts::{FRAC_1_SQRT_2PI, FRAC_1_SQRT_2PI_LO};
use crate::dd::{two_prod, two_square, two_sum};
use crate::pbgi_start_coeffs::{R_BREAKS, U_OF_R, X_OF_V};
use crate::scaled_h::gauss_unscaled;
use crate::tail::{p_tail, p_tail_sq};
use crate::SliceLengthError;

/// Table boundaries: `R_BREAKS[0] = h(-1)`, `R_BREAKS[4] = h(0.5)`, `R_BREAKS[7] = 4.5`.
const R_LOWER: f64 = R_BREAKS[0];
const R_UPPER: f64 = R_BREAKS[4];
const R_TABLE_END: f64 = R_BREAKS[7];

/// The PBGI index `g` with `EI(μ, σ; g) = c`.
///
/// # Domain
/// - NaN in any argument → NaN; `σ < 0` → NaN; `cost ≤ 0` → NaN.
/// - `σ = 0` → `μ + c` exactly as MATH.md (one rounding).
/// - `σ = +∞` → `-∞`; `cost = +∞` → `+∞`; `μ = ±∞` → `μ` (NaN if `cost`/`σ` push the other way).
///
/// # Method
/// `r = c/σ` (double-double; `ln c - ln σ` when it leaves the normal range). `h` is
/// increasing, so `h(u) = r` has a unique root; it starts from a fitted inverse (`fast/tools/fit_pbgi_start.py`, start
/// error ≤ 3e-7) and takes one Halley step (error ≲ start error³). Three regimes by `r`:
/// `u ≥ 0.5` (residual `(u - r) + h(-u)`), `u ∈ [-1, 0.5)` (Taylor residual around 0, accurate
/// relative to `u` near 0) and `u < -1` (log space, `-ln h(-x) = -ln r`). `r ≥ 40` →
/// `g = μ + c` (the correction is below `e^{-800}` relative).
///
/// # Accuracy
/// ≤ 4 ulp of `|μ| + σ·|u|` from the correctly rounded result. The bound, why it holds and the
/// measured maximum per region of `u` (also of [`pbgi_slice`]): the one tolerance table, `conformance/src/tolerances.rs`.
#[inline]
pub fn pbgi(mu: f64, sigma: f64, cost: f64) -> f64 {
    if !(sigma > 0.0) || !(cost > 0.0) || !mu.is_finite() || !sigma.is_finite() || !cost.is_finite()
    {
        return pbgi_special(mu, sigma, cost);
    }
    let (_, offset) = solve(sigma, cost, 0.0, || cost.ln());
    mu + offset
}

/// `u` with `h(u) = c/σ` (finite `σ > 0`, `c > 0`; for `c/σ ≥ 40`, `u = c/σ` rounded).
pub(crate) fn standardized_index(sigma: f64, cost: f64) -> f64 {
    solve(sigma, cost, 0.0, || cost.ln()).0
}

/// `(u, σ·u)` for the cost `c_hi + c_lo` (`|c_lo| ≤ ulp(c_hi)`; `ln_cost()` = ln c, only
/// called when `c/σ` leaves the normal range). The offset is `c` itself when `c/σ ≥ 40`
/// (`σu = c - σh(-u)`, and `h(-u)/r < e^{-800}`), which also covers `c/σ = ∞`.
#[inline(always)]
fn solve(sigma: f64, c_hi: f64, c_lo: f64, ln_cost: impl Fn() -> f64) -> (f64, f64) {
    let r_hi = c_hi / sigma;
    if r_hi >= 40.0 {
        return (r_hi, c_hi + c_lo);
    }
    if r_hi >= f64::MIN_POSITIVE {
        let (p, e) = two_prod(r_hi, sigma);
        // Exact remainder: c - r_hi·σ (Sterbenz for c - p); lost only if r_hi·σ underflows.
        let r_lo = if p.abs() >= 1e-290 {
            (((c_hi - p) - e) + c_lo) / sigma
        } else {
            0.0
        };
        let u = if r_hi >= R_UPPER {
            solve_upper(r_hi, r_lo)
        } else if r_hi >= R_LOWER {
            solve_middle(r_hi, r_lo)
        } else {
            -solve_lower(-(r_hi.ln() + r_lo / r_hi))
        };
        return (u, sigma * u);
    }
    let u = -solve_lower(sigma.ln() - ln_cost());
    (u, sigma * u)
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

/// Halley's update `-2FF'/(2F'² - F·F'')` (cubic convergence).
#[inline(always)]
fn halley_step(f: f64, d1: f64, d2: f64) -> f64 {
    -2.0 * f * d1 / (2.0 * d1 * d1 - f * d2)
}

/// Degree-7 polynomial `Σ c[k+1]·(t - c[0])^k` of a start table row.
#[inline(always)]
fn start_poly(c: &[f64; 9], v: f64) -> f64 {
    let t = v - c[0];
    c[1] + t * (c[2] + t * (c[3] + t * (c[4] + t * (c[5] + t * (c[6] + t * (c[7] + t * c[8]))))))
}

/// Start for `r ∈ [h(-1), 4.5)` from the fitted `u(r)` (|error| ≤ 2.8e-7, `pbgi_start_coeffs.rs`).
#[inline(always)]
fn start_u(r: f64) -> f64 {
    let mut i = 0;
    while i + 2 < R_BREAKS.len() && r >= R_BREAKS[i + 1] {
        i += 1;
    }
    start_poly(&U_OF_R[i], r)
}

/// `u ≥ 0.5` with `h(u) = r_hi + r_lo`, `r ∈ [h(0.5), 40)`. Residual `(u - r_hi) - r_lo + h(-u)`
/// (`u - r_hi` exact by Sterbenz), `F' = Φ(u) = 1 - e^{-u²/2}(φ0 - p(u))/u`, `F'' = φ(u)`.
/// Start: the fit below 4.5, else `u = r` (off by `h(-r) ≤ 7e-7`); one Halley step.
#[inline(always)]
fn solve_upper(r_hi: f64, r_lo: f64) -> f64 {
    let u = if r_hi < R_TABLE_END {
        start_u(r_hi)
    } else {
        r_hi
    };
    let e = gauss_unscaled(u);
    let p = p_tail(u);
    let f = ((u - r_hi) - r_lo) + p * e;
    let d1 = 1.0 - e * (FRAC_1_SQRT_2PI - p) / u;
    let d2 = FRAC_1_SQRT_2PI * e;
    u + halley_step(f, d1, d2)
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

/// Taylor coefficients of `S(w)`, `Φ(u) = 1/2 + φ0·u·S(u²)`: `(-1)^k / (2^k k! (2k+1))`,
/// truncated where the derivative is good to 1e-13 (it only scales the Halley step).
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

#[inline(always)]
fn horner(c: &[f64], w: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * w + k)
}

/// `u ∈ [-1, 0.5)` with `h(u) = r`, `r ∈ [h(-1), h(0.5))`. With `δ = r - φ0` as a double-double,
/// the residual `(u/2 - δ_hi) + φ0·u²·P(u²) - δ_lo` has `u/2 - δ_hi` exact (Sterbenz: the two
/// are within a factor 2 on this range), so `u` is found to a few ulp *relative to u* even
/// near `u = 0` (`r ≈ 1/√(2π)`). `F' = Φ(u)`, `F'' = φ(u)` (4-term series, ≤ 3e-4 relative:
/// it only enters the cubic term). Start: the fit; one Halley step.
#[inline(always)]
fn solve_middle(r_hi: f64, r_lo: f64) -> f64 {
    let (d_hi, d_e) = two_sum(r_hi, -FRAC_1_SQRT_2PI);
    let (d_hi, d_lo) = two_sum(d_hi, d_e + (r_lo - FRAC_1_SQRT_2PI_LO));
    // Near u = 0 the step must be small *relative to u*: there, start from the two-term
    // series u = 2δ - 4φ0δ² (error O(δ³), so the Halley step leaves O(δ⁹) ≪ ulp(u)).
    let u = if d_hi.abs() < 1e-3 {
        let d = d_hi + d_lo;
        2.0 * d - 4.0 * FRAC_1_SQRT_2PI * d * d
    } else {
        start_u(r_hi)
    };
    let w = u * u;
    let f = ((0.5 * u - d_hi) + FRAC_1_SQRT_2PI * w * horner(&P_SERIES, w)) - d_lo;
    let d1 = 0.5 + FRAC_1_SQRT_2PI * u * horner(&S_SERIES, w);
    let d2 = FRAC_1_SQRT_2PI * (1.0 + w * (-0.5 + w * (0.125 + w * (-1.0 / 48.0 + w / 384.0))));
    u + halley_step(f, d1, d2)
}

/// `x > 1` with `-ln h(-x) = x²/2 - ln p(x) = m` (`m = -ln r > -ln h(-1)`). `F' = D =
/// (φ0 - p)/(x·p)` (= Φ(-x)/h(-x)), `F'' = D² - φ0/p`. Start: the fitted `x(√(2m))`
/// (|error| ≤ 2.8e-7); one Halley step.
#[inline(always)]
fn solve_lower(m: f64) -> f64 {
    let v = (2.0 * m).sqrt();
    let mut x = if v < 64.0 {
        let i = if v < 4.0 {
            0
        } else {
            ((v.to_bits() >> 52) - 1024) as usize
        };
        start_poly(&X_OF_V[i], v)
    } else {
        // Unreachable for finite f64 inputs (v ≤ 54); asymptotic start plus extra steps.
        v - (2.0 * v.ln() + 0.918_938_533_204_672_8) / v
    };
    let steps = if v < 64.0 { 1 } else { 3 };
    for _ in 0..steps {
        let (hi, lo) = two_square(x);
        let t = p_tail_sq(x, hi, lo);
        let p = t.hi;
        let f = (0.5 * hi - m) + (0.5 * lo - (p.ln() + (t.lo / p + t.rel)));
        let d1 = (FRAC_1_SQRT_2PI - p) / (x * p);
        let d2 = d1 * d1 - FRAC_1_SQRT_2PI / p;
        x += halley_step(f, d1, d2);
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
/// B.4; stopping paper, eq. 14].
///
/// # Domain
/// As [`pbgi`] for the cost `E[c]`; `s < 0` or NaN `m`/`s` → NaN. `E[c]` beyond f64's range is
/// handled through `ln E[c]` (`σ > 0`), or gives `μ + E[c]` rounded (`σ = 0`).
///
/// # Method
/// `ln E[c] = m + s²/2` as a double-double, `E[c] = exp(hi)·(1 + lo)` as a double-double fed
/// to [`pbgi`]'s solver: rounding `E[c]` to f64 first would cost `|ln E[c]|·2^-53` relative,
/// i.e. hundreds of ulp of `g` when `u > 0` and `|m|` is large.
///
/// # Accuracy
/// ≤ 4 ulp of `|μ| + σ·|u| + E[c]/Φ(u)` from the correctly rounded result. The last term is
/// `g`'s sensitivity to a relative change of `E[c]` (`c·∂g/∂c`), which matters only near
/// `u = 0`: `E[c]` itself is formed to about 1 ulp. The bound, the measured maximum per region
/// of `u`, and the known exceptions (`E[c]` and `σ` below about 1e-290; `σ = 0` with large
/// `s`): the one tolerance table, `conformance/src/tolerances.rs`.
#[inline]
pub fn pbgi_lognormal(mu: f64, sigma: f64, m: f64, s: f64) -> f64 {
    if !(s >= 0.0) || m.is_nan() {
        return f64::NAN;
    }
    let (s2_hi, s2_lo) = two_square(s);
    let (l_hi, l_e) = two_sum(m, 0.5 * s2_hi);
    let l_lo = l_e + 0.5 * s2_lo;
    let c_hi = l_hi.exp();
    let regular = sigma > 0.0 && sigma.is_finite() && mu.is_finite() && l_hi.is_finite();
    if !regular || c_hi == f64::INFINITY {
        return pbgi(mu, sigma, c_hi);
    }
    if c_hi < f64::MIN_POSITIVE && sigma.ln() - l_hi < -R_LOWER.ln() {
        // c and σ both tiny with r = c/σ ≥ h(-1): no double-double r available.
        return pbgi(mu, sigma, c_hi);
    }
    let (_, offset) = solve(sigma, c_hi, c_hi * l_lo, || l_hi + l_lo);
    mu + offset
}

/// The small-cost asymptotic index `μ - σ·√(2·ln(σ/c))` [PBGI paper, B.3; MATH.md]: a lower
/// confidence bound the exact index approaches (slowly) as `c/σ → 0`.
///
/// # Domain
/// NaN → NaN; `σ < 0` or `cost ≤ 0` → NaN; `σ = 0` → `μ + c` (as [`pbgi`]); `c ≥ σ` → NaN
/// (the formula needs `ln(σ/c) ≥ 0`).
///
/// # Accuracy
/// A few ulp of the formula (it is an approximation of [`pbgi`], not of the index, so it has no
/// row in the tolerance table, `conformance/src/tolerances.rs`).
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
