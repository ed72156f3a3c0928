//! `pbgi.stopping`: the PBGI/LogEIPC stopping rule [stopping paper, eqs. 6–10; MATH.md].
//!
//! The fast crate's rule (`pbgi_fast::stop_by_pbgi` and friends, its `StoppingHelper` with
//! stabilisation, debounce and moving average, the PBGI-D schedule and Theorem 1's budget
//! scale) and the reference's exact decision (`pbgi_reference::stop_decision`), over candidate
//! arrays `mu`, `sigma`, `cost`.
use crate::interrupt::on_worker;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyArithmeticError, PyValueError};
use pyo3::prelude::*;

/// The candidates `(mu[i], sigma[i], cost[i])` (the Python layer broadcasts the arrays).
fn candidates(
    mu: &PyReadonlyArray1<'_, f64>,
    sigma: &PyReadonlyArray1<'_, f64>,
    cost: &PyReadonlyArray1<'_, f64>,
) -> PyResult<Vec<pbgi_fast::Candidate>> {
    let (mu, sigma, cost) = (mu.as_array(), sigma.as_array(), cost.as_array());
    if mu.len() != sigma.len() || mu.len() != cost.len() {
        return Err(PyValueError::new_err(format!(
            "candidate arrays differ in length: mu {}, sigma {}, cost {}",
            mu.len(),
            sigma.len(),
            cost.len()
        )));
    }
    Ok((0..mu.len())
        .map(|i| pbgi_fast::Candidate {
            mu: mu[i],
            sigma: sigma[i],
            cost: cost[i],
        })
        .collect())
}

/// `ValueError` for a configuration argument out of its domain: the argument, its value as
/// Rust's shortest round-trip form (`1e300`, not 301 digits) and the reason.
fn domain_error(e: pbgi_fast::DomainError) -> PyErr {
    PyValueError::new_err(format!("invalid {} = {:?}: {}", e.name, e.value, e.reason))
}

