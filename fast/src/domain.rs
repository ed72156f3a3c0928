//! The domain of every function in this crate, as one rule, and the error type of the
//! configuration functions (schedules, budgets, the stopping helper).
//!
//! The hot numerical functions return NaN (or a documented limit) outside the domain instead of
//! an error, so that they stay branch-light; callers that must reject bad input with a message
//! (a command line, a Python layer) check the arguments first with [`check_arguments`].

/// An argument outside its domain: which one, its value, and what was wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct DomainError {
    /// Argument name (`"sigma"`, `"cost"`, `"beta"`, ...).
    pub name: &'static str,
    /// The value given (as f64; counts are converted).
    pub value: f64,
    /// The condition it violates.
    pub reason: &'static str,
}

impl core::fmt::Display for DomainError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "invalid {} = {}: {}", self.name, self.value, self.reason)
    }
}

impl std::error::Error for DomainError {}

/// The one domain rule of the numerical functions, argument by argument (the reference,
/// `pbgi-reference`, has the same domain):
///
/// - every argument is a finite f64 (NaN and ±∞ are rejected);
/// - `sigma ≥ 0` (the posterior standard deviation; `σ = 0` is the exact limit of MATH.md);
/// - `cost > 0`;
/// - `s ≥ 0` (the standard deviation of a log-normal cost).
///
/// `mu`, `y`, `z`, `x` and `m` (and any other name) may be any finite number. Inside this
/// domain every function of the crate returns a result within its documented accuracy for
/// every combination of arguments, from subnormals to `f64::MAX`, with `±∞` where the exact
/// value overflows and `0` where it underflows (correctly rounded at the edges); outside it,
/// the function returns NaN or the documented limit. One exception, stated with the function:
/// [`crate::pbgi_small_cost`] also needs `cost ≤ sigma`.
///
/// # Errors
/// The first argument (in slice order) that breaks the rule, with its name and the reason.
pub fn check_arguments(args: &[(&'static str, f64)]) -> Result<(), DomainError> {
    for &(name, value) in args {
        check_argument(name, value)?;
    }
    Ok(())
}

/// [`check_arguments`] for one argument.
///
/// # Errors
/// `value` is NaN or infinite, or breaks the condition on `name` (`sigma ≥ 0`, `cost > 0`,
/// `s ≥ 0`).
pub fn check_argument(name: &'static str, value: f64) -> Result<(), DomainError> {
    let reason = if value.is_nan() {
        Some("must be a number, got NaN")
    } else if value.is_infinite() {
        Some("must be finite")
    } else {
        match name {
            "sigma" if value < 0.0 => Some("must be >= 0"),
            "cost" if value <= 0.0 => Some("must be > 0"),
            "s" if value < 0.0 => Some("must be >= 0"),
            _ => None,
        }
    };
    match reason {
        None => Ok(()),
        Some(reason) => Err(DomainError {
            name,
            value,
            reason,
        }),
    }
}

/// `Ok(v)` if `ok(v)`, else a [`DomainError`].
pub(crate) fn require(
    name: &'static str,
    value: f64,
    ok: bool,
    reason: &'static str,
) -> Result<f64, DomainError> {
    if ok {
        Ok(value)
    } else {
        Err(DomainError {
            name,
            value,
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_names_the_first_bad_argument() {
        assert_eq!(
            check_arguments(&[("mu", -1e308), ("sigma", 0.0), ("cost", 5e-324)]),
            Ok(())
        );
        let e = check_arguments(&[("mu", 0.0), ("sigma", -0.0 - 1e-300), ("cost", 0.0)]);
        assert_eq!(e.unwrap_err().name, "sigma");
        let e = check_arguments(&[("mu", 0.0), ("sigma", 1.0), ("cost", -0.0)]);
        assert_eq!(e.unwrap_err().reason, "must be > 0");
        assert_eq!(
            check_argument("y", f64::INFINITY).unwrap_err().reason,
            "must be finite"
        );
        assert_eq!(check_argument("m", f64::NAN).unwrap_err().name, "m");
        assert_eq!(
            check_argument("s", -1.0).unwrap_err().reason,
            "must be >= 0"
        );
        assert_eq!(check_argument("s", 0.0), Ok(()));
        assert_eq!(check_argument("sigma", -0.0), Ok(()));
    }
}
