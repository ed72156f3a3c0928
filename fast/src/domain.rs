//! The error type of the configuration functions (schedules, budgets, the stopping helper):
//! the hot numerical functions return NaN instead (documented per function).

/// An argument outside its domain: which one, its value, and what was wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct DomainError {
    /// Argument name (`"beta"`, `"budget"`, ...).
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
