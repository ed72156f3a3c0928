//! Pandora's Box solved exactly: instances, Weitzman's reservation values and index
//! policy, its exact expected cost and value, the optimal policy by dynamic programming,
//! Theorem 2's budget multiplier, Theorem 1 in the Pandora setting, and the EI-per-cost
//! counterexample. Minimisation throughout (MATH.md, "Pandora's Box and Weitzman's policy").
//!
//! Discrete instances are handled in exact rationals (`rug::Rational`); normal boxes by
//! high-precision MPFR evaluation with stated error bounds ([`normal`]).
pub mod budget;
pub mod counterexample;
pub mod dp;
pub mod evaluation;
pub mod instance;
pub mod normal;
pub mod policy;
pub mod quadrature;
pub mod reservation;
pub mod theorem1;
pub mod work;

pub use budget::{solve_budget, solve_budget_with, BudgetSolution, ScaledPolicy};
pub use counterexample::{
    counterexample, counterexample_sizes, expected_max_with_zero, Counterexample,
};
pub use dp::{dp_size, solve as solve_dp, solve_with as solve_dp_with, Action, DpSize, DpSolution};
pub use evaluation::{
    evaluate, evaluate_with, expected_minimum, kww_objective, kww_objective_with,
    product_formula_cost, Evaluation,
};
pub use instance::{nearest_f64, Discrete, Distribution, Instance, InstanceError, PandoraBox};
pub use normal::{
    certified_index, evaluate_general, evaluate_general_with, quadrature_pieces, quadrature_work,
    GeneralEvaluation, GeneralIndex, QUADRATURE_STAGE,
};
pub use policy::{IndexPolicy, Tie};
pub use reservation::discrete_reservation_value;
pub use theorem1::{theorem1, Theorem1};
pub use work::{number_bits, Progress, WorkLimits};
