//! Gradients of EI, LogEI and PBGI with respect to the posterior parameters (and the cost).
//!
//! MATH.md: `∂EI/∂μ = -Φ(z)`, `∂EI/∂σ = φ(z)`; for PBGI (`u = (g - μ)/σ`) `∂g/∂μ = 1`,
//! `∂g/∂σ = -φ(u)/Φ(u)`, `∂g/∂c = 1/Φ(u)` [PBGI paper, Prop. 3, sign-flipped]. The ratios
//! are formed from the tail ratio `p` where the plain formulas would underflow or cancel:
//! for `x = -z > 1`, `Φ(-x)/h(-x) = (φ0 - p(x))/(x·p(x))` and `φ(x)/h(-x) = φ0/p(x)`.
use crate::consts::FRAC_1_SQRT_2PI;
use crate::dd::fma_dispatch;
use crate::ei::ei;
use crate::log_ei::log_ei;
use crate::pbgi::{pbgi, standardized_index};
use crate::tail::p_tail;

/// Value and gradient of EI or LogEI with respect to `μ` and `σ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EiGrad {
    /// The function value.
    pub value: f64,
    /// Partial derivative with respect to `μ`.
    pub d_mu: f64,
    /// Partial derivative with respect to `σ`.
    pub d_sigma: f64,
}

/// Value and gradient of the PBGI index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PbgiGrad {
    /// The index `g`.
    pub value: f64,
    /// `∂g/∂μ = 1`.
    pub d_mu: f64,
    /// `∂g/∂σ = -φ(u)/Φ(u)`.
    pub d_sigma: f64,
    /// `∂g/∂c = 1/Φ(u)`.
    pub d_cost: f64,
}

/// `Φ(z)` for `z ≥ -1` (libm's erfc, ≤ 3 ulp: no amplification of the argument's rounding
/// beyond `z² ≤ 1` on the negative side).
fn big_phi_upper(z: f64) -> f64 {
    0.5 * libm::erfc(-z * core::f64::consts::FRAC_1_SQRT_2)
}

/// `φ(z)` (underflows to 0 with the true value beyond |z| ≈ 38.6).
fn small_phi(z: f64) -> f64 {
    FRAC_1_SQRT_2PI * (-0.5 * z * z).exp()
}

/// `z = (y - μ)/σ` for finite `μ`, `y` and finite `σ > 0`, also when `y - μ` overflows
/// (then from the quarters, exact where they matter); `±∞` when `z` itself overflows.
fn standardized_z(mu: f64, sigma: f64, y: f64) -> f64 {
    let d = y - mu;
    if d.is_finite() {
        d / sigma
    } else {
        (0.25 * y - 0.25 * mu) / (0.25 * sigma)
    }
}

/// Beyond `x = 1e8`, `Φ(-x)/h(-x) = x + 2/x + O(x⁻³)` and `φ(x)/h(-x) = x² + 3 + O(x⁻²)`
/// (MATH.md's series for `h`): the next terms are below `2^-53` relative.
const X_RATIO_SERIES: f64 = 1e8;

/// Beyond this `z`, `φ(z)/h(z) ≈ φ(z)/z` is below 2e-300, and subnormal from `z ≈ 37.5`.
const PHI_OVER_H_SUBNORMAL: f64 = 37.0;

/// `(Φ(z)/h(z), φ(z)/h(z))`, finite for every finite `z` (relative error ≲ 1e-15·(1 + z²));
/// the second overflows with the true value beyond `|z| ≈ 1.3e154`.
fn ratios_over_h(z: f64) -> (f64, f64) {
    if z < -X_RATIO_SERIES {
        let x = -z;
        (x + 2.0 / x, x * x + 3.0)
    } else if z < -1.0 {
        let x = -z;
        let p = p_tail(x);
        ((FRAC_1_SQRT_2PI - p) / (x * p), FRAC_1_SQRT_2PI / p)
    } else {
        let h = crate::h::h(z);
        (big_phi_upper(z) / h, small_phi(z) / h)
    }
}

