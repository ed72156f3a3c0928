//! Theorem 1 on trial (`pbgi validate`): the configuration (`config`), the simulation and its
//! measurements (`study`), and the reports (`report`). The argument and what checks each step:
//! `proofs-notes/theorem1.md`.
pub mod config;
pub mod report;
pub mod study;

pub use config::Config;
pub use study::{aggregate, run_sample, run_samples, ConfigReport, SampleResult, Study, Verdict};
