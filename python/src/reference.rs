//! `pbgi.reference`: the certified reference over numpy arrays.
//!
//! Every element goes through the same call as `pbgi eval` (`pbgi_conformance::oracle`), so the
//! values agree bit for bit with the CLI and its decimal enclosures are the same strings. Inputs
//! are checked first (one cheap pass, the CLI's domain check), so a bad element is reported
//! before any expensive evaluation. The evaluation releases the GIL and spreads large arrays
//! over rayon's threads; each element is computed independently, so results do not depend on
//! the number of threads. The evaluation runs in chunks with a check for signals between them
//! (`crate::interrupt`), so Ctrl-C stops a long call within about 50 ms.
use crate::args::{arg, Arg};
use crate::interrupt::in_chunks;
use numpy::{PyArray1, PyReadonlyArray1};
use pbgi_conformance::decimal;
use pbgi_conformance::function::{ArgumentError, Function};
use pbgi_conformance::oracle::{self, OracleError};
use pbgi_reference::{Certified, Float};
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
    /// (the strings of `pbgi eval`'s `lower` and `upper` columns when `digits = 40`);
    /// `1 <= digits <=` [`MAX_DECIMAL_DIGITS`].
    fn decimals(&self, py: Python<'_>, digits: i64) -> PyResult<(Vec<String>, Vec<String>)> {
        let digits = decimal_digits(digits)?;
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

    /// Pickling: `(enclosures_from_state, (state,))`, the state one `(value, lower, upper)` per
    /// element with the ends as exact text ([`end_text`]).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (Vec<State>,))> {
        let restore = py.import("pbgi._pbgi")?.getattr("enclosures_from_state")?;
        let state = self
            .certified
            .iter()
            .map(|c| (c.value, end_text(&c.lower), end_text(&c.upper)))
            .collect();
        Ok((restore, (state,)))
    }
}

/// One pickled element: the value and the two ends as [`end_text`].
type State = (f64, String, String);

/// An enclosure's end as exact text: `PRECISION:MANTISSA:EXPONENT` for the number
/// `MANTISSA·2^EXPONENT` (the significand as a signed hexadecimal integer, MPFR's
/// `mpfr_get_z_2exp`, exponent in any range: `EI(0, 1; -1e8)`'s ends are near `2^-7.2e15`),
/// or `PRECISION:0`, `PRECISION:-0`, `PRECISION:inf`, `PRECISION:-inf`.
fn end_text(x: &Float) -> String {
    let prec = x.prec();
    if x.is_infinite() || x.is_zero() {
        let sign = if x.is_sign_negative() { "-" } else { "" };
        let what = if x.is_zero() { "0" } else { "inf" };
        return format!("{prec}:{sign}{what}");
    }
    let mut mantissa = rug::Integer::new();
    // SAFETY: `mantissa` and `x` are valid, initialised MPFR/GMP objects; `x` is a regular
    // number (not NaN, inf or zero), for which `mpfr_get_z_2exp` is exact and has no flags.
    let exponent = unsafe { gmp_mpfr_sys::mpfr::get_z_2exp(mantissa.as_raw_mut(), x.as_raw()) };
    format!("{prec}:{}:{exponent}", mantissa.to_string_radix(16))
}

/// [`end_text`] read back (`None` for anything [`end_text`] would not write).
fn end_from_text(text: &str) -> Option<Float> {
    let (prec, rest) = text.split_once(':')?;
    let prec: u32 = prec.parse().ok()?;
    if !(rug::float::prec_min()..=rug::float::prec_max()).contains(&prec) {
        return None;
    }
    let x = match rest {
        "0" => Float::with_val(prec, 0.0),
        "-0" => Float::with_val(prec, -0.0),
        "inf" => Float::with_val(prec, f64::INFINITY),
        "-inf" => Float::with_val(prec, f64::NEG_INFINITY),
        _ => {
            let (mantissa, exponent) = rest.split_once(':')?;
            let mantissa = rug::Integer::from_str_radix(mantissa, 16).ok()?;
            let exponent: isize = exponent.parse().ok()?;
            // Exact when the mantissa fits in `prec` bits and the result in MPFR's (widened)
            // exponent range; otherwise the text below differs and the state is refused.
            Float::with_val(prec, &mantissa) << exponent
        }
    };
    (end_text(&x) == text).then_some(x)
}

