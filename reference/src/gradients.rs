//! Certified gradients of EI, LogEI and PBGI (MATH.md, "Expected improvement" and "Pandora's
//! Box Gittins index", "Derivatives"; PBGI paper, Prop. 3, sign-flipped for minimisation).
//!
//! With `z = (y - μ)/σ`, `u = (g - μ)/σ`, `x = |z|` (or `|u|`), `Q(x) = P(Z > x)`, and the
//! tail ratios `q = h(-x)/φ(x)`, `r = Q(x)/φ(x)` of `gaussian.rs` (neither underflows):
//!
//! | quantity | `z ≤ 0` (resp. `u ≤ 0`) | `z > 0` (resp. `u > 0`) |
//! |---|---|---|
//! | `∂EI/∂μ = -Φ(z)` | `-Q(x)` | `-(1 - Q(x))` |
//! | `∂EI/∂σ = φ(z)` | `φ(x)` | `φ(x)` |
//! | `∂LogEI/∂μ = -Φ(z)/EI` | `-r/(σ·q)` | `-(1 - Q(x))/EI` |
//! | `∂LogEI/∂σ = φ(z)/EI` | `1/(σ·q)` | `φ(x)/EI` |
//! | `∂g/∂σ = -φ(u)/Φ(u)` | `-1/r` | `-φ(x)/(1 - Q(x))` |
//! | `∂g/∂c = 1/Φ(u)` | `1/(φ(x)·r)` | `1/(1 - Q(x))` |
//!
//! (`EI = σ·h(z)`; for `z ≤ 0`, `σ·h(z) = σ·φ(x)·q`, so `φ(x)` cancels.) Every field is its own
//! Ziv loop (`certify.rs`), so each is correctly rounded and enclosed like a value; strictly
//! negative fields are certified as their positive negation, so that one below every double
//! rounds to `-0`.

use crate::arith::interval::{log2_abs, Interval};
use crate::arith::mpfr::{down, up, widen_exponent_range};
use crate::certified::{Accuracy, Certified, Error};
use crate::certify::{exact, negated, ziv};
use crate::ei::{distance, distance_bits, ei_enclosure, exact_difference};
use crate::gaussian::{phi, tail_ratios, upper_tail};
use crate::input::{finite, non_negative, positive};
use crate::standardized_index::standardized_index;
use rug::Float;

/// The gradient of EI or LogEI with respect to the posterior mean and standard deviation.
#[derive(Clone, Debug)]
pub struct EiGradient {
    /// `∂/∂μ`, certified and correctly rounded.
    pub d_mu: Certified,
    /// `∂/∂σ`, certified and correctly rounded.
    pub d_sigma: Certified,
}

/// The gradient of the PBGI index `g` with respect to `μ`, `σ` and the cost.
#[derive(Clone, Debug)]
pub struct PbgiGradient {
    /// `∂g/∂μ = 1`.
    pub d_mu: Certified,
    /// `∂g/∂σ = -φ(u)/Φ(u)`, certified and correctly rounded.
    pub d_sigma: Certified,
    /// `∂g/∂c = 1/Φ(u)`, certified and correctly rounded.
    pub d_cost: Certified,
}

/// An exact value as a certified result (a point enclosure).
fn exactly(function: &'static str, v: Float, acc: &Accuracy) -> Result<Certified, Error> {
    ziv(function, acc, |_| Interval::point(v.clone()).into())
}

/// `1 - Q` for an enclosure of `Q ∈ [0, 1/2]`.
fn one_minus(q: &Interval, p: u32) -> Interval {
    Interval {
        lo: down(p, 1u32 - &q.hi),
        hi: up(p, 1u32 - &q.lo),
    }
}

/// `1/v` for an enclosure of `v > 0`.
fn recip(v: &Interval, p: u32) -> Interval {
    Interval {
        lo: down(p, v.hi.recip_ref()),
        hi: up(p, v.lo.recip_ref()),
    }
}

/// `x = |d|/σ` carried with the extra bits that its rounding needs (`ei.rs`).
fn standardized_distance(d: &Float, sigma: &Float, p: u32) -> Interval {
    distance(d, sigma, p + distance_bits(d, sigma))
}

