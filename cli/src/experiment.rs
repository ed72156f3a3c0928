//! `pbgi experiment`: the stopping paper's stopping-rule comparison in the 1-D Bayesian-regret
//! setting. A thin door onto `pbgi_lab::experiment`: reads the configuration (a file or a
//! preset), checks the output directory, runs every (cost, λ) setting × sample × acquisition
//! to the cap with every stopping rule observing the same trajectory (or one shard of the
//! samples), writes the result files, then prints the summary.
use crate::io::print;
use crate::output_paths::check_output_dir;
use crate::publish::Staging;
use crate::validate::read_config;
use crate::CliResult;
use pbgi_lab::experiment::report::{report_files, shard_files, timing_files};
use pbgi_lab::experiment::study::run_count;
use pbgi_lab::experiment::{run_experiment_timed, ExperimentConfig};
use pbgi_lab::study::config::{thread_pool, to_toml};
use pbgi_lab::study::progress::Progress;
use pbgi_lab::study::shard::Shard;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `pbgi experiment`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Configuration file (`.toml`, or `.json`); default: the `quick` preset.
    #[arg(long, value_name = "FILE", conflicts_with = "preset")]
    pub config: Option<PathBuf>,
    /// A built-in configuration: `quick` (10 samples, 1001 points), `paper` (the stopping
    /// paper's 1-D setting: 50 samples on 10,001 points), `paper-8d` (its 8-D setting on
    /// the continuous cube with multi-start L-BFGS from the authors' 80 starts per
    /// optimisation: cap 500 iterations, moving averages over full windows of 20, so no stop
    /// before check 20, PRB omitted), `paper-8d-cheap` (the same with 3 starts: about 30% of
    /// the time per sample, and earlier stops; see docs/results/lab-timings.md); the ablations
    /// `ablation-check-order` (the rule checked after and before the posterior update, App.
    /// C.2), `ablation-unknown-cost` (a GP on log cost, §3.2) and `ablation-mll` (the model's
    /// length scale and output scale refitted by maximum marginal likelihood, App. B).
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// Number of samples (objective draws, the paper's seeds) per setting; overrides the
    /// configuration.
    #[arg(long, value_name = "N")]
    pub samples: Option<usize>,
    /// Master seed (overrides the configuration; any u64).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Output directory for CSV and SVG files (created if missing).
    #[arg(long, value_name = "DIR", default_value = "out/experiment")]
    pub out: PathBuf,
    /// Worker threads, at least 1 (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "K")]
    pub threads: Option<usize>,
    /// Run only the K-th of N slices of the samples (merge the slices with `pbgi merge`).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Also measure each stopping rule's wall time per check and write it to DIR
    /// (`rule_timings.csv`, `.md`, `.svg`), apart from `--out`: a measurement, never part of
    /// the reproducible outputs (use `--threads 1` for clean times).
    #[arg(long, value_name = "DIR")]
    pub timings: Option<PathBuf>,
    /// Print the effective configuration as TOML and exit.
    #[arg(long)]
    pub print_config: bool,
}

/// Runs `pbgi experiment`.
pub fn run(args: Args) -> CliResult {
    let mut config = match (&args.config, &args.preset) {
        (Some(path), _) => read_config::<ExperimentConfig>(path)?,
        (None, Some(name)) => ExperimentConfig::preset(name)?,
        (None, None) => ExperimentConfig::quick(),
    };
    if let Some(samples) = args.samples {
        config.samples = samples;
    }
    if let Some(seed) = args.seed {
        config.seed = seed;
    }
    config.validate()?;
    if args.print_config {
        print(&to_toml(&config.effective()?)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let pool = thread_pool(args.threads)?;
    let inputs: Vec<&Path> = args.config.iter().map(PathBuf::as_path).collect();
    check_output_dir("--out", &args.out, &inputs)?;
    let timing_staging = match &args.timings {
        Some(dir) => {
            if dir.starts_with(&args.out) || args.out.starts_with(dir) {
                return Err(String::from(
                    "--timings: must be a directory apart from --out (neither inside the other)",
                )
                .into());
            }
            check_output_dir("--timings", dir, &inputs)?;
            Some(Staging::prepare(dir)?)
        }
        None => None,
    };
    let staging = Staging::prepare(&args.out)?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let total = run_count(&config, shard);
    let started = Instant::now();
    let progress = Progress::new(total, "runs", true);
    let results = run_experiment_timed(&config, shard, &pool, &progress);
    progress.finish();
    let (results, times) = results?;
    let elapsed = started.elapsed().as_secs_f64();
    eprintln!("{total} runs in {elapsed:.1} s");
    if let (Some(staging), Some(dir)) = (timing_staging, &args.timings) {
        staging.publish(&timing_files(&results, &times)?)?;
        eprintln!("rule timings (a measurement) in {}", dir.display());
    }
    if args.shard.is_some() {
        staging.publish(&shard_files(&config, &results, shard)?)?;
        print(&format!(
            "shard {shard}: {total} runs written to {} (combine the shards with `pbgi merge`)\n",
            args.out.display()
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (table, files) = report_files(&config, &results)?;
    staging.publish(&files)?;
    print(&format!(
        "{table}\nCSV, SVG and summary.txt in {}\n",
        args.out.display()
    ))?;
    Ok(ExitCode::SUCCESS)
}
