//! The stopping paper's stopping-rule comparison (`pbgi experiment`, §4.1 and App. B): the
//! configuration with its presets (`config`), the runs (`study`: every (cost, λ) setting ×
//! sample × acquisition once to the cap, every rule observing the same trajectory), and the
//! tables, files and figures (`report`). One run is made by `finite` on a grid or a random
//! point set and by `cube` on the continuous cube (the 8-D setting), from the pieces they
//! share in `run` (the setting, the result, the random streams and the observing rules).
pub mod config;
pub mod cost_model;
pub mod cube;
pub mod finite;
pub mod report;
pub mod run;
pub mod study;

pub use config::ExperimentConfig;
pub use run::{RuleTimes, RunResult, Setting};
pub use study::{run_experiment, run_experiment_timed, ExperimentResults};
