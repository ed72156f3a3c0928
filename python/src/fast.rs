//! `pbgi.fast`: the `pbgi-fast` kernels over numpy arrays.
//!
//! Each function takes its (broadcast) arguments and a preallocated output array, releases the
//! GIL and runs one loop over the elements: no Python object per element, no copy of an input
//! that is already contiguous float64. Where the arguments have the shape of one of the crate's
//! slice kernels (`ei_slice`: arrays `mu`, `sigma`, one `y`; `pbgi_slice`: three arrays; ...),
//! that kernel does the whole array; any other broadcast pattern runs the scalar function per
//! element. Results are exactly `pbgi_fast`'s scalar functions either way (NaN for invalid
//! input, as documented there). The loops run in chunks with a check for signals between them
//! (`crate::interrupt`), so Ctrl-C stops a long call.
use crate::args::{arg, Arg};
use crate::interrupt::in_chunks;
use numpy::{PyReadonlyArray1, PyReadwriteArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::convert::Infallible;
use std::ops::Range;

/// The output array as a mutable slice (the Python layer passes a contiguous 1-D view).
fn out_slice<'a>(name: &str, out: &'a mut PyReadwriteArray1<'_, f64>) -> PyResult<&'a mut [f64]> {
    out.as_slice_mut()
        .map_err(|_| PyValueError::new_err(format!("{name}: array is not contiguous")))
}

/// `out[i] = f(args at i)` for every element, without the GIL, in chunks with a check for
/// signals between them (`crate::interrupt`). All-array arguments take the zipped loop (no
/// per-element branch on the argument kind).
fn map<const K: usize, F>(py: Python<'_>, args: [Arg<'_>; K], out: &mut [f64], f: F) -> PyResult<()>
where
    F: Fn([f64; K]) -> f64 + Send + Sync,
{
    let n = out.len();
    let each = all_each(&args);
    let Ok(()) = in_chunks(py, n, |range| {
        if let Some(slices) = each {
            for i in range {
                out[i] = f(std::array::from_fn(|k| slices[k][i]));
            }
        } else {
            for i in range {
                out[i] = f(std::array::from_fn(|k| args[k].at(i)));
            }
        }
        Ok::<(), Infallible>(())
    })?;
    Ok(())
}

/// One chunk of an argument of a slice kernel: the elements `range` of an array, or the one
/// value shared by all.
trait Part {
    fn part(self, range: Range<usize>) -> Self;
}

impl Part for &[f64] {
    fn part(self, range: Range<usize>) -> Self {
        &self[range]
    }
}

impl Part for f64 {
    fn part(self, _: Range<usize>) -> Self {
        self
    }
}

/// Runs one of the crate's slice kernels over the `n` elements without the GIL, in chunks with
/// a check for signals between them (`kernel(range)` does the elements `range`; the kernels are
/// elementwise, so chunks give the same bits). The lengths were checked by [`arg`], so the
/// kernel's length error cannot occur; it is reported rather than ignored all the same.
fn slice_kernel(
    py: Python<'_>,
    n: usize,
    kernel: impl FnMut(Range<usize>) -> Result<(), pbgi_fast::SliceLengthError> + Send,
) -> PyResult<()> {
    in_chunks(py, n, kernel)?.map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The slices when every argument has one value per element.
fn all_each<'a, const K: usize>(args: &[Arg<'a>; K]) -> Option<[&'a [f64]; K]> {
    let mut slices: [&[f64]; K] = [&[]; K];
    for (slot, a) in slices.iter_mut().zip(args) {
        match a {
            Arg::Each(xs) => *slot = xs,
            Arg::All(_) => return None,
        }
    }
    Some(slices)
}

