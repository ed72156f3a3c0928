//! `pbgi.reference`: the certified reference over numpy arrays.
//!
//! Every element goes through the same call as `pbgi eval` (`pbgi_conformance::oracle`), so the
//! values agree bit for bit with the CLI and its decimal enclosures are the same strings. Inputs
//! are checked first (one cheap pass, the CLI's domain check), so a bad element is reported
//! before any expensive evaluation. The evaluation releases the GIL and spreads large arrays
//! over rayon's threads; each element is computed independently, so results do not depend on
//! the number of threads.
use crate::args::{arg, Arg};
use numpy::{PyArray1, PyReadonlyArray1};
use pbgi_conformance::function::Function;
use pbgi_conformance::{decimal, oracle};
use pbgi_reference::Certified;
use pyo3::exceptions::{PyArithmeticError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use rug::float::Round;

pyo3::create_exception!(
    _pbgi,
    InvalidInput,
    PyValueError,
    "An argument is outside the function's domain (NaN, infinite, sigma < 0, cost <= 0)."
);
pyo3::create_exception!(
    _pbgi,
    NotCertified,
    PyArithmeticError,
    "The reference could not certify a result within its precision cap (it never guesses)."
);

/// Below this many elements one thread does the work (a reference call costs 10 µs to 1 ms,
/// so larger arrays gain from every core).
const PARALLEL_MIN: usize = 8;

/// Certified results of one call, one per element.
#[pyclass(frozen, module = "pbgi._pbgi")]
pub struct Enclosures {
    certified: Vec<Certified>,
}

#[pymethods]
impl Enclosures {
    /// The correctly rounded values.
    fn value<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_iter(py, self.certified.iter().map(|c| c.value))
    }

    /// The lower ends of the enclosures, rounded toward −∞ to f64.
    fn lower<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_iter(py, self.certified.iter().map(lower_f64))
    }

    /// The upper ends of the enclosures, rounded toward +∞ to f64.
    fn upper<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_iter(py, self.certified.iter().map(upper_f64))
    }

    /// `(lower, upper)` as decimal strings with `digits` significant digits rounded outward
    /// (the strings of `pbgi eval`'s `lower` and `upper` columns when `digits = 40`).
    fn decimals(&self, py: Python<'_>, digits: usize) -> PyResult<(Vec<String>, Vec<String>)> {
        if digits == 0 {
            return Err(PyValueError::new_err("digits must be >= 1, got 0"));
        }
        Ok(py.detach(|| {
            self.certified
                .iter()
                .map(|c| (decimal::lower(c, digits), decimal::upper(c, digits)))
                .unzip()
        }))
    }

    fn __len__(&self) -> usize {
        self.certified.len()
    }
}

/// `lower` rounded toward −∞ to f64 (still a lower bound).
fn lower_f64(c: &Certified) -> f64 {
    c.lower.to_f64_round(Round::Down)
}

/// `upper` rounded toward +∞ to f64 (still an upper bound).
fn upper_f64(c: &Certified) -> f64 {
    c.upper.to_f64_round(Round::Up)
}

/// Evaluates `function` at every element of the broadcast arguments `args` (in
/// `function.input_columns()` order).
///
/// # Errors
/// `InvalidInput(argument position, element index, message)` for the first element (in order)
/// with an argument outside the domain; `NotCertified(element index, message)` when the
/// reference gives up.
fn evaluate(
    py: Python<'_>,
    function: Function,
    args: &[Arg<'_>],
    n: usize,
) -> PyResult<Enclosures> {
    let row = |i: usize| -> Vec<f64> { args.iter().map(|a| a.at(i)).collect() };
    for i in 0..n {
        if let Err((position, message)) = function.check_domain(&row(i)) {
            return Err(InvalidInput::new_err((position, i, message)));
        }
    }
    let results: Vec<Result<Certified, oracle::OracleError>> = py.detach(|| {
        let one = |i: usize| oracle::reference(function, &row(i));
        if n >= PARALLEL_MIN {
            (0..n).into_par_iter().map(one).collect()
        } else {
            (0..n).map(one).collect()
        }
    });
    let mut certified = Vec::with_capacity(n);
    for (i, result) in results.into_iter().enumerate() {
        match result {
            Ok(c) => certified.push(c),
            Err(e) => {
                return Err(match e.column {
                    Some(column) => {
                        let position = function
                            .input_columns()
                            .iter()
                            .position(|&c| c == column)
                            .unwrap_or(0);
                        InvalidInput::new_err((position, i, e.message))
                    }
                    None => NotCertified::new_err((i, e.message)),
                });
            }
        }
    }
    Ok(Enclosures { certified })
}

/// The first element (in order) with an argument outside `function`'s domain, as
/// `(argument position, element, message)` (the CLI's domain check, one cheap pass).
pub fn first_domain_error(
    function: Function,
    args: &[Arg<'_>],
    n: usize,
) -> Option<(usize, usize, String)> {
    let mut row = vec![0.0; args.len()];
    (0..n).find_map(|i| {
        for (slot, a) in row.iter_mut().zip(args) {
            *slot = a.at(i);
        }
        function
            .check_domain(&row)
            .err()
            .map(|(position, message)| (position, i, message))
    })
}

/// The number of elements of a call: the longest argument (the others have length 1 or it).
fn length(arrays: &[&PyReadonlyArray1<'_, f64>]) -> usize {
    arrays.iter().map(|a| a.as_array().len()).max().unwrap_or(0)
}

/// `pbgi_reference::h` elementwise.
#[pyfunction]
pub fn reference_h(py: Python<'_>, z: PyReadonlyArray1<'_, f64>) -> PyResult<Enclosures> {
    let n = length(&[&z]);
    evaluate(py, Function::H, &[arg("z", &z, n)?], n)
}

/// `pbgi_reference::ln_h` elementwise.
#[pyfunction]
pub fn reference_ln_h(py: Python<'_>, z: PyReadonlyArray1<'_, f64>) -> PyResult<Enclosures> {
    let n = length(&[&z]);
    evaluate(py, Function::LnH, &[arg("z", &z, n)?], n)
}

/// `pbgi_reference::ei` elementwise.
#[pyfunction]
pub fn reference_ei(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
) -> PyResult<Enclosures> {
    let n = length(&[&mu, &sigma, &y]);
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
    ];
    evaluate(py, Function::Ei, &args, n)
}

/// `pbgi_reference::log_ei` elementwise.
#[pyfunction]
pub fn reference_log_ei(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
) -> PyResult<Enclosures> {
    let n = length(&[&mu, &sigma, &y]);
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
    ];
    evaluate(py, Function::LogEi, &args, n)
}

/// `pbgi_reference::pbgi` elementwise.
#[pyfunction]
pub fn reference_pbgi(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    cost: PyReadonlyArray1<'_, f64>,
) -> PyResult<Enclosures> {
    let n = length(&[&mu, &sigma, &cost]);
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("cost", &cost, n)?,
    ];
    evaluate(py, Function::Pbgi, &args, n)
}

/// `pbgi_reference::log_eipc` elementwise.
#[pyfunction]
pub fn reference_log_eipc(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    cost: PyReadonlyArray1<'_, f64>,
) -> PyResult<Enclosures> {
    let n = length(&[&mu, &sigma, &y, &cost]);
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
        arg("cost", &cost, n)?,
    ];
    evaluate(py, Function::LogEipc, &args, n)
}
