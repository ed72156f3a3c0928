//! `pbgi.fast`: the `pbgi-fast` kernels over numpy arrays.
//!
//! Each function takes its (broadcast) arguments and a preallocated output array, releases the
//! GIL and runs one loop over the elements: no Python object per element, no copy of an input
//! that is already contiguous float64. Where the arguments have the shape of one of the crate's
//! slice kernels (`ei_slice`: arrays `mu`, `sigma`, one `y`; `pbgi_slice`: three arrays; ...),
//! that kernel does the whole array; any other broadcast pattern runs the scalar function per
//! element. Results are exactly `pbgi_fast`'s scalar functions either way (NaN for invalid
//! input, as documented there).
use crate::args::{arg, Arg};
use numpy::{PyReadonlyArray1, PyReadwriteArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The output array as a mutable slice (the Python layer passes a contiguous 1-D view).
fn out_slice<'a>(name: &str, out: &'a mut PyReadwriteArray1<'_, f64>) -> PyResult<&'a mut [f64]> {
    out.as_slice_mut()
        .map_err(|_| PyValueError::new_err(format!("{name}: array is not contiguous")))
}

/// `out[i] = f(args at i)` for every element, without the GIL. All-array arguments take the
/// zipped loop (no per-element branch on the argument kind).
fn map<const K: usize, F>(py: Python<'_>, args: [Arg<'_>; K], out: &mut [f64], f: F)
where
    F: Fn([f64; K]) -> f64 + Send + Sync,
{
    py.detach(|| {
        if let Some(slices) = all_each(&args) {
            for (i, o) in out.iter_mut().enumerate() {
                *o = f(std::array::from_fn(|k| slices[k][i]));
            }
        } else {
            for (i, o) in out.iter_mut().enumerate() {
                *o = f(std::array::from_fn(|k| args[k].at(i)));
            }
        }
    });
}

/// Runs one of the crate's slice kernels without the GIL (the lengths were checked by [`arg`],
/// so its length error cannot occur; it is reported rather than ignored all the same).
fn slice_kernel(
    py: Python<'_>,
    kernel: impl FnOnce() -> Result<(), pbgi_fast::SliceLengthError> + Send,
) -> PyResult<()> {
    py.detach(kernel)
        .map_err(|e| PyValueError::new_err(e.to_string()))
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

/// `pbgi_fast::h` elementwise.
#[pyfunction]
pub fn fast_h(
    py: Python<'_>,
    z: PyReadonlyArray1<'_, f64>,
    mut out: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let out = out_slice("out", &mut out)?;
    let n = out.len();
    map(py, [arg("z", &z, n)?], out, |[z]| pbgi_fast::h(z));
    Ok(())
}

/// `pbgi_fast::ln_h` elementwise.
#[pyfunction]
pub fn fast_ln_h(
    py: Python<'_>,
    z: PyReadonlyArray1<'_, f64>,
    mut out: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let out = out_slice("out", &mut out)?;
    let n = out.len();
    map(py, [arg("z", &z, n)?], out, |[z]| pbgi_fast::ln_h(z));
    Ok(())
}

/// `pbgi_fast::log_ndtr` elementwise.
#[pyfunction]
pub fn fast_log_ndtr(
    py: Python<'_>,
    x: PyReadonlyArray1<'_, f64>,
    mut out: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let out = out_slice("out", &mut out)?;
    let n = out.len();
    map(py, [arg("x", &x, n)?], out, |[x]| pbgi_fast::log_ndtr(x));
    Ok(())
}

/// `pbgi_fast::ei` elementwise.
#[pyfunction]
pub fn fast_ei(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    mut out: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let out = out_slice("out", &mut out)?;
    let n = out.len();
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
    ];
    if let [Arg::Each(m), Arg::Each(s), Arg::All(y)] = args {
        return slice_kernel(py, || pbgi_fast::ei_slice(m, s, y, out));
    }
    map(py, args, out, |[m, s, y]| pbgi_fast::ei(m, s, y));
    Ok(())
}

/// `pbgi_fast::log_ei` elementwise.
#[pyfunction]
pub fn fast_log_ei(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    mut out: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let out = out_slice("out", &mut out)?;
    let n = out.len();
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
    ];
    if let [Arg::Each(m), Arg::Each(s), Arg::All(y)] = args {
        return slice_kernel(py, || pbgi_fast::log_ei_slice(m, s, y, out));
    }
    map(py, args, out, |[m, s, y]| pbgi_fast::log_ei(m, s, y));
    Ok(())
}

/// `pbgi_fast::pbgi` elementwise.
#[pyfunction]
pub fn fast_pbgi(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    cost: PyReadonlyArray1<'_, f64>,
    mut out: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let out = out_slice("out", &mut out)?;
    let n = out.len();
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("cost", &cost, n)?,
    ];
    if let [Arg::Each(m), Arg::Each(s), Arg::Each(c)] = args {
        return slice_kernel(py, || pbgi_fast::pbgi_slice(m, s, c, out));
    }
    map(py, args, out, |[m, s, c]| pbgi_fast::pbgi(m, s, c));
    Ok(())
}

