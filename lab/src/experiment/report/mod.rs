//! The reports of an experiment, one concern a file: the statistics (`summary`), the raw runs
//! that every run and shard writes and `pbgi merge` reads back (`raw`), the CSV and on-screen
//! tables (`tables`), the figures (`figures`) and `comparison.md` (`markdown`); here, the
//! files of an output directory, of a shard, and of merged shards. No file carries a timing.
mod figures;
mod markdown;
mod raw;
mod summary;
mod tables;

pub use figures::setting_figure;
pub use markdown::comparison_markdown;
pub use raw::{raw_files, read_raw, RUNS_HEADER, TRAJECTORY_HEADER};
pub use summary::{curves, summarize, Curve, SummaryRow, HINDSIGHT, HINDSIGHT_FIXED};
pub use tables::summary_table;

use super::config::ExperimentConfig;
use super::study::{settings, ExperimentResults};
use crate::study::config::to_toml;
use crate::study::output::Files;
use crate::study::shard::{read_shards, shard_directory, Shard, StudyKind};
use std::path::Path;
use summary::setting_label;
use tables::summary_files;

/// Everything an output directory holds, in the order it is written, and the on-screen table.
pub fn report_files(
    config: &ExperimentConfig,
    results: &ExperimentResults,
) -> Result<(String, Files), String> {
    let rows = summarize(results, config.initial_points);
    let curves = curves(results);
    let table = summary_table(results, &rows, config.samples);
    let mut files = raw_files(results, config.initial_points)?;
    files.extend(summary_files(results, &rows, &curves)?);
    for setting in 0..results.settings.len() {
        let (cost, lambda) = setting_label(results, setting);
        files.push((
            format!("regret_{cost}_lambda_{lambda}.svg"),
            setting_figure(results, &rows, &curves, setting)?.into_bytes(),
        ));
    }
    files.push(("summary.txt".to_string(), table.clone().into_bytes()));
    files.push((
        "comparison.md".to_string(),
        comparison_markdown(results, &rows, config.samples).into_bytes(),
    ));
    files.push((
        "config.toml".to_string(),
        to_toml(&config.effective()?)?.into_bytes(),
    ));
    Ok((table, files))
}

/// The files of one shard: the raw runs, the configuration and the manifest.
pub fn shard_files(
    config: &ExperimentConfig,
    results: &ExperimentResults,
    shard: Shard,
) -> Result<Files, String> {
    shard_directory(
        StudyKind::Experiment,
        shard,
        raw_files(results, config.initial_points)?,
        to_toml(&config.effective()?)?,
    )
}

/// Merges shard directories (already checked to be a complete set with one configuration):
/// the on-screen table and the files, byte for byte those of the unsplit run.
pub fn merge(config: &ExperimentConfig, dirs: &[&Path]) -> Result<(String, Files), String> {
    config.validate()?;
    let rules = super::study::rule_names(&config.rule_factories()?);
    let runs = read_shards(
        dirs,
        |dir| read_raw(config, &rules, dir),
        |r| (r.setting, r.sample, r.acquisition),
    )?;
    let expected = settings(config).len() * config.samples * config.acquisitions.len();
    if runs.len() != expected
        || runs.windows(2).any(|w| {
            (w[0].setting, w[0].sample, w[0].acquisition)
                == (w[1].setting, w[1].sample, w[1].acquisition)
        })
    {
        return Err(format!(
            "the shards hold {} runs, not the {expected} distinct runs of the configuration",
            runs.len()
        ));
    }
    let results = ExperimentResults {
        settings: settings(config),
        acquisitions: config.acquisitions.clone(),
        rules,
        runs,
    };
    report_files(config, &results)
}
