//! `pbgi.check`: another implementation's values graded against the reference, by the same
//! report type as `pbgi check` (`pbgi_conformance::check_report::CheckReport`): the same ULP
//! measures, regions, worst rows and verdict. Nothing is graded here; this only feeds arrays
//! in and hands the report's summaries back (as JSON text for the Python layer to parse).
use crate::interrupt::in_chunks;
use crate::reference::{first_domain_error, invalid_input, NotCertified, NotDifferentiable};
use numpy::{PyArray1, PyReadonlyArray1};
use pbgi_conformance::check_report::{CheckReport, OracleSource, RowError, RowToGrade};
use pbgi_conformance::function::Function;
use pbgi_conformance::regions::Region;
use pbgi_conformance::tolerances::fast_tolerance;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The function called `name` on the command line (`ei`, `log-ei`, ...).
pub fn function_named(name: &str) -> PyResult<Function> {
    Function::ALL
        .iter()
        .copied()
        .find(|f| f.cli_name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = Function::ALL.iter().map(|f| f.cli_name()).collect();
            PyValueError::new_err(format!(
                "function: expected one of {}, got {name:?}",
                names.join(", ")
            ))
        })
}

/// The input columns of the function called `name`, in argument order.
#[pyfunction]
pub fn check_columns(name: &str) -> PyResult<(Vec<&'static str>, Vec<&'static str>)> {
    let f = function_named(name)?;
    Ok((f.input_columns().to_vec(), f.output_columns().to_vec()))
}

/// A graded set of values.
#[pyclass(frozen, module = "pbgi._pbgi")]
pub struct Report {
    report: CheckReport,
}

/// A bound in ULPs by `pbgi check --max-ulp`'s rule (`cli/src/check.rs`): a finite number
/// `>= 0`. NaN would pass nothing, `+inf` would pass a NaN value (an infinite error), and a
/// negative bound fails correctly rounded answers.
fn bound(max_ulp: f64) -> PyResult<f64> {
    if max_ulp.is_finite() && max_ulp >= 0.0 {
        Ok(max_ulp)
    } else {
        Err(PyValueError::new_err(format!(
            "max_ulp: must be a finite number >= 0, got {max_ulp}"
        )))
    }
}

fn json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyValueError::new_err(e.to_string()))
}

#[pymethods]
impl Report {
    /// Every row's error in ULPs (the largest over its output columns), in element order.
    fn ulp<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.report.ulp())
    }

    /// The largest error (0 with no rows).
    fn max_ulp(&self) -> f64 {
        self.report.max_ulp()
    }

    /// Whether at least one row was graded and none is above `max_ulp` (a finite number `>= 0`).
    fn passed(&self, max_ulp: f64) -> PyResult<bool> {
        Ok(self.report.passed(bound(max_ulp)?))
    }

    /// The `k` worst rows as JSON (largest error first).
    fn worst(&self, k: usize) -> PyResult<String> {
        let rows: Vec<_> = self
            .report
            .worst(k)
            .into_iter()
            .map(|r| self.report.row_summary(r))
            .collect();
        json(&rows)
    }

    /// The error statistics by region as JSON.
    fn regions(&self) -> PyResult<String> {
        json(&self.report.by_region())
    }

    /// The whole report as JSON (`pbgi check --json`).
    #[pyo3(signature = (worst, max_ulp))]
    fn summary(&self, worst: usize, max_ulp: Option<f64>) -> PyResult<String> {
        json(&self.report.summary(worst, max_ulp.map(bound).transpose()?))
    }

    /// The report as text (`pbgi check`'s).
    #[pyo3(signature = (worst, max_ulp))]
    fn text(&self, worst: usize, max_ulp: Option<f64>) -> PyResult<String> {
        Ok(self
            .report
            .render_text(worst, max_ulp.map(bound).transpose()?))
    }
}

