//! `pbgi eval` (not yet implemented; see the issue that introduces it).
use super::CliResult;

/// Arguments of `pbgi eval`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `pbgi eval`.
pub fn run(_args: Args) -> CliResult {
    Err("`pbgi eval` is not implemented yet".to_string())
}
