//! Conformance machinery: fast-vs-reference cross-checks, theory validation, and the `pbgi` CLI.
pub mod bo;
pub mod cli;
pub mod csv_io;
pub mod decimal;
pub mod error_stats;
pub mod function;
pub mod inputs;
pub mod regions;
pub mod ulp;
