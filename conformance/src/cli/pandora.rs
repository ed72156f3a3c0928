//! `pbgi pandora` (not yet implemented; see the issue that introduces it).
use super::CliResult;

/// Arguments of `pbgi pandora`.
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Runs `pbgi pandora`.
pub fn run(_args: Args) -> CliResult {
    Err("`pbgi pandora` is not implemented yet".to_string())
}
