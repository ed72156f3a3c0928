//! `pbgi validate` (not yet implemented; see the issue that introduces it).
use super::CliResult;

/// Arguments of `pbgi validate`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `pbgi validate`.
pub fn run(_args: Args) -> CliResult {
    Err("`pbgi validate` is not implemented yet".to_string())
}
