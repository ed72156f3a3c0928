//! Cost scaling `λ` (MATH.md, "Cost scaling and PBGI-D"): the PBGI-D schedule and the
//! budget-derived scale of Theorem 1.
use crate::domain::{require, DomainError};

/// PBGI-D's `λ` schedule [PBGI paper]: start at `λ₀`, divide by `β > 1` each time the stopping
/// rule triggers (the run then continues with cheaper-looking costs `λ·c(x)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PbgiDSchedule {
    lambda0: f64,
    beta: f64,
    lambda: f64,
}

impl PbgiDSchedule {
    /// A schedule at `λ = λ₀`.
    ///
    /// # Errors
    /// `lambda0` not finite and `> 0`; `beta` not finite and `> 1`.
    pub fn new(lambda0: f64, beta: f64) -> Result<Self, DomainError> {
        let lambda0 = require(
            "lambda0",
            lambda0,
            lambda0 > 0.0 && lambda0.is_finite(),
            "must be finite and > 0",
        )?;
        let beta = require(
            "beta",
            beta,
            beta > 1.0 && beta.is_finite(),
            "must be finite and > 1",
        )?;
        Ok(PbgiDSchedule {
            lambda0,
            beta,
            lambda: lambda0,
        })
    }

    /// The paper's defaults: `λ₀ = 0.1`, `β = 2`.
    pub fn paper_defaults() -> Self {
        PbgiDSchedule {
            lambda0: 0.1,
            beta: 2.0,
            lambda: 0.1,
        }
    }

    /// The current `λ`.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// `λ₀`.
    pub fn lambda0(&self) -> f64 {
        self.lambda0
    }

    /// `β`.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The stopping rule triggered: `λ ← λ/β`, rounded to the nearest positive f64. Returns
    /// the new `λ`.
    ///
    /// `λ` never becomes 0 (a zero cost scale is outside every function's domain): a quotient
    /// that rounds to 0 is raised to the smallest positive f64, `2^-1074`
    /// ([`Self::LAMBDA_FLOOR`]), where `λ` then stays. So `λ` falls by a factor `β` (to the
    /// nearest f64) at every signal until it reaches the floor: `PbgiDSchedule(1e-300, 1e300)`
    /// goes to `2^-1074` at the first signal, not staying at `1e-300`. Among subnormals the
    /// nearest f64 to `λ/β` can be `λ` itself (`β < 2` and `λ` a few units of `2^-1074`); the
    /// costs `λ·c(x)` have lost their relative precision there already.
    pub fn on_stop_signal(&mut self) -> f64 {
        self.lambda = (self.lambda / self.beta).max(Self::LAMBDA_FLOOR);
        self.lambda
    }

    /// The smallest `λ` the schedule reaches: the smallest positive f64, `2^-1074`.
    pub const LAMBDA_FLOOR: f64 = f64::from_bits(1);

    /// Back to `λ₀`.
    pub fn reset(&mut self) {
        self.lambda = self.lambda0;
    }
}

