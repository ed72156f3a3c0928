//! Bayesian optimisation on the continuous cube `[0, 1]^d`: the stopping paper's 8-D setting
//! (§4.1, App. B), where acquisitions cannot be scanned point by point.
//!
//! - [`fourier`]: random-Fourier-feature sample paths (the objective; Thompson paths);
//! - [`posterior`]: the exact GP posterior anywhere in the cube, with gradients in `x`;
//! - [`lbfgs`]: projected L-BFGS for box constraints;
//! - [`search`]: multi-start optimisation of acquisitions, rule statistics, Thompson paths and
//!   the objective's global minimum;
//! - [`run`]: the BO loop.
//!
//! What is exact and what is approximate here is listed in `proofs-notes/stopping-rules.md`.
pub mod fourier;
pub mod lbfgs;
pub mod posterior;
pub mod run;
pub mod search;

pub use fourier::FourierPath;
pub use posterior::ContinuousPosterior;
pub use run::{run_bo_continuous, ContinuousRecord, ContinuousTask};
pub use search::{global_minimum, Found, Landscape, ScaledCost, SearchConfig, Target};
