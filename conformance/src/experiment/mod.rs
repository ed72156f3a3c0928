//! The stopping paper's stopping-rule comparison (issue 7): baseline stopping rules, the
//! statistics they rest on, and the 1-D Bayesian-regret experiment behind `pbgi experiment`.
//!
//! Every rule implements [`crate::bo::StoppingRule`] and is registered in [`rules::RULES`].
pub mod clopper_pearson;
pub mod incomplete_beta;
pub mod rules;
pub mod sample_stats;
