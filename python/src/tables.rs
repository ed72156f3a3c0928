//! The fitted coefficient tables of `pbgi-fast`, for `pbgi.torch`: its kernels are the fast
//! crate's algorithms written with torch operations, and read these bits from here (never a
//! copy that could drift from the Rust tables).
use pyo3::prelude::*;
use pyo3::types::PyDict;

use pbgi_fast::tables;

/// The tables as a dict of nested lists of floats.
#[pyfunction]
pub fn fast_tables(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(
        "small",
        tables::SMALL.iter().map(|r| r.to_vec()).collect::<Vec<_>>(),
    )?;
    d.set_item("w8", tables::W8.to_vec())?;
    d.set_item("w16", tables::W16.to_vec())?;
    d.set_item("w32", tables::W32.to_vec())?;
    d.set_item("asymptotic", tables::ASYMPTOTIC.to_vec())?;
    d.set_item("r_breaks", tables::R_BREAKS.to_vec())?;
    d.set_item(
        "u_of_r",
        tables::U_OF_R
            .iter()
            .map(|r| r.to_vec())
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "x_of_v",
        tables::X_OF_V
            .iter()
            .map(|r| r.to_vec())
            .collect::<Vec<_>>(),
    )?;
    d.set_item("p_series", tables::P_SERIES.to_vec())?;
    d.set_item("s_series", tables::S_SERIES.to_vec())?;
    Ok(d)
}
