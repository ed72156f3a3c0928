//! Subcommands of the `pbgi` tool, one module each. Every `run` returns the process exit code,
//! or an error message (printed as `pbgi: error: ...`, exit status 2).
pub mod check;
pub mod conformance;
pub mod eval;
pub mod experiment;
pub mod fixtures;
pub mod merge;
pub mod pandora;
pub mod validate;

/// Result of a subcommand.
pub type CliResult = Result<std::process::ExitCode, String>;
