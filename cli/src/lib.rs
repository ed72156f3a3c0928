//! The `pbgi` command-line tool: the door onto the conformance library (`pbgi-conformance`) and
//! the simulation lab (`pbgi-lab`). It owns the argument parsing (clap), the progress display
//! (indicatif) and all terminal input and output ([`io`]); the libraries below it print nothing.
//!
//! Subcommands, one module each. Every `run` returns the process exit code, or a
//! [`io::CliError`] (a message printed as `pbgi: error: ...` with exit status 2, or a quiet stop
//! when standard output's reader went away). Output goes through [`io`], never `println!`.
pub mod check;
pub mod choices;
pub mod conformance;
pub mod eval;
pub mod experiment;
pub mod fixtures;
pub mod io;
pub mod merge;
pub mod output_paths;
pub mod pandora;
pub mod publish;
pub mod validate;

/// Result of a subcommand.
pub type CliResult = Result<std::process::ExitCode, io::CliError>;
