//! `pbgi pandora FILE.json [--budget B] [--tie early|late|PROB] [--engine reference|fast]`:
//! solve a Pandora's Box instance and print a JSON report (indices in policy order, expected
//! cost, best value and objective, and for small discrete instances the DP optimum and whether
//! the policy attains it). `pbgi pandora --counterexample EPS,DELTA` prints the EI-per-cost
//! counterexample instead. The file format is documented in [`format`](mod@format); the report
//! is the library's ([`pbgi_conformance::pandora`]); here are the arguments and the terminal.
use crate::{io, CliResult};
use pbgi_conformance::pandora::{format, report};
use pbgi_reference::pandora::work::DEFAULT_MAX_WORK;
use pbgi_reference::pandora::Progress;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `pbgi pandora`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Instance file (JSON; format in docs/pandora.md). Not needed with --counterexample.
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
    /// Largest exact DP table (2^boxes × (distinct values + 1) entries); larger instances skip
    /// the DP cross-check and say so.
    #[arg(long, value_name = "N", default_value_t = report::DEFAULT_MAX_STATES,
          value_parser = clap::value_parser!(usize))]
    pub max_states: usize,
    /// Largest exact-arithmetic work (rational operations × bits of their numbers; 3e9 to 6e9
    /// units a second) for the DP (skipped beyond it), the policy's evaluation, the KWW
    /// objective, the normal-box quadrature and the --budget solve (an error beyond it).
    #[arg(long, value_name = "UNITS", default_value_t = DEFAULT_MAX_WORK)]
    pub max_work: f64,
    /// Build the EI-per-cost counterexample for EPS,DELTA (e.g. 1/100,1/2; exact numbers) and
    /// report both policies' values (maximisation form, as in the source paper).
    #[arg(long, value_name = "EPS,DELTA", conflicts_with_all = ["file", "budget", "simulate"])]
    pub counterexample: Option<String>,
}

/// Which crate computes the report ([`pbgi_conformance::pandora::Engine`], as a choice of
/// the command line).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Exact rationals (discrete) / MPFR (normal): `pbgi_reference::pandora`.
    Reference,
    /// f64: `pbgi_fast::pandora`.
    Fast,
}

impl From<Engine> for pbgi_conformance::pandora::Engine {
    fn from(engine: Engine) -> Self {
        match engine {
            Engine::Reference => pbgi_conformance::pandora::Engine::Reference,
            Engine::Fast => pbgi_conformance::pandora::Engine::Fast,
        }
    }
}

/// A progress line on standard error every few seconds, once a solve has run for a while: long
/// exact solves (a big DP, a budget with many critical points) say where they are.
struct ProgressLines {
    start: Instant,
    last: Option<Instant>,
}

impl ProgressLines {
    /// Quiet for the first [`ProgressLines::QUIET`], then a line at most every
    /// [`ProgressLines::EVERY`].
    const QUIET: Duration = Duration::from_secs(2);
    const EVERY: Duration = Duration::from_secs(5);

    fn printer() -> impl FnMut(Progress) {
        let mut lines = ProgressLines {
            start: Instant::now(),
            last: None,
        };
        move |p| lines.show(p)
    }

    fn show(&mut self, p: Progress) {
        let now = Instant::now();
        let since = self.last.unwrap_or(self.start);
        let wait = if self.last.is_some() {
            Self::EVERY
        } else {
            Self::QUIET
        };
        if now.duration_since(since) < wait {
            return;
        }
        self.last = Some(now);
        let percent = 100.0 * p.done as f64 / p.total.max(1) as f64;
        let _ = writeln!(
            std::io::stderr().lock(),
            "pbgi pandora: {}: {} of {} steps ({percent:.0}%), {:.0} s",
            p.stage,
            p.done,
            p.total,
            now.duration_since(self.start).as_secs_f64()
        );
    }
}

/// Runs `pbgi pandora`.
pub fn run(args: Args) -> CliResult {
    let report = match (&args.counterexample, &args.file) {
        (Some(spec), _) => report::counterexample_report(spec)?,
        (None, None) => return Err("an instance FILE or --counterexample is required".into()),
        (None, Some(path)) => {
            let file = format::read_instance_file(path)?;
            let tie = report::parse_tie(&args.tie)?;
            let budget = args
                .budget
                .as_deref()
                .map(|b| format::parse_exact(b).map_err(|e| format!("--budget: {e}")))
                .transpose()?;
            let mut exact = report::Exact::with_limits(args.max_states, args.max_work)?;
            exact.progress = Box::new(ProgressLines::printer());
            let mut report = report::instance_report(
                &path.display().to_string(),
                &file,
                &tie,
                budget,
                args.engine.into(),
                &mut exact,
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
