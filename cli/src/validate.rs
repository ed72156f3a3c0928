//! `pbgi validate`: Theorem 1 on trial (stopping paper, Thm 1). A thin door onto
//! `pbgi_lab::theorem1`: reads the configuration, checks the output directory, runs the
//! samples (or one shard of them), writes the result files, then prints.
use crate::io::{print, read_text_file};
use crate::output_paths::check_output_dir;
use crate::publish::Staging;
use crate::CliResult;
use pbgi_lab::study::config::{parse_config_file, thread_pool, to_toml};
use pbgi_lab::study::progress::Progress;
use pbgi_lab::study::shard::Shard;
use pbgi_lab::theorem1::report::{
    any_violation, report_files, shard_files, text_table, verdict_summary,
};
use pbgi_lab::theorem1::{run_samples, Config};
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `pbgi validate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Configuration file (TOML, or JSON if it ends in `.json`); default: the built-in study.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Number of prior samples (overrides the configuration).
    #[arg(long, value_name = "N")]
    pub samples: Option<usize>,
    /// Worker threads, at least 1 (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "K")]
    pub threads: Option<usize>,
    /// Output directory for CSV, Markdown and SVG.
    #[arg(long, value_name = "DIR", default_value = "out/validate")]
    pub out: PathBuf,
    /// Master seed (overrides the configuration; any u64).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Run only the K-th of N slices of the samples (merge the slices with `pbgi merge`).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Print the effective configuration as TOML and exit.
    #[arg(long)]
    pub print_config: bool,
}

/// Reads a configuration file (TOML, or JSON for `.json`) with the tool's size cap.
pub(crate) fn read_config<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    parse_config_file(path, &read_text_file(path)?)
}

/// Runs `pbgi validate`.
pub fn run(args: Args) -> CliResult {
    let mut config = match &args.config {
        Some(path) => read_config::<Config>(path)?,
        None => Config::default(),
    };
    if let Some(n) = args.samples {
        config.samples = n;
    }
    if let Some(s) = args.seed {
        config.seed = s;
    }
    if args.print_config {
        print(&to_toml(&config)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let study = config.build()?;
    let pool = thread_pool(args.threads)?;
    let inputs: Vec<&Path> = args.config.iter().map(PathBuf::as_path).collect();
    check_output_dir("--out", &args.out, &inputs)?;
    let staging = Staging::prepare(&args.out)?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let samples = shard.samples(config.samples).len();
    eprintln!(
        "pbgi validate: {} configurations × {samples} samples (shard {shard}) on {} points \
         (seed {})",
        study.configurations.len(),
        study.problem.n_points(),
        config.seed
    );
    let started = Instant::now();
    let progress = Progress::new(samples, "samples", true);
    let results = run_samples(&study, shard, &pool, &progress);
    progress.finish();
    let results = results?;
    let elapsed = started.elapsed().as_secs_f64();
    if args.shard.is_some() {
        staging.publish(&shard_files(&config, &study, shard, &results)?)?;
        eprintln!("run time: {elapsed:.1} s");
        print(&format!(
            "shard {shard}: {samples} samples written to {} (combine the shards with `pbgi merge`)\n",
            args.out.display()
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (reports, files) = report_files(&config, &study, &results)?;
    staging.publish(&files)?;
    eprintln!("run time: {elapsed:.1} s");
    print(&format!(
        "{}\n{}results written to {}\n",
        text_table(&reports),
        verdict_summary(&reports),
        args.out.display()
    ))?;
    Ok(if any_violation(&reports) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