/// `outs[j][i] = f(args at i)[j]` for every element and output, without the GIL, in chunks as
/// [`map`] (the gradients: value and partial derivatives at once).
fn map_fields<const K: usize, const M: usize, F>(
    py: Python<'_>,
    args: [Arg<'_>; K],
    outs: [&mut [f64]; M],
    f: F,
) -> PyResult<()>
where
    F: Fn([f64; K]) -> [f64; M] + Send + Sync,
{
    let mut outs = outs;
    let n = outs[0].len();
    let Ok(()) = in_chunks(py, n, |range| {
        for i in range {
            let fields = f(std::array::from_fn(|k| args[k].at(i)));
            for (out, field) in outs.iter_mut().zip(fields) {
                out[i] = field;
            }
        }
        Ok::<(), Infallible>(())
    })?;
    Ok(())
}

/// Checks that the output arrays have one length.
fn same_length(outs: &[&mut [f64]]) -> PyResult<()> {
    if outs.iter().any(|o| o.len() != outs[0].len()) {
        return Err(PyValueError::new_err("output arrays differ in length"));
    }
    Ok(())
}

/// The value functions: `fast_NAME(py, ARGS..., out)` writes `pbgi_fast::NAME` at every element
/// into `out`, one line each: `fast_NAME => NAME(ARGS...)`, and where the crate has a slice
/// kernel for one broadcast pattern, `, slice KERNEL[KIND BINDING, ...]` (`Each`: an array,
/// `All`: one value), which then does the whole array. Also writes `add_values`.
macro_rules! fast_values {
    ($($(#[$doc:meta])* $name:ident => $f:ident($($a:ident),+)
        $(, slice $kernel:ident[$($kind:ident $k:ident),+])?;)+) => {
        $(
            $(#[$doc])*
            #[pyfunction]
            pub fn $name(
                py: Python<'_>,
                $($a: PyReadonlyArray1<'_, f64>,)+
                mut out: PyReadwriteArray1<'_, f64>,
            ) -> PyResult<()> {
                let out = out_slice("out", &mut out)?;
                let n = out.len();
                let args = [$(arg(stringify!($a), &$a, n)?),+];
                $(
                    if let [$(Arg::$kind($k)),+] = args {
                        return slice_kernel(py, n, |r| {
                            pbgi_fast::$kernel($($k.part(r.clone()),)+ &mut out[r])
                        });
                    }
                )?
                map(py, args, out, |[$($a),+]| pbgi_fast::$f($($a),+))
            }
        )+

        /// Adds the value functions to the module.
        pub fn add_values(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)+
            Ok(())
        }
    };
}

/// The gradients: `fast_NAME(py, ARGS..., FIELDS...)` writes the fields of `pbgi_fast::NAME`
/// at every element into one output array each, one line each:
/// `fast_NAME => NAME(ARGS...) -> [FIELDS...];`. Also writes `add_gradients`.
macro_rules! fast_gradients {
    ($($(#[$doc:meta])* $name:ident => $f:ident($($a:ident),+) -> [$($field:ident),+];)+) => {
        $(
            $(#[$doc])*
            #[pyfunction]
            #[allow(clippy::too_many_arguments)]
            pub fn $name(
                py: Python<'_>,
                $($a: PyReadonlyArray1<'_, f64>,)+
                $(mut $field: PyReadwriteArray1<'_, f64>,)+
            ) -> PyResult<()> {
                let outs = [$(out_slice(stringify!($field), &mut $field)?),+];
                same_length(&outs)?;
                let n = outs[0].len();
                let args = [$(arg(stringify!($a), &$a, n)?),+];
                map_fields(py, args, outs, |[$($a),+]| {
                    let g = pbgi_fast::$f($($a),+);
                    [$(g.$field),+]
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

fast_values! {
    /// `pbgi_fast::h` elementwise.
    fast_h => h(z);
    /// `pbgi_fast::ln_h` elementwise.
    fast_ln_h => ln_h(z);
    /// `pbgi_fast::log_ndtr` elementwise.
    fast_log_ndtr => log_ndtr(x);
    /// `pbgi_fast::ei` elementwise.
    fast_ei => ei(mu, sigma, y), slice ei_slice[Each m, Each s, All y];
    /// `pbgi_fast::log_ei` elementwise.
    fast_log_ei => log_ei(mu, sigma, y), slice log_ei_slice[Each m, Each s, All y];
    /// `pbgi_fast::pbgi` elementwise.
    fast_pbgi => pbgi(mu, sigma, cost), slice pbgi_slice[Each m, Each s, Each c];
    /// `pbgi_fast::log_eipc` elementwise.
    fast_log_eipc => log_eipc(mu, sigma, y, cost),
        slice log_eipc_slice[Each m, Each s, All y, Each c];
}

fast_gradients! {
    /// `pbgi_fast::ei_grad` elementwise: fills `value`, `d_mu`, `d_sigma`.
    fast_ei_grad => ei_grad(mu, sigma, y) -> [value, d_mu, d_sigma];
    /// `pbgi_fast::log_ei_grad` elementwise: fills `value`, `d_mu`, `d_sigma`.
    fast_log_ei_grad => log_ei_grad(mu, sigma, y) -> [value, d_mu, d_sigma];
    /// `pbgi_fast::pbgi_grad` elementwise: fills `value`, `d_mu`, `d_sigma`, `d_cost`.
    fast_pbgi_grad => pbgi_grad(mu, sigma, cost) -> [value, d_mu, d_sigma, d_cost];
}
