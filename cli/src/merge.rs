//! `pbgi merge DIR… --out DIR`: combines the output directories of `--shard K/N` runs (of
//! `pbgi validate` or `pbgi experiment`) into the files the unsplit run writes, byte for byte.
//! Checks first that the directories are one complete split (`1/N` … `N/N`, each once) of one
//! study with one configuration. `--partial` merges the shards of an `experiment` that are
//! finished so far into an interim report that says so (`MergeScope::Partial`).
use crate::io::{print, read_text_file};
use crate::output_paths::check_output_dir;
use crate::publish::Staging;
use crate::validate::read_config;
use crate::CliResult;
use pbgi_lab::experiment::report::MergeScope;
use pbgi_lab::study::shard::{
    check_complete, split_coverage, Manifest, Shard, StudyKind, MANIFEST,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `pbgi merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shard output directories (any order).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where the merged results go (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Accept an incomplete split of an `experiment` (shards still running): the report covers
    /// the samples the shards hold, and its tables open with a line saying how many of how many.
    #[arg(long)]
    pub partial: bool,
}

/// Runs `pbgi merge`.
pub fn run(args: Args) -> CliResult {
    let mut shards = Vec::new();
    let mut kind = None;
    let mut config_text: Option<(String, &Path)> = None;
    for dir in &args.dirs {
        let manifest: Manifest = read_config(&dir.join(MANIFEST))?;
        let shard: Shard = manifest
            .shard
            .parse()
            .map_err(|e| format!("{}: {e}", dir.join(MANIFEST).display()))?;
        match kind {
            None => kind = Some(manifest.study),
            Some(k) if k != manifest.study => {
                return Err(crate::io::CliError::Message(format!(
                    "{}: a {:?} shard among {k:?} shards",
                    dir.display(),
                    manifest.study
                )))
            }
            Some(_) => {}
        }
        let path = dir.join("config.toml");
        let text = read_text_file(&path)?;
        match &config_text {
            None => config_text = Some((text, dir)),
            Some((first, first_dir)) if *first != text => {
                return Err(crate::io::CliError::Message(format!(
                    "{}: the configuration differs from {}'s",
                    path.display(),
                    first_dir.join("config.toml").display()
                )))
            }
            Some(_) => {}
        }
        shards.push((dir.display().to_string(), shard));
    }
    let missing = if args.partial {
        if kind == Some(StudyKind::Validate) {
            return Err(crate::io::CliError::Message(
                "--partial: only `experiment` shards merge in part; a Theorem 1 verdict needs \
                 every sample"
                    .into(),
            ));
        }
        let (n, missing) = split_coverage(&shards)?;
        let names: Vec<String> = missing.iter().map(|k| format!("{k}/{n}")).collect();
        names.join(", ")
    } else {
        check_complete(&shards)?;
        String::new()
    };
    let dirs: Vec<&Path> = args.dirs.iter().map(PathBuf::as_path).collect();
    check_output_dir("--out", &args.out, &dirs)?;
    let staging = Staging::prepare(&args.out)?;
    let config_path = dirs[0].join("config.toml");
    match kind.expect("at least one directory") {
        StudyKind::Validate => {
            let config: pbgi_lab::theorem1::Config = read_config(&config_path)?;
            let (reports, files) = pbgi_lab::theorem1::report::merge(&config, &dirs)?;
            staging.publish(&files)?;
            print(&format!(
                "{}\n{}merged {} shards into {}\n",
                pbgi_lab::theorem1::report::text_table(&reports),
                pbgi_lab::theorem1::report::verdict_summary(&reports),
                dirs.len(),
                args.out.display()
            ))?;
            Ok(if pbgi_lab::theorem1::report::any_violation(&reports) {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        StudyKind::Experiment => {
            let config: pbgi_lab::experiment::ExperimentConfig = read_config(&config_path)?;
            // A --partial merge of every shard is the whole merge, byte for byte.
            let scope = if !missing.is_empty() {
                MergeScope::Partial
            } else {
                MergeScope::Whole
            };
            let (table, files) = pbgi_lab::experiment::report::merge(&config, &dirs, scope)?;
            staging.publish(&files)?;
            let still_missing = if missing.is_empty() {
                String::new()
            } else {
                format!(" (missing: {missing})")
            };
            print(&format!(
                "{table}\nmerged {} shards into {}{still_missing}\n",
                dirs.len(),
                args.out.display()
            ))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
