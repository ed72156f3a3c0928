//! `pbgi check` (not yet implemented; see the issue that introduces it).
use super::CliResult;

/// Arguments of `pbgi check`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `pbgi check`.
pub fn run(_args: Args) -> CliResult {
    Err("`pbgi check` is not implemented yet".to_string())
}
