//! Pandora's Box in f64 (issue 4): instances, reservation values, Weitzman's index policy, its
//! expected cost and objective by the closed formulas of MATH.md, and a simulator. The exact
//! counterpart is `pbgi_reference::pandora`; the two are compared in
//! `conformance/tests/pandora_fast_vs_reference.rs`.
mod evaluation;
mod instance;
mod reservation;
mod simulate;

pub use evaluation::{expected_cost, kww_objective, policy_order, Evaluation, Tie};
pub use instance::{Distribution, Instance, InstanceError, PandoraBox};
pub use reservation::reservation_value;
pub use simulate::{RunOutcome, Simulator};
