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

    /// The stopping rule triggered: `λ ← λ/β`. Returns the new `λ` (it stays `> 0`: once it
    /// would underflow it remains at the smallest positive value reached).
    pub fn on_stop_signal(&mut self) -> f64 {
        let next = self.lambda / self.beta;
        if next > 0.0 {
            self.lambda = next;
        }
        self.lambda
    }

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
/// # Errors
/// Any argument NaN or infinite; `u ≤ 0`; `first_cost < 0`; `budget ≤ first_cost`.
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
    Ok(u / (b - c))
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