fn check_ei_args(mu: f64, sigma: f64, y: f64) -> Result<(f64, f64, f64), Error> {
    Ok((
        finite("mu", mu)?,
        non_negative("sigma", sigma)?,
        finite("y", y)?,
    ))
}

/// Gradient of `EI(μ, σ; y)`: `∂EI/∂μ = -Φ(z)`, `∂EI/∂σ = φ(z)`, `z = (y - μ)/σ` (MATH.md,
/// "Expected improvement"; differentiate `σ·h(z)` with `h' = Φ`, `h(z) - z·Φ(z) = φ(z)`).
///
/// # Domain
/// As [`crate::ei`]: `mu`, `y` finite, `sigma ≥ 0` finite, else [`Error::InvalidInput`].
/// `σ = 0` (the boundary of the domain; `∂/∂σ` is the one-sided derivative from `σ > 0`, equal
/// to the limit of `φ(z)`): `y > μ` gives `(-1, 0)`, `y < μ` gives `(0, 0)` (exact; `+0`), and
/// `y = μ` is [`Error::NotDifferentiable`] (`max(y - μ, 0)` has a kink in `μ` there).
/// `pbgi_fast::ei_grad` agrees except at `σ = 0`, `y = μ`, where it returns the limits
/// `(-1/2, 1/√(2π))` of the `σ > 0` formulas.
///
/// # Accuracy
/// Each field certified (`lower ≤ exact ≤ upper`) and correctly rounded (0 ULP); against
/// mpmath in `tests/mpmath_data.rs`, against central differences of [`crate::ei`] in
/// `tests/gradients.rs`. `∂/∂μ` rounds to `-0` where `Φ(z)` is below every double; beyond
/// `|z| ≈ 2.5e9` the tiny field's enclosure is `[0, tiny]` (or its negation).
pub fn ei_grad(mu: f64, sigma: f64, y: f64) -> Result<EiGradient, Error> {
    ei_grad_with(mu, sigma, y, &Accuracy::default())
}

/// [`ei_grad`] with an explicit precision policy.
pub fn ei_grad_with(mu: f64, sigma: f64, y: f64, acc: &Accuracy) -> Result<EiGradient, Error> {
    const NAME: &str = "ei_grad";
    let (mu, sigma, y) = check_ei_args(mu, sigma, y)?;
    widen_exponent_range();
    let d = exact_difference(y, mu);
    if sigma == 0.0 {
        if d.is_zero() {
            return Err(Error::NotDifferentiable {
                function: NAME,
                reason: "EI = max(y - mu, 0) has a kink in mu at sigma = 0, y = mu",
            });
        }
        let d_mu = if d > 0 { -1 } else { 0 };
        return Ok(EiGradient {
            d_mu: exactly(NAME, Float::with_val(53, d_mu), acc)?,
            d_sigma: exactly(NAME, Float::with_val(53, 0), acc)?,
        });
    }
    let sigma = exact(sigma);
    let d_positive = d > 0;
    // Φ(z) > 0: Q(x) below the mean, 1 - Q(x) above it.
    let cdf = |p: u32| {
        let q = upper_tail(&standardized_distance(&d, &sigma, p), p);
        if d_positive {
            one_minus(&q, p)
        } else {
            q
        }
    };
    Ok(EiGradient {
        d_mu: ziv(NAME, acc, |p| cdf(p).into()).map(negated)?,
        d_sigma: ziv(NAME, acc, |p| {
            phi(&standardized_distance(&d, &sigma, p), p).into()
        })?,
    })
}

