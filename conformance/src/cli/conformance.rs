//! `pbgi conformance` (not yet implemented; see the issue that introduces it).
use super::CliResult;

/// Arguments of `pbgi conformance`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `pbgi conformance`.
pub fn run(_args: Args) -> CliResult {
    Err("`pbgi conformance` is not implemented yet".to_string())
}
