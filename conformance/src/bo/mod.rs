//! Bayesian optimisation on a finite domain with a known GP prior (issues 6 and 7).
//!
//! This file fixes the interface between the simulator (GP prior, exact posterior, BO loop,
//! costs: issue 6) and the stopping rules and acquisitions compared in the experiment (issue 7).
//! The loop builds a [`StepView`] after each posterior update and hands it to an
//! [`Acquisition`] (which point next) and to each [`StoppingRule`] (stop now?).
//!
//! Building blocks: [`Kernel`] and [`Domain`] make a [`Problem`] (prior `N(μ, K + εI)` on the
//! domain, factored once); [`Posterior`] is the exact posterior, updated by bordering its
//! Cholesky factor; [`CostFunction`] gives the paper's costs; [`run_bo`] is the loop;
//! [`Pbgi`], [`LogEipc`], [`Lcb`], [`Thompson`] are the acquisitions and [`PbgiStoppingRule`]
//! the PBGI/LogEIPC stopping rule; [`theorem1`] measures Theorem 1's bound (`pbgi validate`).
pub mod acquisition;
pub mod cost;
pub mod domain;
pub mod interface;
pub mod kernel;
pub mod posterior;
pub mod prior;
pub mod run;
pub mod stopping;
pub mod theorem1;

pub use acquisition::{Lcb, LogEipc, Pbgi, Thompson};
pub use cost::{CostFunction, PeriodicAnchor};
pub use domain::Domain;
pub use interface::*;
pub use kernel::{Kernel, KernelKind};
pub use posterior::Posterior;
pub use prior::Problem;
pub use run::{run_bo, Control, EndReason, RunRecord, Task};
pub use stopping::{PbgiStoppingRule, PracticalOptions, StopForm};
