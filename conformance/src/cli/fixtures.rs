//! `pbgi fixtures` (not yet implemented; see the issue that introduces it).
use super::CliResult;

/// Arguments of `pbgi fixtures`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `pbgi fixtures`.
pub fn run(_args: Args) -> CliResult {
    Err("`pbgi fixtures` is not implemented yet".to_string())
}
