//! `pbgi experiment` (not yet implemented; see the issue that introduces it).
use super::CliResult;

/// Arguments of `pbgi experiment`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `pbgi experiment`.
pub fn run(_args: Args) -> CliResult {
    Err("`pbgi experiment` is not implemented yet".to_string())
}
