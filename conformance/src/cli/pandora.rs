//! `pbgi pandora FILE.json [--budget B] [--tie early|late|PROB] [--engine reference|fast]`:
//! solve a Pandora's Box instance and print a JSON report (indices in policy order, expected
//! cost, best value and objective, and for small discrete instances the DP optimum and whether
//! the policy attains it). `pbgi pandora --counterexample EPS,DELTA` prints the EI-per-cost
//! counterexample instead. The file format is documented in [`format`].
pub mod format;
pub mod json;
pub mod report;
pub mod ties;

use super::{io, CliResult};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pbgi pandora`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Instance file (JSON; format in the README). Not needed with --counterexample.
    #[arg(required_unless_present = "counterexample")]
    pub file: Option<PathBuf>,
    /// Expected budget B (exact, e.g. 3/2 or 1.5): find Theorem 2's λ* and stop-early
    /// probability so that the index policy on costs λ*·c spends exactly B. Discrete only.
    #[arg(long)]
    pub budget: Option<String>,
    /// Tie rule when the best value in hand equals the next index: early (stop; default),
    /// late (open), or a probability PROB of running stop-early (drawn once per run).
    #[arg(long, default_value = "early")]
    pub tie: String,
    /// Which implementation computes the numbers.
    #[arg(long, value_enum, default_value_t = Engine::Reference)]
    pub engine: Engine,
    /// Also simulate RUNS runs of the policy (f64 simulator, seeded ChaCha8) and report the
    /// sample means with standard errors next to the computed expectations.
    #[arg(long, value_name = "RUNS")]
    pub simulate: Option<u32>,
    /// Seed of --simulate.
    #[arg(long, default_value_t = 0x5eed_0004)]
    pub seed: u64,
    /// Build the EI-per-cost counterexample for EPS,DELTA (e.g. 1/100,1/2; exact numbers) and
    /// report both policies' values (maximisation form, as in the source paper).
    #[arg(long, value_name = "EPS,DELTA", conflicts_with_all = ["file", "budget", "simulate"])]
    pub counterexample: Option<String>,
}

/// Which crate computes the report.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Exact rationals (discrete) / MPFR (normal): `pbgi_reference::pandora`.
    Reference,
    /// f64: `pbgi_fast::pandora`.
    Fast,
}

/// Runs `pbgi pandora`.
pub fn run(args: Args) -> CliResult {
    let report = match (&args.counterexample, &args.file) {
        (Some(spec), _) => report::counterexample_report(spec)?,
        (None, None) => return Err("an instance FILE or --counterexample is required".into()),
        (None, Some(path)) => {
            let text = io::read_text_file(path)?;
            let file =
                format::read_instance(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            let tie = report::parse_tie(&args.tie)?;
            let budget = args
                .budget
                .as_deref()
                .map(|b| format::parse_exact(b).map_err(|e| format!("--budget: {e}")))
                .transpose()?;
            let mut report = report::instance_report(
                &path.display().to_string(),
                &file,
                &tie,
                budget,
                args.engine,
            )
            .map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some(runs) = args.simulate {
                report["simulation"] = report::simulation(&file, &tie, runs, args.seed)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            report
        }
    };
    let mut text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
    text.push('\n');
    io::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