/// The rule's four functions of the candidates: `NAME(py, mu, sigma, cost, y_best)` returns
/// `pbgi_fast::NAME(candidates, y_best)`, one line each: `NAME -> RETURN;`. Also writes
/// `add_rules`, which registers them.
macro_rules! candidate_rules {
    ($($(#[$doc:meta])* $name:ident -> $ret:ty;)+) => {
        $(
            $(#[$doc])*
            #[pyfunction]
            pub fn $name(
                py: Python<'_>,
                mu: PyReadonlyArray1<'_, f64>,
                sigma: PyReadonlyArray1<'_, f64>,
                cost: PyReadonlyArray1<'_, f64>,
                y_best: f64,
            ) -> PyResult<$ret> {
                let c = candidates(&mu, &sigma, &cost)?;
                Ok(py.detach(|| pbgi_fast::$name(&c, y_best)))
            }
        )+

        /// Adds the rule's functions of the candidates to the module.
        pub fn add_rules(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)+
            Ok(())
        }
    };
}

candidate_rules! {
    /// `pbgi_fast::stop_by_pbgi`: `min PBGI >= y_best` (ties stop; no candidates stop).
    stop_by_pbgi -> bool;
    /// `pbgi_fast::stop_by_log_eipc`: `max LogEIPC(·, y_best) <= 0`.
    stop_by_log_eipc -> bool;
    /// `pbgi_fast::pbgi_gap`: `y_best - min PBGI` (`<= 0` means stop).
    pbgi_gap -> f64;
    /// `pbgi_fast::max_log_eipc`: `max LogEIPC(·, y_best)` (`<= 0` means stop).
    max_log_eipc -> f64;
}

/// `pbgi_reference::stop_decision`: the rule decided exactly both ways. Returns
/// `(stop, blocking indices, index of the smallest PBGI or None)`.
#[pyfunction]
pub fn stop_decision(
    py: Python<'_>,
    mu: PyReadonlyArray1<'_, f64>,
    sigma: PyReadonlyArray1<'_, f64>,
    cost: PyReadonlyArray1<'_, f64>,
    y_best: f64,
) -> PyResult<(bool, Vec<usize>, Option<usize>)> {
    let c: Vec<pbgi_reference::Candidate> = candidates(&mu, &sigma, &cost)?
        .into_iter()
        .map(|c| pbgi_reference::Candidate {
            mu: c.mu,
            sigma: c.sigma,
            cost: c.cost,
        })
        .collect();
    // On a thread of its own, so that Ctrl-C interrupts a long decision (`crate::interrupt`).
    let decision = on_worker(py, move || pbgi_reference::stop_decision(&c, y_best))?;
    match decision {
        Ok(d) => Ok((d.stop, d.blocking, d.min_pbgi)),
        Err(
            e @ (pbgi_reference::Error::InvalidInput { .. }
            | pbgi_reference::Error::InvalidCandidate { .. }),
        ) => Err(PyValueError::new_err(e.to_string())),
        Err(e) => Err(PyArithmeticError::new_err(e.to_string())),
    }
}

/// `pbgi_fast::StoppingHelper`: the rule with a stabilisation period, a debounce and a moving
/// average of its statistic (full windows only: no stop before `window` checks).
#[pyclass(module = "pbgi._pbgi")]
pub struct StoppingHelper {
    inner: pbgi_fast::StoppingHelper,
    config: (usize, usize, usize),
}

#[pymethods]
impl StoppingHelper {
    #[new]
    #[pyo3(signature = (stabilisation = 0, debounce = 1, window = 1))]
    fn new(stabilisation: usize, debounce: usize, window: usize) -> PyResult<Self> {
        let inner = pbgi_fast::StoppingHelper::new(stabilisation, debounce, window)
            .map_err(domain_error)?;
        Ok(StoppingHelper {
            inner,
            config: (stabilisation, debounce, window),
        })
    }

    /// Records one check's statistic (`<= 0` means the rule says stop); `True` to stop now.
    fn observe(&mut self, statistic: f64) -> bool {
        self.inner.observe(statistic)
    }

    /// `observe(pbgi_gap(...))`.
    fn observe_pbgi(
        &mut self,
        mu: PyReadonlyArray1<'_, f64>,
        sigma: PyReadonlyArray1<'_, f64>,
        cost: PyReadonlyArray1<'_, f64>,
        y_best: f64,
    ) -> PyResult<bool> {
        let c = candidates(&mu, &sigma, &cost)?;
        Ok(self.inner.observe_pbgi(&c, y_best))
    }

    /// `observe(max_log_eipc(...))`.
    fn observe_log_eipc(
        &mut self,
        mu: PyReadonlyArray1<'_, f64>,
        sigma: PyReadonlyArray1<'_, f64>,
        cost: PyReadonlyArray1<'_, f64>,
        y_best: f64,
    ) -> PyResult<bool> {
        let c = candidates(&mu, &sigma, &cost)?;
        Ok(self.inner.observe_log_eipc(&c, y_best))
    }

    /// Mean of the last `window` statistics once `window` have been observed; `None` before.
    #[getter]
    fn moving_average(&self) -> Option<f64> {
        self.inner.moving_average()
    }

    /// Number of checks so far.
    #[getter]
    fn checks(&self) -> usize {
        self.inner.checks()
    }

    /// Current run of consecutive counted signals.
    #[getter]
    fn consecutive_signals(&self) -> usize {
        self.inner.consecutive_signals()
    }

    /// Forgets all checks (keeps the configuration).
    fn reset(&mut self) {
        self.inner.reset()
    }

    fn __repr__(&self) -> String {
        let (k, m, w) = self.config;
        format!(
            "StoppingHelper(stabilisation={k}, debounce={m}, window={w}; checks={})",
            self.inner.checks()
        )
    }
}

/// `pbgi_fast::PbgiDSchedule`: PBGI-D's cost scale, divided by `beta` at each stop signal.
#[pyclass(module = "pbgi._pbgi")]
pub struct PbgiDSchedule {
    inner: pbgi_fast::PbgiDSchedule,
}

#[pymethods]
impl PbgiDSchedule {
    #[new]
    #[pyo3(signature = (lambda0 = 0.1, beta = 2.0))]
    fn new(lambda0: f64, beta: f64) -> PyResult<Self> {
        Ok(PbgiDSchedule {
            inner: pbgi_fast::PbgiDSchedule::new(lambda0, beta).map_err(domain_error)?,
        })
    }

    /// The current `λ`.
    #[getter]
    fn lambda_(&self) -> f64 {
        self.inner.lambda()
    }

    /// `λ₀`.
    #[getter]
    fn lambda0(&self) -> f64 {
        self.inner.lambda0()
    }

    /// `β`.
    #[getter]
    fn beta(&self) -> f64 {
        self.inner.beta()
    }

    /// The stopping rule triggered: `λ ← λ/β`; returns the new `λ`.
    fn on_stop_signal(&mut self) -> f64 {
        self.inner.on_stop_signal()
    }

    /// Back to `λ₀`.
    fn reset(&mut self) {
        self.inner.reset()
    }

    fn __repr__(&self) -> String {
        format!(
            "PbgiDSchedule(lambda0={}, beta={}; lambda_={})",
            self.inner.lambda0(),
            self.inner.beta(),
            self.inner.lambda()
        )
    }
}

/// `pbgi_fast::budget_lambda`: Theorem 1's cost scale `λ = U/(B − C)`.
#[pyfunction]
pub fn budget_lambda(u: f64, budget: f64, first_cost: f64) -> PyResult<f64> {
    pbgi_fast::budget_lambda(u, budget, first_cost).map_err(domain_error)
}