/// EI and its gradient: `∂EI/∂μ = -Φ(z)`, `∂EI/∂σ = φ(z)`, `z = (y - μ)/σ`.
///
/// # Domain
/// As [`ei`](crate::ei). `σ = 0`: the limits `σ → 0+`: `∂/∂μ = -1, -1/2, 0` for `y > μ`, `y = μ`,
/// `y < μ`, and `∂/∂σ = 0` (`φ0` at `y = μ`). `σ = +∞` with finite `y - μ`: `(-1/2, φ0)`.
/// Infinite `μ` or `y` with finite `σ`: the limits `(-1, 0)` for `y - μ = +∞` and `(0, 0)` for
/// `y - μ = -∞`. Each limit 0 above is `+0`, as in the reference's `σ = 0` limits; a finite
/// `z` so far left that `Φ(z)` underflows gives `∂/∂μ = -Φ(z)` rounded, `-0`. NaN / invalid
/// input → all fields NaN.
///
/// # Accuracy
/// `value` as [`ei`](crate::ei); the derivatives to ≲ 1e-15·(1 + z²) relative (the rounding of `z`),
/// checked against central differences of the reference in `fast/tests/gradients.rs` and against
/// the closed forms in MPFR over the edges of f64 in `conformance/tests/fast_domain_edges.rs`.
/// That bound in ULPs per region of `z`, and the measured maximum per region (also of
/// [`ei_grad_slice`](crate::ei_grad_slice)): the one tolerance table, `conformance/src/tolerances.rs`.
///
/// # Example
/// At `z = 0` the gradient is `(-Φ(0), φ(0)) = (-1/2, 1/√(2π))` (closed form), within
/// `1e-15` relative:
/// ```
/// let close = |got: f64, want: f64| (got - want).abs() <= 1e-15 * want.abs();
/// let e = pbgi_fast::ei_grad(0.0, 1.0, 0.0);
/// assert!(close(e.d_mu, -0.5) && close(e.d_sigma, 0.3989422804014327));
/// ```
#[inline]
pub fn ei_grad(mu: f64, sigma: f64, y: f64) -> EiGrad {
    fma_dispatch!(ei_grad_body(mu: f64, sigma: f64, y: f64) -> EiGrad)
}

/// [`ei_grad`](crate::ei_grad), compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn ei_grad_body(mu: f64, sigma: f64, y: f64) -> EiGrad {
    let value = ei(mu, sigma, y);
    if value.is_nan() {
        return EiGrad {
            value,
            d_mu: f64::NAN,
            d_sigma: f64::NAN,
        };
    }
    let d = y - mu;
    let d_infinite = y.is_infinite() || mu.is_infinite();
    if sigma == 0.0 || sigma == f64::INFINITY || d_infinite {
        let (d_mu, d_sigma) = if sigma == 0.0 {
            if d > 0.0 {
                (-1.0, 0.0)
            } else if d < 0.0 {
                (0.0, 0.0)
            } else {
                (-0.5, FRAC_1_SQRT_2PI)
            }
        } else if sigma == f64::INFINITY {
            (-0.5, FRAC_1_SQRT_2PI)
        } else if d > 0.0 {
            (-1.0, 0.0)
        } else {
            (0.0, 0.0)
        };
        return EiGrad {
            value,
            d_mu,
            d_sigma,
        };
    }
    let z = standardized_z(mu, sigma, y);
    let (d_mu, d_sigma) = if z < -1.0 {
        // Φ(z) = φ(z)·R(x) with R(x) = (φ0 - p(x))/(φ0·x): no cancellation for x > 1.
        let x = -z;
        let phi = small_phi(z);
        (
            -phi * (FRAC_1_SQRT_2PI - p_tail(x)) / (FRAC_1_SQRT_2PI * x),
            phi,
        )
    } else {
        (-big_phi_upper(z), small_phi(z))
    };
    EiGrad {
        value,
        d_mu,
        d_sigma,
    }
}

