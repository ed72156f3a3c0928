//! `pbgi`: the project's command-line tool. Each subcommand lives in `pbgi_cli::*`.
use clap::{Parser, Subcommand};
use pbgi_cli::{self as cli, io};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pbgi",
    version,
    about = "Verified reference for cost-aware Bayesian-optimisation stopping theory"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate EI / LogEI / PBGI / LogEIPC on CSV rows from standard input (the oracle).
    Eval(cli::eval::Args),
    /// Grade another implementation's results against the oracle.
    Check(cli::check::Args),
    /// Print the fast-vs-reference per-region error table.
    Conformance(cli::conformance::Args),
    /// Regenerate or verify the golden fixture files.
    Fixtures(cli::fixtures::Args),
    /// Solve a Pandora's Box instance exactly (Weitzman's policy, DP optimum, Theorem 2).
    Pandora(cli::pandora::Args),
    /// Theorem 1 on trial: simulate BO with the PBGI/LogEIPC stopping rule, compare cost to C + U.
    Validate(cli::validate::Args),
    /// Reproduce the stopping paper's stopping-rule comparison (cost-adjusted simple regret).
    Experiment(cli::experiment::Args),
    /// Combine the output directories of `validate`/`experiment --shard K/N` runs.
    Merge(cli::merge::Args),
}

/// Records whether standard output is open before the Rust runtime reopens a closed one on
/// `/dev/null` (`io::record_stdout_at_start`): the C runtime calls the functions listed in
/// `.init_array` before `main`.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RECORD_STDOUT_AT_START: extern "C" fn() = io::record_stdout_at_start;

/// Parses the command line and runs the subcommand. Never panics on any input or output: every
/// failure is a one-line message and an exit status (`pbgi_cli::io` lists them).
fn main() -> ExitCode {
    let parsed = match Cli::try_parse() {
        Ok(parsed) => parsed,
        Err(usage) => return usage_exit(&usage),
    };
    let outcome = io::check_stdout_open().and_then(|()| match parsed.command {
        Command::Eval(a) => cli::eval::run(a),
        Command::Check(a) => cli::check::run(a),
        Command::Conformance(a) => cli::conformance::run(a),
        Command::Fixtures(a) => cli::fixtures::run(a),
        Command::Pandora(a) => cli::pandora::run(a),
        Command::Validate(a) => cli::validate::run(a),
        Command::Experiment(a) => cli::experiment::run(a),
        Command::Merge(a) => cli::merge::run(a),
    });
    match outcome {
        Ok(code) => code,
        Err(error) => error.report(),
    }
}

/// Help and version go to standard output (status 0), usage errors to standard error (status 2),
/// through the same error handling as everything else.
fn usage_exit(usage: &clap::Error) -> ExitCode {
    let text = usage.render().to_string();
    if usage.use_stderr() {
        let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), text.as_bytes());
        ExitCode::from(io::EXIT_ERROR)
    } else {
        match io::print(&text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => error.report(),
        }
    }
}
