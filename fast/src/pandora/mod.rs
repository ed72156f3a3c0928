//! Pandora's Box in f64: instances, reservation values, Weitzman's index policy (with ties
//! that survive rounding, [`IndexPolicy`]), its expected cost and objective by the closed
//! formulas of MATH.md, and a simulator. The exact counterpart is `pbgi_reference::pandora`;
//! the two are compared in `conformance/tests/pandora_fast_vs_reference.rs`.
mod evaluation;
mod instance;
mod policy;
mod reservation;
mod simulate;

pub use evaluation::{expected_cost, expected_cost_of, kww_objective, policy_order, Evaluation};
pub use instance::{Distribution, Instance, InstanceError, PandoraBox};
pub use policy::{index_error_bound, IndexPolicy, Key, NearTiesAreTies, Tie, TieResolver};
pub use reservation::reservation_value;
pub use simulate::{RunOutcome, Simulator};
