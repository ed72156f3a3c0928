//! The stopping paper's stopping-rule comparison (`pbgi experiment`, §4.1 and App. B): the
//! configuration with its presets (`config`), the runs (`study`: every (cost, λ) setting ×
//! sample × acquisition once to the cap, every rule observing the same trajectory), and the
//! tables, files and figures (`report`). On the continuous cube (the 8-D setting) a run is
//! made by `cube`.
pub mod config;
pub mod cube;
pub mod report;
pub mod study;

pub use config::ExperimentConfig;
pub use study::{run_experiment, ExperimentResults, RunResult, Setting};