/// `pbgi_fast::log_eipc` elementwise.
#[pyfunction]
pub fn fast_log_eipc(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    cost: PyReadonlyArray1<'_, f64>,
    mut out: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let out = out_slice("out", &mut out)?;
    let n = out.len();
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
        arg("cost", &cost, n)?,
    ];
    if let [Arg::Each(m), Arg::Each(s), Arg::All(y), Arg::Each(c)] = args {
        return slice_kernel(py, || pbgi_fast::log_eipc_slice(m, s, y, c, out));
    }
    map(py, args, out, |[m, s, y, c]| {
        pbgi_fast::log_eipc(m, s, y, c)
    });
    Ok(())
}

/// Writes `(value, d_mu, d_sigma)` of `grad` at every element into the three outputs.
fn map_ei_grad(
    py: Python<'_>,
    args: [Arg<'_>; 3],
    outs: [&mut [f64]; 3],
    grad: fn(f64, f64, f64) -> pbgi_fast::EiGrad,
) {
    let [value, d_mu, d_sigma] = outs;
    py.detach(|| {
        for i in 0..value.len() {
            let g = grad(args[0].at(i), args[1].at(i), args[2].at(i));
            value[i] = g.value;
            d_mu[i] = g.d_mu;
            d_sigma[i] = g.d_sigma;
        }
    });
}

/// `pbgi_fast::ei_grad` elementwise: fills `value`, `d_mu`, `d_sigma`.
#[pyfunction]
pub fn fast_ei_grad(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    mut value: PyReadwriteArray1<'_, f64>,
    mut d_mu: PyReadwriteArray1<'_, f64>,
    mut d_sigma: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let outs = three_outs(&mut value, &mut d_mu, &mut d_sigma)?;
    let n = outs[0].len();
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
    ];
    map_ei_grad(py, args, outs, pbgi_fast::ei_grad);
    Ok(())
}

/// `pbgi_fast::log_ei_grad` elementwise: fills `value`, `d_mu`, `d_sigma`.
#[pyfunction]
pub fn fast_log_ei_grad(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    y: PyReadonlyArray1<'_, f64>,
    mut value: PyReadwriteArray1<'_, f64>,
    mut d_mu: PyReadwriteArray1<'_, f64>,
    mut d_sigma: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let outs = three_outs(&mut value, &mut d_mu, &mut d_sigma)?;
    let n = outs[0].len();
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("y", &y, n)?,
    ];
    map_ei_grad(py, args, outs, pbgi_fast::log_ei_grad);
    Ok(())
}

/// `pbgi_fast::pbgi_grad` elementwise: fills `value`, `d_mu`, `d_sigma`, `d_cost`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn fast_pbgi_grad(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    cost: PyReadonlyArray1<'_, f64>,
    mut value: PyReadwriteArray1<'_, f64>,
    mut d_mu: PyReadwriteArray1<'_, f64>,
    mut d_sigma: PyReadwriteArray1<'_, f64>,
    mut d_cost: PyReadwriteArray1<'_, f64>,
) -> PyResult<()> {
    let [value, d_mu, d_sigma] = three_outs(&mut value, &mut d_mu, &mut d_sigma)?;
    let d_cost = out_slice("d_cost", &mut d_cost)?;
    let n = value.len();
    if d_cost.len() != n {
        return Err(PyValueError::new_err("output arrays differ in length"));
    }
    let args = [
        arg("mu", &mu, n)?,
        arg("sigma", &sigma, n)?,
        arg("cost", &cost, n)?,
    ];
    py.detach(|| {
        for i in 0..n {
            let g = pbgi_fast::pbgi_grad(args[0].at(i), args[1].at(i), args[2].at(i));
            value[i] = g.value;
            d_mu[i] = g.d_mu;
            d_sigma[i] = g.d_sigma;
            d_cost[i] = g.d_cost;
        }
    });
    Ok(())
}

/// Three output arrays of one length, as slices.
fn three_outs<'a>(
    value: &'a mut PyReadwriteArray1<'_, f64>,
    d_mu: &'a mut PyReadwriteArray1<'_, f64>,
    d_sigma: &'a mut PyReadwriteArray1<'_, f64>,
) -> PyResult<[&'a mut [f64]; 3]> {
    let outs = [
        out_slice("value", value)?,
        out_slice("d_mu", d_mu)?,
        out_slice("d_sigma", d_sigma)?,
    ];
    if outs.iter().any(|o| o.len() != outs[0].len()) {
        return Err(PyValueError::new_err("output arrays differ in length"));
    }
    Ok(outs)
}
