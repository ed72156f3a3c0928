//! The Pandora's Box Gittins index `g`: `EI(μ, σ; g) = c` (MATH.md, "Pandora's Box Gittins
//! index"), i.e. `g = μ + σ·u` with `h(u) = c/σ`.
use crate::consts::{FRAC_1_SQRT_2PI, FRAC_1_SQRT_2PI_LO, LN2_HI, LN2_LO};
use crate::dd::fma_dispatch;
use crate::dd::{scaled_square, two_prod, two_square, two_sum};
use crate::pbgi_start_coeffs::{R_BREAKS, U_OF_R, X_OF_V};
use crate::scaled_h::gauss_unscaled;
use crate::tail::{p_tail, p_tail_sq, x2p_large};

/// Table boundaries: `R_BREAKS[0] = h(-1)`, `R_BREAKS[4] = h(0.5)`, `R_BREAKS[7] = 4.5`.
pub(crate) const R_LOWER: f64 = R_BREAKS[0];
pub(crate) const R_UPPER: f64 = R_BREAKS[4];
pub(crate) const R_TABLE_END: f64 = R_BREAKS[7];

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
/// measured maximum per region of `u` (also of [`pbgi_slice`](crate::pbgi_slice)): the one tolerance table,
/// `conformance/src/tolerances.rs`.
///
/// # Example
/// `PBGI(0, 1, 0.1) = -0.9023463475100345` and `PBGI(μ, 0, c) = μ + c` (MATH.md, "Sanity
/// values"); the first within 4 ulp of `|μ| + σ·|u| = 0.90…` (`2^-53` each):
/// ```
/// use pbgi_fast::pbgi;
/// assert!((pbgi(0.0, 1.0, 0.1) + 0.9023463475100345).abs() <= 4.0 * 2f64.powi(-53));
/// assert_eq!(pbgi(1.0, 0.0, 0.5), 1.5);
/// ```
#[inline]
pub fn pbgi(mu: f64, sigma: f64, cost: f64) -> f64 {
    fma_dispatch!(pbgi_body(mu: f64, sigma: f64, cost: f64) -> f64)
}

/// [`pbgi`](crate::pbgi), compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn pbgi_body(mu: f64, sigma: f64, cost: f64) -> f64 {
    if !(sigma > 0.0) || !(cost > 0.0) || !mu.is_finite() || !sigma.is_finite() || !cost.is_finite()
    {
        return pbgi_special(mu, sigma, cost);
    }
    let (u, offset) = solve(sigma, cost, 0.0, || cost.ln());
    add_offset(mu, offset, sigma, u)
}

/// `μ + offset` with `offset = σ·u` (or `c`), also when `σ·u` overflows although `g` does not
/// (`μ` and `σ·u` of opposite signs near `f64::MAX`): then `2·(μ/2 + (σ/2)·u)`, which rounds
/// the same way (halving is exact for the terms that matter).
#[inline(always)]
fn add_offset(mu: f64, offset: f64, sigma: f64, u: f64) -> f64 {
    let g = mu + offset;
    if g.is_finite() || !u.is_finite() {
        g
    } else {
        add_offset_halved(mu, sigma, u, offset)
    }
}

/// [`add_offset`] where `μ + offset` overflowed: `2·(μ/2 + offset/2)`. The one sum whose
/// rounding the halves cannot decide alone is the midpoint between `±MAX`
/// and `±2^1024` (halved: `±2^1023 ∓ 2^969`), which ties to even, `±∞`: there the exact `g`
/// lies on the side of the offset's own error. Where `u ≥ 40` the offset is `c` and the exact
/// one `c - σ·h(-u)` is below it; elsewhere it is `σ·u`, whose rounding error `two_prod` gives.
#[cold]
fn add_offset_halved(mu: f64, sigma: f64, u: f64, offset: f64) -> f64 {
    /// `2^1023`, and half an ulp of `MAX/2`, `2^969`.
    const HALF_OVERFLOW: f64 = f64::from_bits(0x7fe0_0000_0000_0000);
    const QUARTER_ULP_OF_MAX: f64 = f64::from_bits(0x7c80_0000_0000_0000);
    let half = if offset.is_finite() {
        0.5 * offset
    } else {
        (0.5 * sigma) * u
    };
    let (sum, error) = two_sum(0.5 * mu, half);
    if offset.is_finite()
        && sum.abs() == HALF_OVERFLOW
        && error == -sum.signum() * QUARTER_ULP_OF_MAX
    {
        let offset_error = if u >= 40.0 {
            -1.0
        } else {
            two_prod(sigma, u).1
        };
        if offset_error * sum < 0.0 {
            return f64::MAX.copysign(sum);
        }
    }
    2.0 * sum
}

