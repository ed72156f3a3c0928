//! The compiled part of the `pbgi` Python package (`pbgi._pbgi`).
//!
//! The public modules are Python (`python/pbgi/`): they broadcast the arguments with numpy,
//! check shapes, and call one function here per array. This crate holds only what must be
//! compiled: the loops over the elements (without the GIL) and the wrappers of the Rust crates'
//! types. Conventions, domains and accuracy are those of `pbgi-reference` and `pbgi-fast`
//! (MATH.md, minimisation throughout).
use pyo3::prelude::*;

mod args;
mod check;
mod fast;
mod interrupt;
mod pandora;
mod reference;
mod stopping;
mod tables;

/// The compiled functions behind `pbgi.reference`, `pbgi.fast`, `pbgi.check`, `pbgi.pandora`
/// and `pbgi.stopping`.
#[pymodule]
fn _pbgi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InvalidInput", m.py().get_type::<reference::InvalidInput>())?;
    m.add("NotCertified", m.py().get_type::<reference::NotCertified>())?;
    m.add(
        "NotDifferentiable",
        m.py().get_type::<reference::NotDifferentiable>(),
    )?;
    m.add_class::<reference::Enclosures>()?;
    m.add_function(wrap_pyfunction!(reference::enclosures_from_state, m)?)?;
    m.add("MAX_DECIMAL_DIGITS", reference::MAX_DECIMAL_DIGITS)?;
    reference::add_values(m)?;
    reference::add_gradients(m)?;
    fast::add_values(m)?;
    fast::add_gradients(m)?;
    m.add_function(wrap_pyfunction!(fast::fast_threads, m)?)?;
    m.add_function(wrap_pyfunction!(fast::fast_simd_path, m)?)?;
    m.add_class::<check::Report>()?;
    m.add_function(wrap_pyfunction!(check::check, m)?)?;
    m.add_function(wrap_pyfunction!(check::check_columns, m)?)?;
    m.add_function(wrap_pyfunction!(check::fast_tolerances, m)?)?;
    m.add_function(wrap_pyfunction!(pandora::pandora_solve, m)?)?;
    m.add_function(wrap_pyfunction!(pandora::pandora_counterexample, m)?)?;
    m.add_class::<stopping::StoppingHelper>()?;
    m.add_class::<stopping::PbgiDSchedule>()?;
    stopping::add_rules(m)?;
    m.add_function(wrap_pyfunction!(stopping::stop_decision, m)?)?;
    m.add_function(wrap_pyfunction!(stopping::budget_lambda, m)?)?;
    m.add_function(wrap_pyfunction!(tables::fast_tables, m)?)?;
    Ok(())
}
