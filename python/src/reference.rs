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

pyo3::create_exception!(
    _pbgi,
    InvalidInput,
    PyValueError,
    "An argument is outside the function's domain (NaN, infinite, sigma < 0, cost <= 0)."
);
pyo3::create_exception!(
    _pbgi,
    NotDifferentiable,
    PyValueError,
    "The derivative does not exist at this point (EI's gradient at sigma = 0, y = mu)."
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
        PyArray1::from_iter(py, self.certified.iter().map(Certified::lower_f64))
    }

    /// The upper ends of the enclosures, rounded toward +∞ to f64.
    fn upper<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_iter(py, self.certified.iter().map(Certified::upper_f64))
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
    if let Some((position, element, message)) = first_domain_error(function, args, n) {
        return Err(InvalidInput::new_err((position, element, message)));
    }
    let row = |i: usize| -> Vec<f64> { args.iter().map(|a| a.at(i)).collect() };
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

/// Evaluates a reference gradient with `K` certified fields at every element, after the domain
/// check `domain` (the first bad element's `(argument position, message)`, or `None`). The
/// gradient is called directly (the same `pbgi_reference` function `pbgi eval` calls), so that
/// a point where the derivative does not exist is reported as such.
fn evaluate_fields<const K: usize>(
    py: Python<'_>,
    args: &[Arg<'_>],
    n: usize,
    domain: impl Fn(&[f64]) -> Option<(usize, String)>,
    f: impl Fn(&[f64]) -> Result<[Certified; K], pbgi_reference::Error> + Sync,
) -> PyResult<Vec<Enclosures>> {
    let row = |i: usize| -> Vec<f64> { args.iter().map(|a| a.at(i)).collect() };
    if let Some((i, (position, message))) = (0..n).find_map(|i| domain(&row(i)).map(|e| (i, e))) {
        return Err(InvalidInput::new_err((position, i, message)));
    }
    let results: Vec<Result<[Certified; K], pbgi_reference::Error>> = py.detach(|| {
        let one = |i: usize| f(&row(i));
        if n >= PARALLEL_MIN {
            (0..n).into_par_iter().map(one).collect()
        } else {
            (0..n).map(one).collect()
        }
    });
    let mut columns: Vec<Vec<Certified>> = (0..K).map(|_| Vec::with_capacity(n)).collect();
    for (i, result) in results.into_iter().enumerate() {
        match result {
            Ok(fields) => {
                for (column, c) in columns.iter_mut().zip(fields) {
                    column.push(c);
                }
            }
            Err(e @ pbgi_reference::Error::NotDifferentiable { .. }) => {
                return Err(NotDifferentiable::new_err((i, e.to_string())))
            }
            Err(e) => return Err(NotCertified::new_err((i, e.to_string()))),
        }
    }
    Ok(columns
        .into_iter()
        .map(|certified| Enclosures { certified })
        .collect())
}

/// `pbgi_reference::log_ndtr` elementwise.
#[pyfunction]
pub fn reference_log_ndtr(py: Python<'_>, x: PyReadonlyArray1<'_, f64>) -> PyResult<Enclosures> {
    let n = length(&[&x]);
    evaluate(py, Function::LogNdtr, &[arg("x", &x, n)?], n)
}

/// The gradient of EI (`log = false`) or LogEI elementwise: `(d_mu, d_sigma)`.
fn ei_gradient(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    grad: fn(f64, f64, f64) -> Result<pbgi_reference::EiGradient, pbgi_reference::Error>,
) -> PyResult<Vec<Enclosures>> {
    let n = length(&[&mu, &sigma, &y]);
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
    ];
    let domain = |a: &[f64]| Function::EiGrad.check_domain(a).err();
    evaluate_fields(py, &args, n, domain, |a| {
        let g = grad(a[0], a[1], a[2])?;
        Ok([g.d_mu, g.d_sigma])
    })
}

/// `pbgi_reference::ei_grad` elementwise: `[d_mu, d_sigma]`.
#[pyfunction]
pub fn reference_ei_grad(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
) -> PyResult<Vec<Enclosures>> {
    ei_gradient(py, mu, sigma, y, pbgi_reference::ei_grad)
}

/// `pbgi_reference::log_ei_grad` elementwise: `[d_mu, d_sigma]`.
#[pyfunction]
pub fn reference_log_ei_grad(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
) -> PyResult<Vec<Enclosures>> {
    ei_gradient(py, mu, sigma, y, pbgi_reference::log_ei_grad)
}

/// `pbgi_reference::pbgi_grad` elementwise: `[d_mu, d_sigma, d_cost]`.
#[pyfunction]
pub fn reference_pbgi_grad(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    cost: PyReadonlyArray1<'_, f64>,
) -> PyResult<Vec<Enclosures>> {
    let n = length(&[&mu, &sigma, &cost]);
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("cost", &cost, n)?,
    ];
    let domain = |a: &[f64]| Function::PbgiGrad.check_domain(a).err();
    evaluate_fields(py, &args, n, domain, |a| {
        let g = pbgi_reference::pbgi_grad(a[0], a[1], a[2])?;
        Ok([g.d_mu, g.d_sigma, g.d_cost])
    })
}
