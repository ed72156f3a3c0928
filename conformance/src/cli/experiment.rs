//! `pbgi experiment`: the stopping paper's stopping-rule comparison in the 1-D Bayesian-regret
//! setting (issue 7). Runs every (cost, λ) setting × seed × acquisition to the cap with every
//! stopping rule observing the same trajectory; prints the summary and writes CSV and SVG files.
use super::CliResult;
use crate::experiment::acquisitions::make_acquisition;
use crate::experiment::config::ExperimentConfig;
use crate::experiment::report::{curves, summarize, summary_table, write_csv};
use crate::experiment::run::run_experiment;
use crate::experiment::svg::setting_plot;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `pbgi experiment`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Configuration file (`.toml` or `.json`); defaults reproduce the paper's 1-D setting
    /// with 10 seeds.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Number of seeds (objective draws) per setting; overrides the config (paper: 50).
    #[arg(long)]
    pub seeds: Option<usize>,
    /// Output directory for CSV and SVG files (created if missing).
    #[arg(long, default_value = "out/experiment")]
    pub out: PathBuf,
    /// Worker threads (0: one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// Runs `pbgi experiment`.
pub fn run(args: Args) -> CliResult {
    let mut config = match &args.config {
        Some(path) => ExperimentConfig::from_file(path)?,
        None => ExperimentConfig::default(),
    };
    if let Some(seeds) = args.seeds {
        config.seeds = seeds;
    }
    config.validate()?;
    let acquisitions = config
        .acquisitions
        .iter()
        .map(|name| make_acquisition(name).map_err(|e| format!("acquisitions: {e}")))
        .collect::<Result<Vec<_>, String>>()?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create output directory {}: {e}", args.out.display()))?;

    let total = config.costs.len() * config.lambdas.len() * config.seeds * acquisitions.len();
    let bar = indicatif::ProgressBar::new(total as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} runs (eta {eta})",
        )
        .map_err(|e| format!("progress bar template: {e}"))?
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let results = run_experiment(&config, &acquisitions, args.threads, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();

    let rows = summarize(&results, config.initial_points);
    let curves = curves(&results);
    write_csv(&args.out, &results, &rows, &curves, config.initial_points)?;
    for setting in 0..results.settings.len() {
        let s = &results.settings[setting];
        let path = args
            .out
            .join(format!("regret_{}_lambda_{}.svg", s.cost, s.lambda));
        std::fs::write(&path, setting_plot(&results, &rows, &curves, setting))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let table = summary_table(&results, &rows, config.seeds);
    let path = args.out.join("summary.txt");
    std::fs::write(&path, &table).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let path = args.out.join("config.json");
    let effective =
        serde_json::to_string_pretty(&config).map_err(|e| format!("cannot encode config: {e}"))?;
    std::fs::write(&path, effective)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("{table}");
    println!(
        "{total} runs in {elapsed:.1} s; CSV, SVG and summary.txt in {}",
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
