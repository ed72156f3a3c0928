//! `pbgi.pandora`: Pandora's Box instances solved as `pbgi pandora` solves them.
//!
//! The instance is the JSON text of the file format (`fixtures/pandora/*.json`; the Python
//! layer serialises a dict); the report is the same JSON the CLI prints, returned as text for
//! the Python layer to parse.
use crate::interrupt::on_worker;
use pbgi_conformance::pandora::{format, report, Engine};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The JSON report of `pbgi pandora` for the instance `text` (named `name` in the report).
#[pyfunction]
#[pyo3(signature = (text, name, tie, budget, engine, simulate, seed, max_states, max_work))]
pub fn pandora_solve(
    py: Python<'_>,
    text: &str,
    name: &str,
    tie: &str,
    budget: Option<&str>,
    engine: &str,
    simulate: Option<u32>,
    seed: u64,
    max_states: usize,
    max_work: f64,
) -> PyResult<String> {
    let engine = match engine {
        "reference" => Engine::Reference,
        "fast" => Engine::Fast,
        other => {
            return Err(PyValueError::new_err(format!(
                "engine: expected \"reference\" or \"fast\", got {other:?}"
            )))
        }
    };
    let text = text.to_owned();
    let name = name.to_owned();
    let tie = tie.to_owned();
    let budget = budget.map(str::to_owned);
    // On a thread of its own, so that Ctrl-C interrupts a long solve or simulation
    // (`crate::interrupt`; the abandoned solve finishes in the background).
    on_worker(py, move || -> Result<String, String> {
        let file = format::read_instance(&text).map_err(|e| format!("{name}: {e}"))?;
        let tie = report::parse_tie(&tie).map_err(|e| e.replace("--tie", "tie"))?;
        let budget = budget
            .as_deref()
            .map(|b| format::parse_exact(b).map_err(|e| format!("budget: {e}")))
            .transpose()?;
        // The limits of the exact solves (the tool's defaults unless given); no progress lines.
        let mut exact =
            report::Exact::with_limits(max_states, max_work).map_err(|e| python_names(&e))?;
        let mut value = report::instance_report(&name, &file, &tie, budget, engine, &mut exact)
            .map_err(|e| format!("{name}: {}", python_names(&e)))?;
        if let Some(runs) = simulate {
            value["simulation"] = report::simulation(&file, &tie, runs, seed)
                .map_err(|e| format!("{name}: {}", e.replace("--", "")))?;
        }
        serde_json::to_string(&value).map_err(|e| e.to_string())
    })?
    .map_err(PyValueError::new_err)
}

/// A message of the report with the CLI's flags named as `solve`'s arguments.
fn python_names(message: &str) -> String {
    message
        .replace("--max-work", "max_work")
        .replace("--max-states", "max_states")
        .replace("--engine fast", "engine=\"fast\"")
        .replace("--", "")
}

/// The report of `pbgi pandora --counterexample EPS,DELTA` (exact numbers as text).
#[pyfunction]
pub fn pandora_counterexample(py: Python<'_>, epsilon: &str, delta: &str) -> PyResult<String> {
    let spec = format!("{epsilon},{delta}");
    py.detach(move || {
        report::counterexample_report(&spec)
            .and_then(|v| serde_json::to_string(&v).map_err(|e| e.to_string()))
    })
    .map_err(|e| PyValueError::new_err(e.replace("--counterexample ", "")))
}
