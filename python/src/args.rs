//! Elementwise arguments after broadcasting.
//!
//! The Python layer (`pbgi/_broadcast.py`) brings every argument to one of two forms: a single
//! value shared by every element, or a contiguous 1-D float64 array with one value per element
//! (a view of the caller's array, not a copy, when it already has the broadcast shape and is
//! C-contiguous float64). Here each becomes an [`Arg`], so a scalar threshold never costs an
//! array of copies.
use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// One argument of an elementwise function: one value for all elements, or one per element.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// The same value at every element.
    All(f64),
    /// One value per element (length `n`).
    Each(&'a [f64]),
}

impl Arg<'_> {
    /// The argument at element `i`.
    #[inline(always)]
    pub fn at(self, i: usize) -> f64 {
        match self {
            Arg::All(x) => x,
            Arg::Each(xs) => xs[i],
        }
    }
}

/// Views `array` as the argument `name` of an `n`-element call: length 1 (shared) or `n`.
///
/// # Errors
/// `ValueError` for any other length or a non-contiguous array (the Python layer never passes
/// one; this guards the private module against direct use).
pub fn arg<'a>(name: &str, array: &'a PyReadonlyArray1<'_, f64>, n: usize) -> PyResult<Arg<'a>> {
    let values = array
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: array is not contiguous")))?;
    match values.len() {
        1 => Ok(Arg::All(values[0])),
        len if len == n => Ok(Arg::Each(values)),
        len => Err(PyValueError::new_err(format!(
            "{name}: {len} elements, expected 1 or {n}"
        ))),
    }
}