/// `u` with `h(u) = c/σ` (finite `σ > 0`, `c > 0`; for `c/σ ≥ 40`, `u = c/σ` rounded).
/// Inlined, so that the FMA compilation of its caller includes it.
#[inline(always)]
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
        let r_lo = if (SIGMA_SAFE_MIN..=SIGMA_SAFE_MAX).contains(&sigma) {
            remainder(r_hi, sigma, c_hi, c_lo)
        } else {
            remainder_scaled(r_hi, sigma, c_hi, c_lo)
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

/// σ range where Dekker's product `r·σ` in [`remainder`] is exact (`r < 40`).
pub(crate) const SIGMA_SAFE_MIN: f64 = 1e-280;
pub(crate) const SIGMA_SAFE_MAX: f64 = 1e280;

/// `r_lo = (c - r_hi·σ)/σ` with `c = c_hi + c_lo`: exact remainder (Sterbenz for `c - p`),
/// lost only if `r_hi·σ` underflows (`r < 1e-10` there: `ln r` needs no low part).
#[inline(always)]
fn remainder(r_hi: f64, sigma: f64, c_hi: f64, c_lo: f64) -> f64 {
    let (p, e) = two_prod(r_hi, sigma);
    if p.abs() >= 1e-290 {
        (((c_hi - p) - e) + c_lo) / sigma
    } else {
        0.0
    }
}

/// [`remainder`] for σ outside the safe range: `c` and `σ` scaled by the same power of two
/// (`σ' ∈ [1, 2)`; `c' = r·σ' ≥ 2^-1022` stays normal, so the scaling is exact).
#[cold]
fn remainder_scaled(r_hi: f64, sigma: f64, c_hi: f64, c_lo: f64) -> f64 {
    let (m, k) = libm::frexp(sigma);
    let s = 2.0 * m;
    let k = k - 1;
    remainder(r_hi, s, libm::scalbn(c_hi, -k), libm::scalbn(c_lo, -k))
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
pub const P_SERIES: [f64; 16] = [
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
pub const S_SERIES: [f64; 12] = [
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
/// (|error| ≤ 2.8e-7); one Halley step. `m ≥ 2048` (reached only through a log-normal cost):
/// [`solve_lower_far`].
#[inline(always)]
fn solve_lower(m: f64) -> f64 {
    if !(m < 2048.0) {
        return solve_lower_far(m);
    }
    let v = (2.0 * m).sqrt();
    let i = if v < 4.0 {
        0
    } else {
        ((v.to_bits() >> 52) - 1024) as usize
    };
    let x = start_poly(&X_OF_V[i], v);
    let (hi, lo) = two_square(x);
    let t = p_tail_sq(x, hi, lo);
    let p = t.hi;
    let f = (0.5 * hi - m) + (0.5 * lo - (p.ln() + (t.lo / p + t.rel)));
    let d1 = (FRAC_1_SQRT_2PI - p) / (x * p);
    let d2 = d1 * d1 - FRAC_1_SQRT_2PI / p;
    x + halley_step(f, d1, d2)
}

/// [`solve_lower`] for `m ≥ 2048` (`x ≥ 64`), up to `m = +∞`: the fixed point
/// `x = √(2·(m + ln p(x)))`, `ln p(x) = ln(x²p(x)) - 2·ln x` with `x²p` from the asymptotic fit
/// (`w = 1/x²`, which may underflow harmlessly). The map contracts by `2/x² ≤ 2^-11`; from the
/// start `x₀ = √(2·(m - 2·ln √(2m) - ln √(2π)))` (relative error ≤ 1e-6) four steps leave
/// < 1e-19 relative. `√(2a)` is formed as `2·√(a/2)` so that nothing overflows before the
/// result does; the result carries the rounding of `m + ln p` and of the square root (≤ 1 ulp).
#[cold]
fn solve_lower_far(m: f64) -> f64 {
    const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;
    if m.is_nan() || m == f64::INFINITY {
        return m;
    }
    let sqrt_2 = |a: f64| 2.0 * (0.5 * a).sqrt();
    let v = sqrt_2(m);
    let mut x = sqrt_2(m - (2.0 * v.ln() + LN_SQRT_2PI));
    for _ in 0..4 {
        let w = (1.0 / x) * (1.0 / x);
        let ln_p = x2p_large(x, w).ln() - 2.0 * x.ln();
        x = sqrt_2(m + ln_p);
    }
    x
}

/// PBGI with a log-normal cost `ln c ~ N(m, s²)`, using `E[c] = exp(m + s²/2)` [PBGI paper,
/// B.4; stopping paper, eq. 14].
///
/// # Domain
/// As [`pbgi`](crate::pbgi) for the cost `E[c]`; `s < 0` or NaN `m`/`s` → NaN. `E[c]` beyond f64's range is
/// handled through `ln E[c]` (`σ > 0`), or gives `μ + E[c]` rounded (`σ = 0`); with `μ = ±∞` or
/// `σ = +∞` a finite `m + s²/2` is a positive finite cost there too (`pbgi`'s limits, not the
/// NaN of a zero or infinite cost).
///
/// # Method
/// `ln E[c] = m + s²/2` as a double-double, `E[c] = exp(hi)·(1 + lo)` as a double-double fed
/// to [`pbgi`](crate::pbgi)'s solver: rounding `E[c]` to f64 first would cost `|ln E[c]|·2^-53` relative,
/// i.e. hundreds of ulp of `g` when `u > 0` and `|m|` is large.
///
/// # Accuracy
/// ≤ 4 ulp of `|μ| + σ·|u| + E[c]/Φ(u)` from the correctly rounded result. The last term is
/// `g`'s sensitivity to a relative change of `E[c]` (`c·∂g/∂c`), which matters only near
/// `u = 0`: `E[c]` itself is formed to about 1 ulp. The bound and the measured maximum per
/// region of `u`: the one tolerance table, `conformance/src/tolerances.rs`.
#[inline]
pub fn pbgi_lognormal(mu: f64, sigma: f64, m: f64, s: f64) -> f64 {
    fma_dispatch!(pbgi_lognormal_body(mu: f64, sigma: f64, m: f64, s: f64) -> f64)
}

/// [`pbgi_lognormal`], compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn pbgi_lognormal_body(mu: f64, sigma: f64, m: f64, s: f64) -> f64 {
    if !(s >= 0.0) || m.is_nan() {
        return f64::NAN;
    }
    let (h_hi, h_lo) = scaled_square(s, 0.5);
    let (l_hi, l_e) = two_sum(m, h_hi);
    let l_lo = l_e + h_lo;
    let regular = sigma > 0.0 && mu.is_finite() && (-700.0..700.0).contains(&l_hi);
    if regular && (SIGMA_SAFE_MIN..=SIGMA_SAFE_MAX).contains(&sigma) {
        let c_hi = l_hi.exp();
        let (u, offset) = solve(sigma, c_hi, c_hi * l_lo, || l_hi + l_lo);
        return add_offset(mu, offset, sigma, u);
    }
    pbgi_lognormal_far(mu, sigma, l_hi, l_lo)
}

/// [`pbgi_lognormal`] outside the regular range (`|ln E[c]| ≥ 700`, σ outside
/// `[1e-280, 1e280]`, `σ = 0`, invalid or infinite input). With `σ = 2^k·σ'`, `σ' ∈ [1, 2)`,
/// the index is homogeneous: `u` solves `h(u) = E[c]·2^-k/σ'`, and `E[c]·2^-k = exp(l - k·ln 2)`
/// is formed from the double-double `l - k·ln 2` (no rounding of `E[c]` to a subnormal or to
/// `∞` first). Where `E[c]/σ ≥ 40`, `g = μ + E[c]` (as in [`pbgi`](crate::pbgi)).
#[cold]
fn pbgi_lognormal_far(mu: f64, sigma: f64, l_hi: f64, l_lo: f64) -> f64 {
    if !(mu.is_finite() && sigma.is_finite() && sigma >= 0.0 && l_hi.is_finite()) {
        // NaN, σ < 0, infinities: pbgi's documented special values for the cost E[c]. A finite
        // ln E[c] is a positive finite cost, also where exp rounds it to 0 or ∞: clamped, so
        // that μ = ±∞ or σ = ∞ give pbgi's limits and not the NaN of a zero or infinite cost.
        let cost = if l_hi.is_finite() {
            l_hi.exp().clamp(f64::from_bits(1), f64::MAX)
        } else {
            l_hi.exp()
        };
        return pbgi(mu, sigma, cost);
    }
    if sigma == 0.0 {
        return mu_plus_exp(mu, l_hi, l_lo);
    }
    let (frac, k) = libm::frexp(sigma);
    let (sigma1, k) = (2.0 * frac, k - 1);
    let kf = f64::from(k);
    // k·LN2_HI is exact (|k| ≤ 1075 < 2^21).
    let (a, b) = two_sum(l_hi, -kf * LN2_HI);
    // Renormalised: k·LN2_LO (up to 2e-7) must not stay in the first-order low part.
    let (l1_hi, l1_lo) = two_sum(a, b + (l_lo - kf * LN2_LO));
    let c1 = l1_hi.exp();
    if !(c1 / sigma1 < 40.0) {
        return mu_plus_exp(mu, l_hi, l_lo);
    }
    let (u, _) = solve(sigma1, c1, c1 * l1_lo, || l1_hi + l1_lo);
    add_offset(mu, sigma * u, sigma, u)
}

/// `μ + exp(l_hi + l_lo)`, also when the exponential alone overflows but the sum does not.
fn mu_plus_exp(mu: f64, l_hi: f64, l_lo: f64) -> f64 {
    if l_hi < 709.0 {
        let c = l_hi.exp();
        return mu + (c + c * l_lo);
    }
    // 2·(μ/2 + exp(l - ln 2)), with ln 2 = LN_2 + LN_2_LO.
    const LN_2_LO: f64 = 2.319_046_813_846_299_6e-17;
    let (a, b) = two_sum(l_hi, -core::f64::consts::LN_2);
    let c = a.exp();
    if c == f64::INFINITY {
        return f64::INFINITY;
    }
    2.0 * (0.5 * mu + (c + c * ((b + l_lo) - LN_2_LO)))
}

/// The small-cost asymptotic index `μ - σ·√(2·ln(σ/c))` [PBGI paper, B.3; MATH.md]: a lower
/// confidence bound the exact index approaches (slowly) as `c/σ → 0`.
///
/// # Domain
/// NaN → NaN; `σ < 0` or `cost ≤ 0` → NaN; `σ = 0` → `μ + c` (as [`pbgi`](crate::pbgi)). The formula needs
/// `ln(σ/c) ≥ 0`: `cost > σ` → NaN (the one condition beyond [`crate::check_arguments`]).
/// `σ = +∞` → `-∞`.
///
/// # Method
/// `ln(σ/c)` from the quotient `q = σ/c` carried as a double-double (`ln_1p(q - 1)` for
/// `q < 2`, where `q - 1` is exact), or `ln σ - ln c` where `q` overflows; the sum with `μ`
/// guarded against a spurious overflow of `σ·√(2·ln(σ/c))`.
///
/// # Accuracy
/// ≤ 2 ulp of `|μ| + σ·√(2·ln(σ/c))` against the formula evaluated in MPFR
/// (`conformance/tests/fast_domain_edges.rs`); it is an approximation of [`pbgi`](crate::pbgi), not of the
/// index.
#[inline]
pub fn pbgi_small_cost(mu: f64, sigma: f64, cost: f64) -> f64 {
    fma_dispatch!(pbgi_small_cost_body(mu: f64, sigma: f64, cost: f64) -> f64)
}

/// [`pbgi_small_cost`], compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn pbgi_small_cost_body(mu: f64, sigma: f64, cost: f64) -> f64 {
    if mu.is_nan() || !(sigma >= 0.0) || !(cost > 0.0) {
        return f64::NAN;
    }
    if sigma == 0.0 {
        return mu + cost;
    }
    if !(cost <= sigma) {
        return f64::NAN;
    }
    let t = (2.0 * ln_ratio(sigma, cost)).sqrt();
    add_offset(mu, -(sigma * t), sigma, -t)
}

/// `ln(σ/c)` for `σ ≥ c > 0` (σ may be `+∞`), to about 1 ulp.
fn ln_ratio(sigma: f64, cost: f64) -> f64 {
    let q = sigma / cost;
    if !(q < 1.8e19) {
        // q_lo/q < 2^-53 moves ln q ≥ 44 by less than 2^-58 relative.
        return if q.is_finite() {
            q.ln()
        } else {
            sigma.ln() - cost.ln()
        };
    }
    // c = 2^k·c', c' ∈ [1, 2); σ' = σ·2^-k = q·c' ∈ [1, 2^65]: both scalings are exact and
    // Dekker's product q·c' is exact, so q_lo = (σ' - q·c')/c' is the exact remainder.
    let (frac, k) = libm::frexp(cost);
    let c1 = 2.0 * frac;
    let s1 = libm::scalbn(sigma, 1 - k);
    let (p, e) = two_prod(q, c1);
    let q_lo = ((s1 - p) - e) / c1;
    if q < 2.0 {
        libm::log1p((q - 1.0) + q_lo)
    } else {
        q.ln() + q_lo / q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_lower_far_keeps_its_limits() {
        // Documented up to m = +∞ (x = +∞); NaN stays NaN. (The fixed point from ∞ would be
        // ∞ - ∞ = NaN without the early return.)
        assert_eq!(solve_lower_far(f64::INFINITY), f64::INFINITY);
        assert!(solve_lower_far(f64::NAN).is_nan());
    }
}
