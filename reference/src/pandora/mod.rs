//! Pandora's Box solved exactly (issue 4): instances, Weitzman's reservation values and index
//! policy, its exact expected cost and value, the optimal policy by dynamic programming,
//! Theorem 2's budget multiplier, Theorem 1 in the Pandora setting, and the EI-per-cost
//! counterexample. Minimisation throughout (MATH.md, "Pandora's Box and Weitzman's policy").
//!
//! Discrete instances are handled in exact rationals (`rug::Rational`); normal boxes by
//! high-precision MPFR evaluation with stated error bounds ([`normal`]).
pub mod dp;
pub mod evaluation;
pub mod instance;
pub mod policy;
pub mod reservation;

pub use dp::{solve as solve_dp, Action, DpSolution};
pub use evaluation::{evaluate, kww_objective, product_formula_cost, Evaluation};
pub use instance::{Discrete, Distribution, Instance, InstanceError, PandoraBox};
pub use policy::{IndexPolicy, Tie};
pub use reservation::discrete_reservation_value;
