//! Conformance machinery: fast-vs-reference cross-checks, theory validation, and the `pbgi` CLI.
pub mod bo;
pub mod cli;
pub mod experiment;
