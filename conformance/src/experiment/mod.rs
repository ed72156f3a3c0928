//! The stopping paper's stopping-rule comparison (issue 7): baseline stopping rules, the
//! statistics they rest on, and the 1-D Bayesian-regret experiment behind `pbgi experiment`.
//!
//! Every rule implements [`crate::bo::StoppingRule`] and is registered in [`rules::RULES`].
//! [`run::run_experiment`] runs each (cost, λ) setting × seed × acquisition once to the cap
//! with every rule observing the same trajectory; [`report`] turns the runs into tables, CSV
//! files and SVG plots.
pub mod acquisitions;
pub mod clopper_pearson;
pub mod config;
pub mod incomplete_beta;
pub mod initial_design;
pub mod report;
pub mod rules;
pub mod run;
pub mod sample_stats;
pub mod seeding;
pub mod svg;
