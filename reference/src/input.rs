//! Input validation: every public entry point checks its arguments here first.

use crate::certified::Error;

/// A finite f64.
pub(crate) fn finite(name: &'static str, value: f64) -> Result<f64, Error> {
    if value.is_nan() {
        Err(Error::InvalidInput {
            name,
            value,
            reason: "is NaN",
        })
    } else if value.is_infinite() {
        Err(Error::InvalidInput {
            name,
            value,
            reason: "is infinite",
        })
    } else {
        Ok(value)
    }
}

/// A finite f64 `≥ 0` (a standard deviation).
pub(crate) fn non_negative(name: &'static str, value: f64) -> Result<f64, Error> {
    finite(name, value)?;
    if value < 0.0 {
        Err(Error::InvalidInput {
            name,
            value,
            reason: "is negative",
        })
    } else {
        Ok(value)
    }
}

/// A finite f64 `> 0` (a cost).
pub(crate) fn positive(name: &'static str, value: f64) -> Result<f64, Error> {
    finite(name, value)?;
    if value <= 0.0 {
        Err(Error::InvalidInput {
            name,
            value,
            reason: "is not positive",
        })
    } else {
        Ok(value)
    }
}
