//! Gradients of EI, LogEI and PBGI with respect to the posterior parameters (and the cost).
//!
//! MATH.md: `∂EI/∂μ = -Φ(z)`, `∂EI/∂σ = φ(z)`; for PBGI (`u = (g - μ)/σ`) `∂g/∂μ = 1`,
//! `∂g/∂σ = -φ(u)/Φ(u)`, `∂g/∂c = 1/Φ(u)` [PBGI paper, Prop. 3, sign-flipped]. The ratios
//! are formed from the tail ratio `p` where the plain formulas would underflow or cancel:
//! for `x = -z > 1`, `Φ(-x)/h(-x) = (φ0 - p(x))/(x·p(x))` and `φ(x)/h(-x) = φ0/p(x)`.
use crate::consts::FRAC_1_SQRT_2PI;
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

/// `(Φ(z)/h(z), φ(z)/h(z))`, finite for every finite `z` (relative error ≲ 1e-15·(1 + z²)).
fn ratios_over_h(z: f64) -> (f64, f64) {
    if z < -1.0 {
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
/// As [`ei`]. `σ = 0`: the limits `σ → 0+`: `∂/∂μ = -1, -1/2, 0` for `y > μ`, `y = μ`,
/// `y < μ`, and `∂/∂σ = 0` (`φ0` at `y = μ`). NaN / invalid input → all fields NaN.
///
/// # Accuracy
/// `value` as [`ei`] (its row of the one tolerance table, `conformance/src/tolerances.rs`);
/// the derivatives to ≲ 1e-15·(1 + z²) relative (the rounding of `z`), checked against central
/// differences of the reference in `fast/tests/gradients.rs`.
pub fn ei_grad(mu: f64, sigma: f64, y: f64) -> EiGrad {
    let value = ei(mu, sigma, y);
    if value.is_nan() {
        return EiGrad {
            value,
            d_mu: f64::NAN,
            d_sigma: f64::NAN,
        };
    }
    let d = y - mu;
    if sigma == 0.0 || sigma == f64::INFINITY || d.is_infinite() {
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
    let z = d / sigma;
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
/// As [`log_ei`]. `σ = 0`, `y > μ`: `(-1/(y - μ), 0)`; `σ = 0`, `y ≤ μ` (value `-∞`): NaN
/// gradient. NaN / invalid input → all fields NaN.
///
/// # Accuracy
/// `value` as [`log_ei`] (its row of the one tolerance table, `conformance/src/tolerances.rs`);
/// derivatives ≲ 1e-15·(1 + z²) relative (checked by differencing the reference in
/// `fast/tests/gradients.rs`).
pub fn log_ei_grad(mu: f64, sigma: f64, y: f64) -> EiGrad {
    let value = log_ei(mu, sigma, y);
    let d = y - mu;
    if value.is_nan() || sigma == f64::INFINITY || d.is_infinite() {
        return EiGrad {
            value,
            d_mu: f64::NAN,
            d_sigma: f64::NAN,
        };
    }
    if sigma == 0.0 {
        return if d > 0.0 {
            EiGrad {
                value,
                d_mu: -1.0 / d,
                d_sigma: 0.0,
            }
        } else {
            EiGrad {
                value,
                d_mu: f64::NAN,
                d_sigma: f64::NAN,
            }
        };
    }
    let (a, b) = ratios_over_h(d / sigma);
    EiGrad {
        value,
        d_mu: -a / sigma,
        d_sigma: b / sigma,
    }
}

/// PBGI and its gradient (MATH.md): `∂g/∂μ = 1`, `∂g/∂σ = -φ(u)/Φ(u)`, `∂g/∂c = 1/Φ(u)`.
///
/// With `c = λ·c(x)`, chain through `∂g/∂c·λ·∇c`. (The PBGI authors' log-space code has a
/// different cost term; this one is checked against differences of the reference.)
///
/// # Domain
/// As [`pbgi`]. `σ = 0` (`g = μ + c`): the limits `σ → 0+`: `∂g/∂σ = 0`, `∂g/∂c = 1`.
/// NaN / invalid input → all fields NaN.
///
/// # Accuracy
/// `value` as [`pbgi`] (its row of the one tolerance table, `conformance/src/tolerances.rs`);
/// derivatives ≲ 1e-14 relative, checked against central differences of
/// `pbgi_reference::pbgi` in `fast/tests/gradients.rs`.
pub fn pbgi_grad(mu: f64, sigma: f64, cost: f64) -> PbgiGrad {
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
        // φ(x)/Φ(-x) = φ0·x/(φ0 - p(x)) (no cancellation for x > 1), and
        // 1/Φ(-x) = that·√(2π)·e^{x²/2}, which overflows exactly when the true value does.
        let x = -u;
        let ratio = FRAC_1_SQRT_2PI * x / (FRAC_1_SQRT_2PI - p_tail(x));
        (
            -ratio,
            ratio * (2.0 * core::f64::consts::PI).sqrt() * (0.5 * x * x).exp(),
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