/// LogEI and its gradient: `∂/∂μ = -Φ(z)/(σ·h(z))`, `∂/∂σ = φ(z)/(σ·h(z))`. Finite wherever
/// LogEI is (also where EI underflows).
///
/// # Domain
/// As [`log_ei`](crate::log_ei), every finite input. `σ = 0`: the limits `σ → 0+`: `(-1/(y - μ), 0)` for
/// `y > μ`, `(-∞, +∞)` for `y ≤ μ` (value `-∞`). NaN / invalid input →
/// all fields NaN; infinite `μ`, `y` or `σ` → NaN derivatives.
///
/// # Accuracy
/// `value` as [`log_ei`](crate::log_ei); derivatives ≲ 1e-15·(1 + z²) relative (checked by differencing the
/// reference in `fast/tests/gradients.rs`, and against the closed forms in MPFR over the edges of
/// f64 in `conformance/tests/fast_domain_edges.rs`). That bound in ULPs per region of `z`, and
/// the measured maximum per region (also of [`log_ei_grad_slice`](crate::log_ei_grad_slice)): the one tolerance table,
/// `conformance/src/tolerances.rs`.
#[inline]
pub fn log_ei_grad(mu: f64, sigma: f64, y: f64) -> EiGrad {
    fma_dispatch!(log_ei_grad_body(mu: f64, sigma: f64, y: f64) -> EiGrad)
}

/// [`log_ei_grad`](crate::log_ei_grad), compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn log_ei_grad_body(mu: f64, sigma: f64, y: f64) -> EiGrad {
    let value = log_ei(mu, sigma, y);
    let infinite = y.is_infinite() || mu.is_infinite();
    if value.is_nan() || sigma == f64::INFINITY || infinite {
        return EiGrad {
            value,
            d_mu: f64::NAN,
            d_sigma: f64::NAN,
        };
    }
    if sigma == 0.0 {
        // The limits σ → 0+ of -Φ(z)/(σh(z)) and φ(z)/(σh(z)), z = (y - μ)/σ.
        let d = y - mu;
        let (d_mu, d_sigma) = if d > 0.0 {
            (minus_inverse(mu, y), 0.0)
        } else {
            (f64::NEG_INFINITY, f64::INFINITY)
        };
        return EiGrad {
            value,
            d_mu,
            d_sigma,
        };
    }
    let z = standardized_z(mu, sigma, y);
    let (a, b) = ratios_over_h(z);
    // b/σ = x·(x/σ) far out, so that x² cannot overflow where b/σ does not.
    let d_sigma = if z < -X_RATIO_SERIES {
        let x = -z;
        x * (x / sigma) + 3.0 / sigma
    } else if z > PHI_OVER_H_SUBNORMAL {
        // b = φ(z)/h(z) is subnormal or 0 here, while b/σ need not be (a subnormal σ lifts it
        // by up to e^744): φ as three factors e^{-z²/6}, each normal up to z ≈ 65 (beyond 54
        // the result underflows for every σ), with the division by σ and h between them.
        let t = (-z * z / 6.0).exp();
        FRAC_1_SQRT_2PI * t / sigma * t / crate::h::h(z) * t
    } else {
        b / sigma
    };
    // Far right h(z) = z to all digits, so -Φ/(σh) = -1/(σz) = -1/(y - μ), which stays finite
    // where z overflows (σ subnormal).
    let d_mu = if z > X_RATIO_SERIES {
        minus_inverse(mu, y)
    } else {
        -a / sigma
    };
    EiGrad {
        value,
        d_mu,
        d_sigma,
    }
}

/// `-1/(y - μ)`, from the quarters when `y - μ` overflows.
fn minus_inverse(mu: f64, y: f64) -> f64 {
    let d = y - mu;
    if d.is_finite() {
        -1.0 / d
    } else {
        -0.25 / (0.25 * y - 0.25 * mu)
    }
}

