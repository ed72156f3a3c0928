//! Bayesian optimisation on a finite domain with a known GP prior.
//!
//! The loop ([`run_bo`]) builds a [`StepView`] after each posterior update and hands it to an
//! [`Acquisition`] (which point next) and to the caller, who asks the [`StoppingRule`]s
//! (stop now?). Costs are the stopping paper's ([`CostFunction`]); the initial design is
//! scrambled Sobol ([`initial_design`]).
pub mod cost;
pub mod initial_design;
pub mod interface;
pub mod pbgi_scan;
pub mod run;
pub mod unknown_cost;

pub use cost::{scaled_costs, CostFunction, PeriodicAnchor};
pub use initial_design::initial_design;
pub use interface::*;
pub use run::{run_bo, run_bo_refitting, Control, EndReason, RunRecord, Task};
pub use unknown_cost::{run_bo_unknown_cost, LogCostModel, LogEipcForm};