/// Gradient of `LogEI(μ, σ; y) = ln EI`: `∂/∂μ = -Φ(z)/(σ·h(z))`, `∂/∂σ = φ(z)/(σ·h(z))`
/// (MATH.md, "Expected improvement").
///
/// # Domain
/// As [`crate::log_ei`]: `mu`, `y` finite, `sigma ≥ 0` finite, else [`Error::InvalidInput`].
/// Finite wherever LogEI is, also far below f64's range (`∂/∂μ ≈ -|z|/σ`, `∂/∂σ ≈ z²/σ` as
/// `z → -∞`, formed from tail ratios that do not underflow; they overflow to `-inf`/`+inf` only
/// where the exact value exceeds `f64::MAX`). `σ = 0`, `y > μ`: `(-1/(y - μ), 0)` (`∂/∂σ` the
/// one-sided derivative, `ln(1 + σh(-z)/(y - μ))/σ → 0`); `σ = 0`, `y ≤ μ` (LogEI `= -inf`) is
/// [`Error::NotDifferentiable`]. `pbgi_fast::log_ei_grad` agrees, returning NaN fields where
/// this function returns the error.
///
/// # Accuracy
/// Each field certified and correctly rounded (0 ULP); against mpmath in
/// `tests/mpmath_data.rs`, against central differences of [`crate::log_ei`] in
/// `tests/gradients.rs`.
pub fn log_ei_grad(mu: f64, sigma: f64, y: f64) -> Result<EiGradient, Error> {
    log_ei_grad_with(mu, sigma, y, &Accuracy::default())
}

/// [`log_ei_grad`] with an explicit precision policy.
pub fn log_ei_grad_with(mu: f64, sigma: f64, y: f64, acc: &Accuracy) -> Result<EiGradient, Error> {
    const NAME: &str = "log_ei_grad";
    let (mu, sigma, y) = check_ei_args(mu, sigma, y)?;
    widen_exponent_range();
    let d = exact_difference(y, mu);
    if sigma == 0.0 {
        if d <= 0 {
            return Err(Error::NotDifferentiable {
                function: NAME,
                reason: "LogEI = -inf for sigma = 0, y <= mu",
            });
        }
        // ∂/∂μ ln(y - μ) = -1/(y - μ), certified as 1/d and negated.
        let inverse = |p: u32| Interval {
            lo: down(p, d.recip_ref()),
            hi: up(p, d.recip_ref()),
        };
        return Ok(EiGradient {
            d_mu: ziv(NAME, acc, |p| inverse(p).into()).map(negated)?,
            d_sigma: exactly(NAME, Float::with_val(53, 0), acc)?,
        });
    }
    let sigma = exact(sigma);
    let over_sigma = |v: Interval, p: u32| Interval {
        lo: down(p, &v.lo / &sigma),
        hi: up(p, &v.hi / &sigma),
    };
    // (Φ(z)/EI, φ(z)/EI), both positive, at working precision p.
    let ratios = |p: u32| -> (Interval, Interval) {
        let x = standardized_distance(&d, &sigma, p);
        if d > 0 {
            let ei = ei_enclosure(&d, &sigma, p);
            let cdf = one_minus(&upper_tail(&x, p), p);
            (cdf.div_nonneg(&ei, p), phi(&x, p).div_nonneg(&ei, p))
        } else {
            let t = tail_ratios(&x, p);
            let inv_q = recip(&t.q, p);
            (
                over_sigma(t.r.mul_nonneg(&inv_q, p), p),
                over_sigma(inv_q, p),
            )
        }
    };
    Ok(EiGradient {
        d_mu: ziv(NAME, acc, |p| ratios(p).0.into()).map(negated)?,
        d_sigma: ziv(NAME, acc, |p| ratios(p).1.into())?,
    })
}

/// `(φ(u)/Φ(u), 1/Φ(u))` enclosed at an exact point `u`.
fn index_ratios(u: &Float, p: u32) -> (Interval, Interval) {
    let x = Interval::point(Float::with_val(u.prec(), u.abs_ref()));
    if u.is_sign_negative() || u.is_zero() {
        // Φ(u) = Q(x) = φ(x)·r(x).
        let r = tail_ratios(&x, p).r;
        let density = phi(&x, p);
        (recip(&r, p), recip(&density.mul_nonneg(&r, p), p))
    } else {
        let cdf = one_minus(&upper_tail(&x, p), p);
        (phi(&x, p).div_nonneg(&cdf, p), recip(&cdf, p))
    }
}