/// PBGI and its gradient (MATH.md): `∂g/∂μ = 1`, `∂g/∂σ = -φ(u)/Φ(u)`, `∂g/∂c = 1/Φ(u)`.
///
/// With `c = λ·c(x)`, chain through `∂g/∂c·λ·∇c`. (The PBGI authors' log-space code has a
/// different cost term; this one is checked against differences of the reference.)
///
/// # Domain
/// As [`pbgi`](crate::pbgi). `σ = 0` (`g = μ + c`): the limits `σ → 0+`: `∂g/∂σ = 0`, `∂g/∂c = 1`.
/// NaN / invalid input → all fields NaN.
///
/// # Accuracy
/// `value` as [`pbgi`](crate::pbgi); derivatives ≲ 1e-15·(1 + u²) relative (the conditioning of `φ/Φ` and
/// `1/Φ` at the rounded `u`), checked against central differences of `pbgi_reference::pbgi` in
/// `fast/tests/gradients.rs` and against the closed forms in MPFR over the edges of f64 in
/// `conformance/tests/fast_domain_edges.rs`. That bound in ULPs per region of `u`, and the
/// measured maximum per region (also of [`pbgi_grad_slice`](crate::pbgi_grad_slice)): the one tolerance table,
/// `conformance/src/tolerances.rs`.
///
/// # Example
/// At `c = h(0) = 1/√(2π)` the index is `g = μ + σ·0` (MATH.md, "Sanity values"), so
/// `∂g/∂c = 1/Φ(0) = 2` and `∂g/∂σ = -φ(0)/Φ(0) = -√(2/π)` (closed forms), within `1e-15`
/// relative:
/// ```
/// let close = |got: f64, want: f64| (got - want).abs() <= 1e-15 * want.abs();
/// let g = pbgi_fast::pbgi_grad(0.0, 1.0, 0.3989422804014327);
/// assert_eq!(g.d_mu, 1.0);
/// assert!(close(g.d_cost, 2.0) && close(g.d_sigma, -0.7978845608028654));
/// ```
#[inline]
pub fn pbgi_grad(mu: f64, sigma: f64, cost: f64) -> PbgiGrad {
    fma_dispatch!(pbgi_grad_body(mu: f64, sigma: f64, cost: f64) -> PbgiGrad)
}

/// [`pbgi_grad`](crate::pbgi_grad), compiled into its FMA and baseline forms (`crate::dd::fma_dispatch`).
#[inline(always)]
fn pbgi_grad_body(mu: f64, sigma: f64, cost: f64) -> PbgiGrad {
    let value = pbgi(mu, sigma, cost);
    if value.is_nan() || !sigma.is_finite() || !cost.is_finite() || !mu.is_finite() {
        return PbgiGrad {
            value,
            d_mu: f64::NAN,
            d_sigma: f64::NAN,
            d_cost: f64::NAN,
        };
    }
    if sigma == 0.0 {
        return PbgiGrad {
            value,
            d_mu: 1.0,
            d_sigma: 0.0,
            d_cost: 1.0,
        };
    }
    // u straight from the solver (not (g - μ)/σ, which loses digits when |μ| ≫ σ|u|).
    let u = standardized_index(sigma, cost);
    let (d_sigma, d_cost) = if u < -1.0 {
        // φ(x)/Φ(-x) = φ0·x/(φ0 - p(x)) (no cancellation for x > 1).
        let x = -u;
        let p = p_tail(x);
        let ratio = FRAC_1_SQRT_2PI * x / (FRAC_1_SQRT_2PI - p);
        (
            -ratio,
            cost_derivative_below(ratio * p / FRAC_1_SQRT_2PI, sigma, cost),
        )
    } else {
        let big = big_phi_upper(u);
        (-small_phi(u) / big, 1.0 / big)
    };
    PbgiGrad {
        value,
        d_mu: 1.0,
        d_sigma,
        d_cost,
    }
}

/// `∂g/∂c = 1/Φ(-x)` for `u = -x < -1`, from `q = φ(x)/Φ(-x) - x = ratio·p(x)/φ0` (no
/// cancellation): `h(-x) = φ(x) - x·Φ(-x) = c/σ` gives `1/Φ(-x) = q·σ/c`. No `e^{x²/2}`, which
/// overflows near `x = 37.7` (`c/σ ≈ 1e-310`) while `1/Φ(-x)` is still below `MAX`; `σ/c`
/// alone may overflow there too, and `q < 1` is applied first then.
#[inline(always)]
pub(crate) fn cost_derivative_below(q: f64, sigma: f64, cost: f64) -> f64 {
    let sigma_per_cost = sigma / cost;
    if sigma_per_cost.is_finite() {
        q * sigma_per_cost
    } else {
        (q * sigma) / cost
    }
}
