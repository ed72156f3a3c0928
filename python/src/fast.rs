//! `pbgi.fast`: the `pbgi-fast` kernels over numpy arrays.
//!
//! Each function takes its (broadcast) arguments, a preallocated output array and a thread
//! count, releases the GIL and runs one loop over the elements: no Python object per element,
//! no copy of an input that is already contiguous float64. Where the arguments have the shape
//! of one of the crate's slice kernels (`ei_slice`: arrays `mu`, `sigma`, one `y`;
//! `ei_slice_per_point`: three arrays; `pbgi_slice`: three arrays; ...), that kernel does the
//! whole array; any other broadcast pattern runs the scalar function per element. Results are
//! exactly `pbgi_fast`'s scalar functions either way (NaN for invalid input, as documented
//! there). The elements are split into one contiguous range per thread, each run in chunks
//! with a check for signals between them (`crate::interrupt::in_threads`), so Ctrl-C stops a
//! long call, and the results are the same bits for any thread count.
use crate::args::{arg, Arg};
use crate::interrupt::{in_threads, thread_count, Outputs};
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

/// `out[i] = f(args at i)` for every element, without the GIL, on `threads` threads in chunks
/// with a check for signals between them (`crate::interrupt::in_threads`). All-array arguments
/// take the zipped loop (no per-element branch on the argument kind).
fn map<const K: usize, F>(
    py: Python<'_>,
    threads: usize,
    args: [Arg<'_>; K],
    out: &mut [f64],
    f: F,
) -> PyResult<()>
where
    F: Fn([f64; K]) -> f64 + Send + Sync,
{
    let each = all_each(&args);
    let Ok(()) = in_threads(py, threads, out, |range, out: &mut [f64]| {
        if let Some(slices) = each {
            for (o, i) in out.iter_mut().zip(range) {
                *o = f(std::array::from_fn(|k| slices[k][i]));
            }
        } else {
            for (o, i) in out.iter_mut().zip(range) {
                *o = f(std::array::from_fn(|k| args[k].at(i)));
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

/// Runs one of the crate's slice kernels over the elements of `out` without the GIL, on
/// `threads` threads in chunks with a check for signals between them (`kernel(range, out)`
/// does the elements `range` into `out`, that range's part of the outputs; the kernels are
/// elementwise, so any split gives the same bits). The lengths were checked by [`arg`], so the
/// kernel's length error cannot occur; it is reported rather than ignored all the same.
fn slice_kernel<O: Outputs>(
    py: Python<'_>,
    threads: usize,
    out: O,
    kernel: impl Fn(Range<usize>, O) -> Result<(), pbgi_fast::SliceLengthError> + Sync,
) -> PyResult<()> {
    in_threads(py, threads, out, kernel)?.map_err(|e| PyValueError::new_err(e.to_string()))
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

/// `outs[j][i] = f(args at i)[j]` for every element and output, without the GIL, on `threads`
/// threads in chunks as [`map`] (the gradients: value and partial derivatives at once).
fn map_fields<const K: usize, const M: usize, F>(
    py: Python<'_>,
    threads: usize,
    args: [Arg<'_>; K],
    outs: [&mut [f64]; M],
    f: F,
) -> PyResult<()>
where
    F: Fn([f64; K]) -> [f64; M] + Send + Sync,
{
    let Ok(()) = in_threads(py, threads, outs, |range, mut outs: [&mut [f64]; M]| {
        for (j, i) in range.enumerate() {
            let fields = f(std::array::from_fn(|k| args[k].at(i)));
            for (out, field) in outs.iter_mut().zip(fields) {
                out[j] = field;
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

/// `pbgi_fast::pbgi_grad_slice` with `∂g/∂μ` too, which that slice does not write: 1, or NaN
/// where `pbgi_grad` gives NaN (`g` NaN, or `μ`, `σ` or the cost not finite), as
/// `pbgi_fast::pbgi_grad` (compared bit for bit in `python/tests/test_fast_threads.py`).
fn pbgi_grad_slice_with_d_mu(
    mu: &[f64],
    sigma: &[f64],
    cost: &[f64],
    value: &mut [f64],
    d_mu: &mut [f64],
    d_sigma: &mut [f64],
    d_cost: &mut [f64],
) -> Result<(), pbgi_fast::SliceLengthError> {
    pbgi_fast::pbgi_grad_slice(mu, sigma, cost, value, d_sigma, d_cost)?;
    for (i, d) in d_mu.iter_mut().enumerate() {
        let valid =
            !value[i].is_nan() && mu[i].is_finite() && sigma[i].is_finite() && cost[i].is_finite();
        *d = if valid { 1.0 } else { f64::NAN };
    }
    Ok(())
}

/// The value functions: `fast_NAME(py, ARGS..., out, threads)` writes `pbgi_fast::NAME` at
/// every element into `out`, one line each: `fast_NAME => NAME(ARGS...)`, and for each
/// broadcast pattern the crate has a slice kernel for, `, slice KERNEL[KIND BINDING, ...]`
/// (`Each`: an array, `All`: one value), which then does the whole array. `threads`: `None`
/// for all cores. Also writes `add_values`.
macro_rules! fast_values {
    ($($(#[$doc:meta])* $name:ident => $f:ident($($a:ident),+)
        $(, slice $kernel:ident[$($kind:ident $k:ident),+])*;)+) => {
        $(
            $(#[$doc])*
            #[pyfunction]
            pub fn $name(
                py: Python<'_>,
                $($a: PyReadonlyArray1<'_, f64>,)+
                mut out: PyReadwriteArray1<'_, f64>,
                threads: Option<usize>,
            ) -> PyResult<()> {
                let threads = thread_count(threads)?;
                let out = out_slice("out", &mut out)?;
                let n = out.len();
                let args = [$(arg(stringify!($a), &$a, n)?),+];
                $(
                    if let [$(Arg::$kind($k)),+] = args {
                        return slice_kernel(py, threads, out, |r, out: &mut [f64]| {
                            pbgi_fast::$kernel($($k.part(r.clone()),)+ out)
                        });
                    }
                )*
                map(py, threads, args, out, |[$($a),+]| pbgi_fast::$f($($a),+))
            }
        )+

        /// Adds the value functions to the module.
        pub fn add_values(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)+
            Ok(())
        }
    };
}

/// The gradients: `fast_NAME(py, ARGS..., FIELDS..., threads)` writes the fields of
/// `pbgi_fast::NAME` at every element into one output array each, one line each:
/// `fast_NAME => NAME(ARGS...) -> [FIELDS...]`, and for each broadcast pattern with a slice
/// kernel, `, slice KERNEL[KIND BINDING, ...] -> [FIELDS...]` (the kernel takes the arguments,
/// then every field, in the order of the fields above). Also writes `add_gradients`.
macro_rules! fast_gradients {
    ($($(#[$doc:meta])* $name:ident => $f:ident($($a:ident),+) -> [$($field:ident),+]
        $(, slice $kernel:path[$($kind:ident $k:ident),+] -> [$($out:ident),+])*;)+) => {
        $(
            $(#[$doc])*
            #[pyfunction]
            #[allow(clippy::too_many_arguments)]
            pub fn $name(
                py: Python<'_>,
                $($a: PyReadonlyArray1<'_, f64>,)+
                $(mut $field: PyReadwriteArray1<'_, f64>,)+
                threads: Option<usize>,
            ) -> PyResult<()> {
                let threads = thread_count(threads)?;
                let outs = [$(out_slice(stringify!($field), &mut $field)?),+];
                same_length(&outs)?;
                let n = outs[0].len();
                let args = [$(arg(stringify!($a), &$a, n)?),+];
                $(
                    if let [$(Arg::$kind($k)),+] = args {
                        return slice_kernel(py, threads, outs, |r, outs| {
                            let [$($out),+] = outs;
                            $kernel($($k.part(r.clone()),)+ $($out),+)
                        });
                    }
                )*
                map_fields(py, threads, args, outs, |[$($a),+]| {
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

/// The most threads a `pbgi.fast` call may be asked for, and the default (all cores), for the
/// Python layer.
#[pyfunction]
pub fn fast_threads() -> PyResult<(usize, usize)> {
    Ok((crate::interrupt::MAX_THREADS, thread_count(None)?))
}

/// Which compilation the slice kernels run on this CPU (`pbgi_fast::simd_path`).
#[pyfunction]
pub fn fast_simd_path() -> &'static str {
    pbgi_fast::simd_path()
}

fast_values! {
    /// `pbgi_fast::h` elementwise.
    fast_h => h(z);
    /// `pbgi_fast::ln_h` elementwise.
    fast_ln_h => ln_h(z);
    /// `pbgi_fast::log_ndtr` elementwise.
    fast_log_ndtr => log_ndtr(x);
    /// `pbgi_fast::ei` elementwise.
    fast_ei => ei(mu, sigma, y), slice ei_slice[Each m, Each s, All y],
        slice ei_slice_per_point[Each m, Each s, Each y];
    /// `pbgi_fast::log_ei` elementwise.
    fast_log_ei => log_ei(mu, sigma, y), slice log_ei_slice[Each m, Each s, All y],
        slice log_ei_slice_per_point[Each m, Each s, Each y];
    /// `pbgi_fast::pbgi` elementwise.
    fast_pbgi => pbgi(mu, sigma, cost), slice pbgi_slice[Each m, Each s, Each c];
    /// `pbgi_fast::log_eipc` elementwise.
    fast_log_eipc => log_eipc(mu, sigma, y, cost),
        slice log_eipc_slice[Each m, Each s, All y, Each c],
        slice log_eipc_slice_per_point[Each m, Each s, Each y, Each c];
}

fast_gradients! {
    /// `pbgi_fast::ei_grad` elementwise: fills `value`, `d_mu`, `d_sigma`.
    fast_ei_grad => ei_grad(mu, sigma, y) -> [value, d_mu, d_sigma],
        slice pbgi_fast::ei_grad_slice[Each m, Each s, All y] -> [v, dm, ds],
        slice pbgi_fast::ei_grad_slice_per_point[Each m, Each s, Each y] -> [v, dm, ds];
    /// `pbgi_fast::log_ei_grad` elementwise: fills `value`, `d_mu`, `d_sigma`.
    fast_log_ei_grad => log_ei_grad(mu, sigma, y) -> [value, d_mu, d_sigma],
        slice pbgi_fast::log_ei_grad_slice[Each m, Each s, All y] -> [v, dm, ds],
        slice pbgi_fast::log_ei_grad_slice_per_point[Each m, Each s, Each y] -> [v, dm, ds];
    /// `pbgi_fast::pbgi_grad` elementwise: fills `value`, `d_mu`, `d_sigma`, `d_cost`.
    fast_pbgi_grad => pbgi_grad(mu, sigma, cost) -> [value, d_mu, d_sigma, d_cost],
        slice pbgi_grad_slice_with_d_mu[Each m, Each s, Each c] -> [v, dm, ds, dc];
}