/// Gradient of the PBGI index `g` (`EI(μ, σ; g) = c`): `∂g/∂μ = 1`, `∂g/∂σ = -φ(u)/Φ(u)`,
/// `∂g/∂c = 1/Φ(u)`, `u = (g - μ)/σ` (MATH.md, "Pandora's Box Gittins index"; PBGI paper,
/// Prop. 3, sign-flipped; implicit differentiation of `σ·h(u) = c`).
///
/// # Domain
/// As [`crate::pbgi`]: `mu` finite, `sigma ≥ 0` finite, `cost > 0` finite, else
/// [`Error::InvalidInput`]. `σ = 0` (`g = μ + c`): `(1, 0, 1)` exactly, `∂g/∂σ` being the
/// one-sided derivative from `σ > 0` (`g = μ + c - σ·h(-u)`, `h(-u) → 0`). `u` depends on
/// `c/σ` only and is found from it directly (never as `(g - μ)/σ`). `∂g/∂c` grows like
/// `e^(u²/2)` as `c/σ → 0` (about `1e600` at `c/σ = 2^-2098`; `+inf` in f64 there).
/// `pbgi_fast::pbgi_grad` follows the same conventions.
///
/// # Accuracy
/// Each field certified and correctly rounded (0 ULP); against mpmath in
/// `tests/mpmath_data.rs`, against central differences of [`crate::pbgi`] in
/// `tests/gradients.rs`. Costs one certified PBGI solve of `u` at `p + 2·log2|u|` bits per
/// working precision `p` of the Ziv loop.
pub fn pbgi_grad(mu: f64, sigma: f64, cost: f64) -> Result<PbgiGradient, Error> {
    pbgi_grad_with(mu, sigma, cost, &Accuracy::default())
}

/// [`pbgi_grad`] with an explicit precision policy.
pub fn pbgi_grad_with(
    mu: f64,
    sigma: f64,
    cost: f64,
    acc: &Accuracy,
) -> Result<PbgiGradient, Error> {
    const NAME: &str = "pbgi_grad";
    finite("mu", mu)?;
    let sigma = non_negative("sigma", sigma)?;
    let cost = positive("cost", cost)?;
    widen_exponent_range();
    let one = || exactly(NAME, Float::with_val(53, 1), acc);
    if sigma == 0.0 {
        return Ok(PbgiGradient {
            d_mu: one()?,
            d_sigma: exactly(NAME, Float::with_val(53, 0), acc)?,
            d_cost: one()?,
        });
    }
    // The relative error of u is amplified by about u² in φ(u) (u ≫ 0) and in 1/Φ(u) (u ≪ 0,
    // |u| ≤ 55): carry 2·log2|u| more bits (|u| ≈ c/σ when large; beyond 2^34, φ(u) is below
    // MPFR's range and needs no relative accuracy).
    let log2_ratio = log2_abs(&exact(cost)) - log2_abs(&exact(sigma));
    let guard = 2 * log2_ratio.clamp(6, 34) as u32 + 16;
    // u's enclosure per working precision, shared by both fields.
    let solved: std::cell::RefCell<Vec<(u32, Interval)>> = Default::default();
    let index = |p: u32| -> Result<Interval, Error> {
        if let Some((_, u)) = solved.borrow().iter().find(|(q, _)| *q == p) {
            return Ok(u.clone());
        }
        let u = standardized_index(NAME, sigma, cost, p + guard, acc)?;
        solved.borrow_mut().push((p, u.clone()));
        Ok(u)
    };
    // Both fields are decreasing in u: each end of u's enclosure bounds one end of each field.
    let field = |second: bool| -> Result<Certified, Error> {
        let mut failure = None;
        let certified = ziv(NAME, acc, |p| match index(p) {
            Ok(u) => {
                let at = |v: &Float| {
                    let (a, b) = index_ratios(v, p);
                    if second {
                        b
                    } else {
                        a
                    }
                };
                Interval {
                    lo: at(&u.hi).lo,
                    hi: at(&u.lo).hi,
                }
                .into()
            }
            Err(e) => {
                failure = Some(e);
                // An unbounded enclosure never certifies: the loop ends at the cap.
                Interval {
                    lo: Float::with_val(53, f64::NEG_INFINITY),
                    hi: Float::with_val(53, f64::INFINITY),
                }
                .into()
            }
        });
        certified.map_err(|e| failure.unwrap_or(e))
    };
    Ok(PbgiGradient {
        d_mu: one()?,
        d_sigma: field(false).map(negated)?,
        d_cost: field(true)?,
    })
}
