//! Bayesian optimisation on a finite domain with a known GP prior (issues 6 and 7).
//!
//! This file fixes the interface between the simulator (GP prior, exact posterior, BO loop,
//! costs: issue 6) and the stopping rules and acquisitions compared in the experiment (issue 7).
//! The loop builds a [`StepView`] after each posterior update and hands it to an
//! [`Acquisition`] (which point next) and to each [`StoppingRule`] (stop now?).
pub mod interface;
pub use interface::*;
