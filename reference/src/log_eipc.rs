//! `LogEIPC = ln EI - ln c` with a known cost and with log-normal costs (MATH.md, "Expected
//! improvement" and "Unknown (log-normal) costs"; stopping paper, eqs. 4, 13, 14).

use crate::arith::mpfr::widen_exponent_range;
use crate::certified::{Accuracy, Certified, Error};
use crate::certify::exact;
use crate::ei::exact_difference;
use crate::input::{finite, non_negative, positive};
use crate::log_ei::{check_ei_args, log_ei_core, log_enclosure, LnCost};
use std::cmp::Ordering;

/// Certified sign of `LogEIPC(μ, σ, y, c)` from its own enclosure (raising the precision until
/// the enclosure is the point 0 or excludes 0, counting an open lower end at 0 as positive).
/// Arguments already validated.
pub(crate) fn log_eipc_sign(
    mu: f64,
    sigma: f64,
    y: f64,
    cost: f64,
    acc: &Accuracy,
) -> Result<Ordering, Error> {
    widen_exponent_range();
    let d = exact_difference(y, mu);
    let (sigma, cost) = (exact(sigma), Some(LnCost::Exact(exact(cost))));
    let mut p = acc.start_bits.max(32).min(acc.max_bits.max(32));
    loop {
        let e = log_enclosure(&d, &sigma, &cost, p);
        if e.iv.lo > 0 || (e.iv.lo == 0 && e.lower_open && e.iv.hi > 0) {
            return Ok(Ordering::Greater);
        }
        if e.iv.hi < 0 {
            return Ok(Ordering::Less);
        }
        if e.iv.lo == 0 && e.iv.hi == 0 {
            return Ok(Ordering::Equal);
        }
        if p >= acc.max_bits {
            return Err(Error::PrecisionExhausted {
                function: "stop_decision",
                max_bits: acc.max_bits,
            });
        }
        p = p.saturating_mul(2).min(acc.max_bits);
    }
}

/// `LogEIPC(μ, σ, y, c) = ln EI(μ, σ; y) - ln c` [stopping paper, eq. 4].
///
/// # Domain
/// As [`log_ei`](crate::log_ei()), and `cost > 0` finite. `-inf` where `EI = 0`. With `σ = 0` and `y - μ = c`
/// the result is exactly `0`.
///
/// # Accuracy
/// Certified enclosure, `value` correctly rounded; against mpmath in `tests/mpmath_data.rs`.
///
/// # Example
/// `σ = 0` and `y - μ = c` give exactly `0`; `LogEIPC(0, 1, 0, 1) = ln h(0) = -ln √(2π)`
/// (closed form), correctly rounded:
/// ```
/// use pbgi_reference::log_eipc;
/// assert_eq!(log_eipc(0.0, 0.0, 2.0, 2.0).unwrap().value, 0.0);
/// assert_eq!(log_eipc(0.0, 1.0, 0.0, 1.0).unwrap().value, -0.9189385332046728);
/// ```
pub fn log_eipc(mu: f64, sigma: f64, y: f64, cost: f64) -> Result<Certified, Error> {
    log_eipc_with(mu, sigma, y, cost, &Accuracy::default())
}

/// [`log_eipc`] with an explicit precision policy.
pub fn log_eipc_with(
    mu: f64,
    sigma: f64,
    y: f64,
    cost: f64,
    acc: &Accuracy,
) -> Result<Certified, Error> {
    check_ei_args(mu, sigma, y)?;
    positive("cost", cost)?;
    log_ei_core(
        "log_eipc",
        mu,
        sigma,
        y,
        Some(LnCost::Exact(exact(cost))),
        acc,
    )
}

/// LogEIPC-inv: `ln EI - ln c̃` with `c̃ = E[1/c]⁻¹ = exp(m - s²/2)` for `ln c ~ N(m, s²)`
/// [stopping paper, eq. 13]. `ln c̃ = m - s²/2` is enclosed directly, never rounded to f64.
///
/// # Domain
/// As [`log_ei`](crate::log_ei()); `m` finite, `s ≥ 0` finite.
///
/// # Accuracy
/// Certified enclosure, `value` correctly rounded; against mpmath in `tests/mpmath_data.rs`,
/// exact cases (`m = s = 0`, `m - s²/2 = 0`) in `tests/exact_cases.rs`.
pub fn log_eipc_inv(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> Result<Certified, Error> {
    log_eipc_inv_with(mu, sigma, y, m, s, &Accuracy::default())
}

/// [`log_eipc_inv`] with an explicit precision policy.
pub fn log_eipc_inv_with(
    mu: f64,
    sigma: f64,
    y: f64,
    m: f64,
    s: f64,
    acc: &Accuracy,
) -> Result<Certified, Error> {
    check_ei_args(mu, sigma, y)?;
    finite("m", m)?;
    non_negative("s", s)?;
    log_ei_core(
        "log_eipc_inv",
        mu,
        sigma,
        y,
        Some(LnCost::LogNormal { m, s, sign: -1 }),
        acc,
    )
}

/// LogEIPC-exp: `ln EI - ln E[c]`, `E[c] = exp(m + s²/2)` for `ln c ~ N(m, s²)`
/// [stopping paper, eq. 14]. The form for which the stopping rule matches PBGI.
///
/// # Domain
/// As [`log_ei`](crate::log_ei()); `m` finite, `s ≥ 0` finite.
///
/// # Accuracy
/// Certified enclosure, `value` correctly rounded; against mpmath in `tests/mpmath_data.rs`.
pub fn log_eipc_exp(mu: f64, sigma: f64, y: f64, m: f64, s: f64) -> Result<Certified, Error> {
    log_eipc_exp_with(mu, sigma, y, m, s, &Accuracy::default())
}

/// [`log_eipc_exp`] with an explicit precision policy.
pub fn log_eipc_exp_with(
    mu: f64,
    sigma: f64,
    y: f64,
    m: f64,
    s: f64,
    acc: &Accuracy,
) -> Result<Certified, Error> {
    check_ei_args(mu, sigma, y)?;
    finite("m", m)?;
    non_negative("s", s)?;
    log_ei_core(
        "log_eipc_exp",
        mu,
        sigma,
        y,
        Some(LnCost::LogNormal { m, s, sign: 1 }),
        acc,
    )
}