/// Grades `theirs` (one array per output column) for the function called `name` at the
/// arguments `args` (in input-column order; each of length 1 or `n`), all flat.
///
/// # Errors
/// `InvalidInput(argument position, element, message)` for an argument outside the domain;
/// `NotDifferentiable(element, message)` at a point where a gradient does not exist (EI's at
/// `sigma = 0, y = mu`, LogEI's at `sigma = 0, y <= mu`); `NotCertified(element, message)` when
/// the reference cannot answer.
#[pyfunction]
pub fn check(
    py: Python<'_>,
    name: &str,
    source: &str,
    theirs: Vec<PyReadonlyArray1<'_, f64>>,
    args: Vec<PyReadonlyArray1<'_, f64>>,
) -> PyResult<Report> {
    let function = function_named(name)?;
    let outputs = function.output_columns().len();
    if theirs.len() != outputs {
        return Err(PyValueError::new_err(format!(
            "{name} has {outputs} output column(s), got {} value arrays",
            theirs.len()
        )));
    }
    let theirs: Vec<&[f64]> = theirs
        .iter()
        .map(|a| a.as_slice())
        .collect::<Result<_, _>>()
        .map_err(|_| PyValueError::new_err("value: array is not contiguous"))?;
    let n = theirs.first().map_or(0, |t| t.len());
    let names = function.input_columns();
    let args: Vec<crate::args::Arg<'_>> = names
        .iter()
        .zip(&args)
        .map(|(name, a)| crate::args::arg(name, a, n))
        .collect::<PyResult<_>>()?;
    if let Some(error) = first_domain_error(function, &args, n) {
        return Err(invalid_input(error));
    }
    let rows: Vec<RowToGrade> = (0..n)
        .map(|i| RowToGrade {
            line: i as u64,
            args: args.iter().map(|a| a.at(i)).collect(),
            theirs: theirs.iter().map(|t| t[i]).collect(),
            group: None,
        })
        .collect();
    let mut report = CheckReport::new(function, source, OracleSource::Reference);
    // In chunks, with a check for signals between them (`crate::interrupt`): the report
    // records the rows in order either way.
    in_chunks(py, n, |range| report.grade_batch(&rows[range]))?
        .map_err(|e| oracle_failure(function, &rows[e.line as usize].args, e))?;
    Ok(Report { report })
}

/// The Python exception for a row the reference did not answer. The oracle reports every
/// failure as a sentence, so a gradient's row is asked again of `pbgi_reference` itself (the
/// function the oracle calls), whose typed error tells a point where the derivative does not
/// exist (`NotDifferentiable`) from one it could not certify (`NotCertified`).
fn oracle_failure(function: Function, args: &[f64], e: RowError) -> PyErr {
    use pbgi_reference as r;
    let again = match function {
        Function::EiGrad => r::ei_grad(args[0], args[1], args[2]).err(),
        Function::LogEiGrad => r::log_ei_grad(args[0], args[1], args[2]).err(),
        Function::PbgiGrad => r::pbgi_grad(args[0], args[1], args[2]).err(),
        _ => None,
    };
    match again {
        Some(d @ r::Error::NotDifferentiable { .. }) => {
            NotDifferentiable::new_err((e.line, d.to_string()))
        }
        _ => NotCertified::new_err((e.line, e.error.message().to_string())),
    }
}

/// `pbgi-fast`'s accuracy bounds for the function called `name`, region by region (the one
/// tolerance table, `conformance/src/tolerances.rs`): `(region label, max ULP, reason)`.
#[pyfunction]
pub fn fast_tolerances(name: &str) -> PyResult<Vec<(String, f64, &'static str)>> {
    let function = function_named(name)?;
    let variable = function.region_variable_name();
    Ok(Region::ALL
        .iter()
        .map(|&region| {
            let t = fast_tolerance(function, region);
            (region.label_of(variable), t.max_ulp, t.reason)
        })
        .collect())
}
