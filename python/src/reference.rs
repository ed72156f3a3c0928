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
use pbgi_conformance::decimal;
use pbgi_conformance::function::{ArgumentError, Function};
use pbgi_conformance::oracle::{self, OracleError};
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
    if let Some(error) = first_domain_error(function, args, n) {
        return Err(invalid_input(error));
    }
    let row = |i: usize| -> Vec<f64> { args.iter().map(|a| a.at(i)).collect() };
    let results: Vec<Result<Certified, OracleError>> = py.detach(|| {
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
            Err(OracleError::Argument(e)) => return Err(invalid_input(e.at_element(i))),
            Err(OracleError::Failed(message)) => return Err(NotCertified::new_err((i, message))),
        }
    }
    Ok(Enclosures { certified })
}

/// `InvalidInput(argument position, element index, message)` for an argument error of a
/// vectorised call (the element is always known here; 0 if not).
pub fn invalid_input(error: ArgumentError) -> PyErr {
    InvalidInput::new_err((error.position, error.element.unwrap_or(0), error.message))
}

/// The first element (in order) with an argument outside `function`'s domain, with its
/// argument (position and name) and element (the CLI's domain check, one cheap pass).
pub fn first_domain_error(function: Function, args: &[Arg<'_>], n: usize) -> Option<ArgumentError> {
    let mut row = vec![0.0; args.len()];
    (0..n).find_map(|i| {
        for (slot, a) in row.iter_mut().zip(args) {
            *slot = a.at(i);
        }
        function.check_domain(&row).err().map(|e| e.at_element(i))
    })
}

/// The number of elements of a call: the longest argument (the others have length 1 or it).
fn length(arrays: &[&PyReadonlyArray1<'_, f64>]) -> usize {
    arrays.iter().map(|a| a.as_array().len()).max().unwrap_or(0)
}

/// Evaluates a reference gradient with `K` certified fields at every element, after
/// `function`'s domain check. The gradient is called directly (the same `pbgi_reference`
/// function `pbgi eval` calls), so that a point where the derivative does not exist is
/// reported as such.
fn evaluate_fields<const A: usize, const K: usize>(
    py: Python<'_>,
    function: Function,
    args: &[Arg<'_>; A],
    n: usize,
    f: impl Fn([f64; A]) -> Result<[Certified; K], pbgi_reference::Error> + Sync,
) -> PyResult<Vec<Enclosures>> {
    if let Some(error) = first_domain_error(function, args, n) {
        return Err(invalid_input(error));
    }
    let row = |i: usize| -> [f64; A] { std::array::from_fn(|k| args[k].at(i)) };
    let results: Vec<Result<[Certified; K], pbgi_reference::Error>> = py.detach(|| {
        let one = |i: usize| f(row(i));
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

/// The value functions: `reference_NAME(py, ARGS...)` evaluates [`Function`] `FUNCTION` at
/// every element (through [`evaluate`], the oracle's call), one line each:
/// `reference_NAME => FUNCTION(ARGS...);`. Also writes `add_values`, which registers them.
macro_rules! reference_values {
    ($($(#[$doc:meta])* $name:ident => $function:ident($($a:ident),+);)+) => {
        $(
            $(#[$doc])*
            #[pyfunction]
            pub fn $name(py: Python<'_>, $($a: PyReadonlyArray1<'_, f64>),+) -> PyResult<Enclosures> {
                let n = length(&[$(&$a),+]);
                evaluate(py, Function::$function, &[$(arg(stringify!($a), &$a, n)?),+], n)
            }
        )+

        /// Adds the value functions to the module.
        pub fn add_values(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)+
            Ok(())
        }
    };
}

/// The gradients: `reference_NAME(py, ARGS...)` calls `pbgi_reference::GRAD` at every element
/// after [`Function`] `FUNCTION`'s domain check (through [`evaluate_fields`]) and returns one
/// [`Enclosures`] per field, one line each:
/// `reference_NAME => FUNCTION, GRAD(ARGS...) -> [FIELDS...];`. Also writes `add_gradients`.
macro_rules! reference_gradients {
    ($($(#[$doc:meta])* $name:ident => $function:ident, $grad:ident($($a:ident),+) -> [$($field:ident),+];)+) => {
        $(
            $(#[$doc])*
            #[pyfunction]
            pub fn $name(py: Python<'_>, $($a: PyReadonlyArray1<'_, f64>),+) -> PyResult<Vec<Enclosures>> {
                let n = length(&[$(&$a),+]);
                let args = [$(arg(stringify!($a), &$a, n)?),+];
                evaluate_fields(py, Function::$function, &args, n, |[$($a),+]| {
                    let g = pbgi_reference::$grad($($a),+)?;
                    Ok([$(g.$field),+])
                })
            }
        )+

        /// Adds the gradients to the module.
        pub fn add_gradients(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)+
            Ok(())
        }
    };
}

reference_values! {
    /// `pbgi_reference::h` elementwise.
    reference_h => H(z);
    /// `pbgi_reference::ln_h` elementwise.
    reference_ln_h => LnH(z);
    /// `pbgi_reference::ei` elementwise.
    reference_ei => Ei(mu, sigma, y);
    /// `pbgi_reference::log_ei` elementwise.
    reference_log_ei => LogEi(mu, sigma, y);
    /// `pbgi_reference::pbgi` elementwise.
    reference_pbgi => Pbgi(mu, sigma, cost);
    /// `pbgi_reference::log_eipc` elementwise.
    reference_log_eipc => LogEipc(mu, sigma, y, cost);
    /// `pbgi_reference::log_ndtr` elementwise.
    reference_log_ndtr => LogNdtr(x);
}

reference_gradients! {
    /// `pbgi_reference::ei_grad` elementwise: `[d_mu, d_sigma]`.
    reference_ei_grad => EiGrad, ei_grad(mu, sigma, y) -> [d_mu, d_sigma];
    /// `pbgi_reference::log_ei_grad` elementwise: `[d_mu, d_sigma]`.
    reference_log_ei_grad => LogEiGrad, log_ei_grad(mu, sigma, y) -> [d_mu, d_sigma];
    /// `pbgi_reference::pbgi_grad` elementwise: `[d_mu, d_sigma, d_cost]`.
    reference_pbgi_grad => PbgiGrad, pbgi_grad(mu, sigma, cost) -> [d_mu, d_sigma, d_cost];
}