/// The `Enclosures` of a pickled state ([`Enclosures::__reduce__`]).
///
/// # Errors
/// `ValueError` for an end that is not exact text of this form, a NaN value, or
/// `lower > upper`.
#[pyfunction]
pub fn enclosures_from_state(state: Vec<State>) -> PyResult<Enclosures> {
    // As every reference entry point does first: an end such as `EI(0, 1; -1e5)`'s (about
    // `2^-7.2e9`) reads back only within MPFR's widest exponent range.
    pbgi_reference::widen_exponent_range();
    let certified = state
        .into_iter()
        .enumerate()
        .map(|(i, (value, lower, upper))| {
            let bad = || PyValueError::new_err(format!("pickled enclosure {i}: not a valid state"));
            let lower = end_from_text(&lower).ok_or_else(bad)?;
            let upper = end_from_text(&upper).ok_or_else(bad)?;
            if value.is_nan() || lower > upper {
                return Err(bad());
            }
            Ok(Certified {
                value,
                lower,
                upper,
            })
        })
        .collect::<PyResult<_>>()?;
    Ok(Enclosures { certified })
}

/// The most significant digits `Certified.decimals` prints: more than any enclosure the
/// reference returns can resolve (its working precision is capped at 8192 bits, about 2466
/// digits; `pbgi_reference::Accuracy::default`), and few enough that a call is fast (about
/// 1 ms per end) and small (10 kB per end).
pub const MAX_DECIMAL_DIGITS: i64 = 10_000;

/// `digits` checked against `1..=MAX_DECIMAL_DIGITS`.
fn decimal_digits(digits: i64) -> PyResult<usize> {
    if (1..=MAX_DECIMAL_DIGITS).contains(&digits) {
        Ok(digits as usize)
    } else {
        Err(PyValueError::new_err(format!(
            "digits: must be an int from 1 to {MAX_DECIMAL_DIGITS}, got {digits}"
        )))
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
    let mut certified = Vec::with_capacity(n);
    let done = in_chunks(py, n, |range| {
        let one = |i: usize| oracle::reference(function, &row(i)).map_err(|e| (i, e));
        let chunk: Result<Vec<Certified>, _> = if range.len() >= PARALLEL_MIN {
            range.into_par_iter().map(one).collect()
        } else {
            range.map(one).collect()
        };
        certified.extend(chunk?);
        Ok(())
    })?;
    match done {
        Ok(()) => Ok(Enclosures { certified }),
        Err((i, OracleError::Argument(e))) => Err(invalid_input(e.at_element(i))),
        Err((i, OracleError::Failed(message))) => Err(NotCertified::new_err((i, message))),
    }
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
    let mut columns: Vec<Vec<Certified>> = (0..K).map(|_| Vec::with_capacity(n)).collect();
    let done = in_chunks(py, n, |range| {
        let one = |i: usize| f(row(i)).map_err(|e| (i, e));
        let chunk: Result<Vec<[Certified; K]>, _> = if range.len() >= PARALLEL_MIN {
            range.into_par_iter().map(one).collect()
        } else {
            range.map(one).collect()
        };
        for fields in chunk? {
            for (column, c) in columns.iter_mut().zip(fields) {
                column.push(c);
            }
        }
        Ok(())
    })?;
    match done {
        Ok(()) => {}
        Err((i, e @ pbgi_reference::Error::NotDifferentiable { .. })) => {
            return Err(NotDifferentiable::new_err((i, e.to_string())))
        }
        Err((i, e)) => return Err(NotCertified::new_err((i, e.to_string()))),
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