/// The budget-derived cost scale `λ = U/(B - C)` suggested by Theorem 1 (MATH.md): with costs
/// `λ·c(x)`, Theorem 1 bounds the expected raw cost up to stopping by `C + U/λ`, which is `B`
/// for this `λ`.
///
/// `u = μ - E[min f] > 0` (expected total improvement available), `budget = B`,
/// `first_cost = C = c(x₁) ≥ 0`.
///
/// The result is `U/(B - C)` within 1.5 ulp (`B - C` rounded once, then the quotient), also
/// where `B - C` is subnormal, whenever the exact `λ` is a positive normal or subnormal f64. An
/// exact `λ` beyond f64's range is an error, not `∞` or `0`: neither is a cost scale.
///
/// # Errors
/// Any argument NaN or infinite; `u ≤ 0`; `first_cost < 0`; `budget ≤ first_cost`; `λ`
/// overflows f64 (reported against `u`, "U/(B - C) overflows f64") or underflows to 0
/// ("U/(B - C) underflows to 0").
pub fn budget_lambda(u: f64, budget: f64, first_cost: f64) -> Result<f64, DomainError> {
    let u = require("u", u, u > 0.0 && u.is_finite(), "must be finite and > 0")?;
    let c = require(
        "first_cost",
        first_cost,
        first_cost >= 0.0 && first_cost.is_finite(),
        "must be finite and >= 0",
    )?;
    let b = require(
        "budget",
        budget,
        budget.is_finite() && budget > c,
        "must be finite and > first_cost",
    )?;
    let lambda = u / (b - c);
    if lambda.is_infinite() {
        return Err(DomainError {
            name: "u",
            value: u,
            reason: "U/(B - C) overflows f64 (B - C is too small for this U)",
        });
    }
    if lambda == 0.0 {
        return Err(DomainError {
            name: "u",
            value: u,
            reason: "U/(B - C) underflows to 0 (B - C is too large for this U)",
        });
    }
    Ok(lambda)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pbgi_d_halves_lambda_per_signal() {
        let mut s = PbgiDSchedule::paper_defaults();
        assert_eq!(s.lambda(), 0.1);
        assert_eq!(s.on_stop_signal(), 0.05);
        assert_eq!(s.on_stop_signal(), 0.025);
        s.reset();
        assert_eq!(s.lambda(), 0.1);
    }

    #[test]
    fn schedule_rejects_beta_at_most_one() {
        assert_eq!(PbgiDSchedule::new(0.1, 1.0).unwrap_err().name, "beta");
        assert_eq!(PbgiDSchedule::new(0.0, 2.0).unwrap_err().name, "lambda0");
        assert_eq!(
            PbgiDSchedule::new(f64::NAN, 2.0).unwrap_err().name,
            "lambda0"
        );
    }

    #[test]
    fn pbgi_d_lambda_falls_to_the_floor_and_never_to_zero() {
        // λ₀/β underflows: λ goes to the floor at once instead of staying at λ₀.
        let mut s = PbgiDSchedule::new(1e-300, 1e300).unwrap();
        assert_eq!(s.on_stop_signal(), PbgiDSchedule::LAMBDA_FLOOR);
        assert_eq!(s.on_stop_signal(), PbgiDSchedule::LAMBDA_FLOOR);
        assert_eq!(PbgiDSchedule::LAMBDA_FLOOR, f64::from_bits(1));
        // Every (λ₀, β): λ falls strictly by the rounded factor until the floor, never below.
        for &(lambda0, beta) in &[(0.1, 2.0), (1e300, 3.0), (1.0, 1e10), (5e-324, 1.5)] {
            let mut s = PbgiDSchedule::new(lambda0, beta).unwrap();
            let mut lambda = lambda0;
            for _ in 0..2000 {
                let next = s.on_stop_signal();
                assert!(
                    next > 0.0 && next <= lambda,
                    "{lambda0} {beta}: {lambda} -> {next}"
                );
                let quotient = lambda / beta;
                assert!(next == quotient || (quotient == 0.0 && next == f64::from_bits(1)));
                lambda = next;
            }
            assert_eq!(lambda, f64::from_bits(1).max(lambda));
        }
    }

    #[test]
    fn budget_lambda_beyond_f64_is_an_error_not_inf_or_zero() {
        assert_eq!(budget_lambda(1e300, 1e-300, 0.0).unwrap_err().name, "u");
        assert_eq!(budget_lambda(1e-300, 1e300, 0.0).unwrap_err().name, "u");
        // Just inside: a subnormal and a huge λ are returned.
        assert_eq!(budget_lambda(1e-300, 1e-10, 0.0), Ok(1e-300 / 1e-10));
        assert_eq!(budget_lambda(1e-320, 2.0, 1.0), Ok(1e-320));
        assert_eq!(budget_lambda(1e300, 1e-7, 0.0), Ok(1e300 / 1e-7));
        // B - C subnormal: exact (Sterbenz), λ = U/(B - C).
        let (b, c) = (f64::from_bits(5), f64::from_bits(1));
        assert_eq!(budget_lambda(1e-300, b, c), Ok(1e-300 / f64::from_bits(4)));
    }

    #[test]
    fn budget_lambda_is_u_over_remaining_budget() {
        assert_eq!(budget_lambda(3.0, 7.0, 1.0), Ok(0.5));
        assert_eq!(budget_lambda(3.0, 1.0, 1.0).unwrap_err().name, "budget");
        assert_eq!(budget_lambda(-1.0, 7.0, 1.0).unwrap_err().name, "u");
        assert_eq!(
            budget_lambda(1.0, 7.0, f64::NAN).unwrap_err().name,
            "first_cost"
        );
    }
}
