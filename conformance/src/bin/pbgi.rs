//! `pbgi`: the project's command-line tool. Each subcommand lives in `pbgi_conformance::cli::*`.
use clap::{Parser, Subcommand};
use pbgi_conformance::cli;
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

fn main() -> ExitCode {
    let parsed = Cli::parse();
    let outcome = match parsed.command {
        Command::Eval(a) => cli::eval::run(a),
        Command::Check(a) => cli::check::run(a),
        Command::Conformance(a) => cli::conformance::run(a),
        Command::Fixtures(a) => cli::fixtures::run(a),
        Command::Pandora(a) => cli::pandora::run(a),
        Command::Validate(a) => cli::validate::run(a),
        Command::Experiment(a) => cli::experiment::run(a),
        Command::Merge(a) => cli::merge::run(a),
    };
    match outcome {
        Ok(code) => code,
        Err(message) => {
            eprintln!("pbgi: error: {message}");
            ExitCode::from(2)
        }
    }
}
